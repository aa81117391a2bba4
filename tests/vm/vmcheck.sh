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
# new in a guest, nor the VM tests, which need QEMU. Nor the unit tests:
# they are hermetic (stand-in directories for sysfs and procfs), and the
# host's unit tier runs the same binaries (218 results, 8 s of the
# guest's host time, 2026-12-07). Nor damon.sh: these kernels' guests
# cannot run the DAMON trigger (it skips there; vmdamon.sh runs it on
# Debian's kernel).
skip='runall|compare|docs|install|sweep|damon|vm.*'
# ksmd.sh's reproducers take ksmd's full-scan tracepoints and the lock
# tracepoints, nothing of the walk: where the host offers ksm-scan, the
# host's integration tier runs the same paths, and the guest's run
# (58 s of its host time, 2026-12-07) says nothing new.
offers ksm-scan && skip="$skip|ksmd"
mapfile -t names < <(cd "$top/tests/integration" && ls *.sh |
		     sed 's/\.sh$//' | grep -vxE "$skip")
for which in unfixed fixed; do
	# What does not depend on the KSM walk's fix runs on one kernel
	# (make check's time budget): the suite's own plumbing (signals,
	# faults, the kernel log), the probes (the same on both kernels:
	# probes.sh), and the walks that are not KSM's (ksmd's scans,
	# the other kinds' walks). What does not depend on the kernel at
	# all runs on the host only: the command
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
		grep -vxE 'ksmd|signals|faults|kmsg|kinds|execstorm|fork|madvise|memfail|probes')
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
	[ $which = fixed ] && least=30
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
	if [ $which = unfixed ]; then
		assert "$which kernel: the guest's tests met rmap-tp, funcgraph, kprobe and migrate" \
			bash -c "grep -q '^quick: # here: trigger migrate, probe rmap-tp' '$out/check.log' &&
				 grep -q '^probes: # here: trigger migrate; walk-level probes: rmap-tp funcgraph kprobe' '$out/check.log'"
	else
		assert "$which kernel: the guest's tests met rmap-tp and migrate" \
			grep -q '^quick: # here: trigger migrate, probe rmap-tp' \
			"$out/check.log"
	fi
done
finish
