#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host tests (tests/run) that depend on the kernel pass inside a
# guest of each shared test kernel: the unfixed and the fixed 6.12, with the rmap tracepoints,
# function_graph, kprobes, two NUMA nodes and memcg v2, all of which
# this development machine lacks. Nothing in them may name a probe,
# trigger or verdict that they did not derive from the kernel.
# In the vm tier's shared guests (tests/lib/vmshare.sh).
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

if ! vm_possible; then
	ok "tests/run in the test kernels # SKIP no test kernels or no QEMU (../shared/kernels)"
	finish
	exit 0
fi
# Every test that depends on the kernel: not the scripts' own tests
# (run-all on stand-ins, compare and docs on files, install, sweep's fit and
# plots), which say nothing
# new in a guest, nor the VM tests, which need QEMU.
mapfile -t names < <(cd "$top/build/tests" && ls -d test_* 2>/dev/null;
		     cd "$top/tests/integration" && ls *.sh | sed 's/\.sh$//' |
		     grep -vxE 'runall|compare|docs|install|sweep|vm.*')
for which in unfixed fixed; do
	# What does not depend on the KSM walk's fix runs on one kernel
	# (make check's time budget): the unit tests, the suite's own
	# plumbing (signals, faults, the kernel log) and the walks that are
	# not KSM's (ksmd's scans, the other kinds' walks). What does not
	# depend on the kernel at all runs on the host only: the command
	# line, a pattern beyond vm.max_map_count, chaos.sh's subset (make
	# chaos runs its guest's share: tests/chaos/vmchaos.sh). pressure.sh
	# runs in a guest of its own (vmpressure.sh). On the fixed kernel
	# neither exec-storm's file walks depend on the fix, nor need
	# fork.sh, madvise.sh and memfail.sh run again: vmpatterns.sh and
	# vmmemfail.sh run ksm-fork, madvise-split and ksm-memory-failure
	# on it, with its verdicts (66 s of the guest's time in CI,
	# 2026-12-03, which pays for vmrenamed.sh).
	mapfile -t run < <(printf '%s\n' "${names[@]}" |
		grep -vxE 'pressure|cli|patterns|chaos')
	[ $which = fixed ] && mapfile -t run < <(printf '%s\n' "${run[@]}" |
		grep -vxE 'test_.*|ksmd|signals|faults|kmsg|kinds|execstorm|fork|madvise|memfail')
	# the unfixed kernel's share is the tier's longest job: a guest of
	# its own, beside the others (tests/lib/vm-shared-boot, "+TAG")
	boot=$which
	[ $which = unfixed ] && boot=unfixed+check
	vm_job $boot $which --check -- "${run[@]}"
done
vm_jobs_run
for which in unfixed fixed; do
	# at least the results of the tests it runs there, roughly
	least=100
	[ $which = fixed ] && least=50
	out=$(vm_job_dir $which)
	rc=$(vm_job_rc $which)
	last=$(tail -1 "$out/check.log" 2>/dev/null)
	if [ $rc = 0 ] && [[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] &&
	   [ "${BASH_REMATCH[1]}" -gt $least ]; then
		ok "$which kernel: tests/run passes in the guest ($last)"
	else
		not_ok "$which kernel: tests/run passes in the guest" \
			"its exit $rc, last line '$last'" \
			"$(grep -E 'not ok|plan|: #' "$out/check.log" 2>/dev/null | grep -v '# here:' | head -30)"
	fi
	assert "$which kernel: the guest's tests met rmap-tp, funcgraph, kprobe and migrate" \
		bash -c "grep -q '^quick: # here: trigger migrate, probe rmap-tp' '$out/check.log' &&
			 grep -q '^probes: # here: trigger migrate; walk-level probes: rmap-tp funcgraph kprobe' '$out/check.log'"
done
finish
