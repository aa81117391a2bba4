#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm-run boots the shared test kernel (rmap tracepoints, two NUMA
# nodes) under QEMU and runs the quick preset inside: the KSM walks must
# be measured by the rmap tracepoints in the hundreds of milliseconds
# during move_pages() migration, the controls far below, and the files
# must come back intact. The test kernel is RMAP_REPRO_TEST_KERNEL, or
# ../shared/kernels/linux-6.12-rmap-tp.bzImage beside the checkout.
. "$(dirname "$0")/../lib/integration.sh"

kernel=${RMAP_REPRO_TEST_KERNEL:-}
for k in "$top/../shared/kernels/linux-6.12-rmap-tp.bzImage" \
	 /work/shared/kernels/linux-6.12-rmap-tp.bzImage; do
	[ -z "$kernel" ] && [ -r "$k" ] && kernel=$k
done
if [ -z "$kernel" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	echo "ok 1 vm-run # SKIP no test kernel or no QEMU (set RMAP_REPRO_TEST_KERNEL)"
	finish
	exit 0
fi

vm=$top/scripts/vm-run
"$vm" >/dev/null 2>"$work/noarg.err"
assert "vm-run without a kernel: exit 2 and a reason" \
	bash -c "[ $? = 2 ] && grep -q 'no kernel' '$work/noarg.err'"
"$vm" --kernel "$kernel" --numa-nodes x >/dev/null 2>&1
assert "vm-run with a bad --numa-nodes: exit 2" [ $? = 2 ]

before=$(snapshot)
out=$work/vm
"$vm" --kernel "$kernel" --preset quick --only ksm-mprotect-split \
	--out "$out" --timeout 900 >"$work/stdout" 2>"$work/stderr"
rc=$?
after=$(snapshot)
j=$out/results.json
r='.results[0]'

assert "vm-run exits 1: the guest reproduced the latency bug" [ $rc = 1 ]
assert "report.txt, results.json, results.ktap and console.log came back" \
	bash -c "for f in report.txt results.json results.ktap console.log; do
		 [ -s '$out/'\$f ] || exit 1; done"
assert_jq "the guest ran the test kernel on two NUMA nodes" "$j" \
	'(.system.kernel.release | startswith("6.12")) and .system.numa_nodes == 2'
assert_jq "auto chose the migrate trigger (move_pages between nodes)" "$j" \
	"$r.trigger.name == \"migrate\" and ($r.trigger.how | test(\"move_pages\"))"
assert_jq "every case was measured by the rmap tracepoints (rmap-tp)" "$j" \
	"$r.cases | all(.probe == \"rmap-tp\" and .probe_detail.walk_level and .latency_ms.count > 0)"
assert_jq "every filled page moved to the other node, none failed" "$j" \
	"$r.cases | all(.reach.pages_moved == .reach.pages_filled and .reach.pages_move_failed == 0)"
assert_jq "KSM walks take hundreds of milliseconds (max >= 100 ms)" "$j" \
	"$r.cases[0].page_type == \"ksm\" and $r.cases[0].latency_ms.max >= 100"
assert_jq "at least two KSM walks (unmap and remap of a KSM page)" "$j" \
	"$r.cases[0].latency_ms.count >= 2"
assert_jq "anon and file walks stay short (p90 < 1 ms, max < 20 ms)" "$j" \
	"$r.cases[1:] | all(.latency_ms.p90 < 1 and .latency_ms.max < 20)"
assert_jq "verdict reproduced, no lost events, guest restored itself" "$j" \
	"$r.verdict == \"reproduced\" and ($r.cases | all(.lost_events == 0)) and $r.safety.restore_failures == 0"
assert "results.ktap: the reproducer is not ok (bug reproduced)" \
	grep -qx "not ok 1 ksm-mprotect-split" "$out/results.ktap"
assert "the report says which probe measured and what it is" \
	grep -q "It bounds: it is the walk itself" "$out/report.txt"
assert "vm-run printed the guest's progress" \
	grep -q "guest: ksm-mprotect-split: run 1/1, case ksm: trigger migrate" \
	"$work/stderr"
assert_same "the host is as before" "$before" "$after"

"$vm" --kernel "$kernel" --preset quick --only ksm-mprotect-split \
	--out "$work/tmo" --timeout 4 >/dev/null 2>"$work/tmo.err"
rc=$?
assert "a guest past --timeout: QEMU killed, exit 2, and vm-run says so" \
	bash -c "[ $rc = 2 ] && grep -q 'timed out after 4s: QEMU was killed' '$work/tmo.err'"
assert "no QEMU is left running" bash -c "! pgrep -f 'qemu-system[-]x86.*rmap-repro-vm' >/dev/null"
finish
