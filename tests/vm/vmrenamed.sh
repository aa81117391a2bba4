#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A kernel with Linux 7.3's names of the interval-tree helpers
# (../shared/kernels/linux-6.12-renamed: anon_rmap_tree_*,
# mapping_rmap_tree_*; no rmap tracepoints, the walk unfixed), booted
# once with the fingerprint preset and --cross-check: the probes and
# the step counter find the functions by role, the flagship reproduces
# by function_graph with kprobes on the same walks, its steps are
# counted on anon_rmap_tree_iter_first/_next (about the pattern's VMAs
# per rmap_item), memory_failure()'s collect_procs_ksm() is told apart
# by the kernel stack of its steps, the KSM page moved by mremap is
# migrated and swapped out with every mapping of it (the walk is the
# unfixed one, which finds them all), and scripts/fingerprint reads the
# run as unfixed. Verdicts are asserted only on this known kernel.
# In the vm tier's shared guest of this kernel (tests/lib/vmshare.sh).
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

kernel=$(test_kernel renamed)
if [ -z "$kernel" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	ok "the renamed kernel # SKIP no linux-6.12-renamed.bzImage or no QEMU (RMAP_REPRO_TEST_KERNEL_RENAMED)"
	finish
	exit 0
fi
vm_job renamed fp --preset fingerprint -- --cross-check
vm_jobs_run
out=$(vm_job_dir fp)
rc=$(vm_job_rc fp)
j=$out/results.json
split='.results[] | select(.reproducer == "ksm-mprotect-split")'
mf='.results[] | select(.reproducer == "ksm-memory-failure")'

assert "run-all exits 1: the unfixed walk reproduced" [ "$rc" = 1 ]
assert_jq "the guest ran the renamed kernel: 7.3's names in kallsyms" "$j" \
	'.system.probes.functions.anon_first == "anon_rmap_tree_iter_first" and .system.probes.functions.file_next == "mapping_rmap_tree_iter_next" and .system.probes.functions.walk_ksm == "rmap_walk_ksm"'
assert_jq "no rmap tracepoints: auto chose function_graph, kprobes cross-checked" "$j" \
	"$split | .verdict == \"reproduced\" and (.cases | all(.probe == \"funcgraph\" and .latency_ms.count > 0)) and (.cases[0].cross_check | map(.probe) | index(\"kprobe\") != null)"
assert_jq "kprobes agree with function_graph on the KSM walks within 15%" "$j" \
	"$split | .cases[0] as \$c | \$c.cross_check | map(select(.probe == \"kprobe\")) | length == 1 and all(((.latency_ms.max - \$c.latency_ms.max) / \$c.latency_ms.max | fabs) < 0.15)"
assert_jq "steps counted on anon_rmap_tree_iter_first and _next, the file case on mapping_rmap_tree_*" "$j" \
	"$split | .cases[0].iterations.counted_on == \"anon_rmap_tree_iter_first and anon_rmap_tree_iter_next\" and (.cases[] | select(.page_type == \"file\") | .iterations.counted_on) == \"mapping_rmap_tree_iter_first and mapping_rmap_tree_iter_next\""
assert_jq "KSM steps per rmap_item near the pattern's VMAs, anon a handful" "$j" \
	"$split | .pattern.vmas as \$v | .cases[0].iterations.steps_per_rmap_item_mean > \$v / 2 and .cases[0].iterations.steps_per_rmap_item_mean < \$v * 2 and (.cases[] | select(.page_type == \"anon\") | .iterations.steps_per_walk_mean) < 10"
assert_jq "memory failure: collect_procs_ksm's steps told apart from the unmapping walk's" "$j" \
	"$mf | .cases[0].iterations.by_caller | (map(.role) | index(\"collect_ksm\") != null and index(\"walk_ksm\") != null) and (map(select(.role == \"collect_ksm\"))[0].steps_per_first_call > 1000)"
assert_jq "the report's kernel line: before 7.3, a backport would show" "$j" \
	"$split | .release_has_walk_fix == false and (.kernel_line | test(\"before 7.3\"))"
"$top/scripts/fingerprint" --results "$j" >"$work/fp.txt" 2>&1
rc=$?
assert "fingerprint: the KSM walk and memory failure unfixed, the mremap oracle correct (exit 1)" \
	bash -c "[ $rc = 1 ] && grep -q 'KSM walk (rmap_walk_ksm): UNFIXED' '$work/fp.txt' &&
		 grep -q 'memory failure (collect_procs_ksm): UNFIXED' '$work/fp.txt' &&
		 grep -q 'mremap, then migration (oracle): CORRECT' '$work/fp.txt'"
assert_jq "swap-out after mremap: reclaim took every page of every case out, each mapping with it, and they came back intact" "$j" \
	'.results[] | select(.reproducer == "ksm-mremap@swap") | .trigger.name == "reclaim" and (.cases | all(.oracle.pages_checked > 0 and .oracle.pages_failed == 0 and .oracle.mappings_missed == 0))'
assert "fingerprint: the swap-out oracle correct" \
	grep -q 'mremap, then swap-out (oracle): CORRECT' "$work/fp.txt"
assert "everything the runs set up in the guest was undone" \
	bash -c "grep -qs 'removed dynamic event rmap_repro/rr_iter_first' '$(vm_boot_err renamed)' '$out/report.txt' &&
		 ! grep -q 'could not undo' '$(vm_boot_err renamed)'"
finish
