#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The negative control: the shared 6.12 test kernel whose KSM walk is
# fixed (linux-6.12-rmap-tp-ksmfix: each rmap_item keeps its page's
# index, the walk looks up only that index) must not reproduce the
# ksm-mprotect-split pathology, with the same pattern, trigger and probe
# under which its unfixed twin reproduces it, moving the pages one
# move_pages() call at a time (--migrate-batch 1, as the published
# benchmark did): a job in each of the vm tier's shared guests
# (tests/lib/vmshare.sh). Verdicts are asserted only on these known
# kernels. Then vm-run's --bisect codes for a kernel that does not
# report (125) and a usage error (128). vm-run given both kernels,
# which compares them, is vmcompare.sh.
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

if ! vm_possible; then
	ok "the fixed test kernel # SKIP no test kernels or no QEMU (../shared/kernels, RMAP_REPRO_TEST_KERNEL_FIXED)"
	finish
	exit 0
fi
# 4,000 VMAs: the unfixed walks 13x the threshold on instruction counts
for which in unfixed fixed; do
	vm_job $which $which --preset quick --only ksm-mprotect-split -- \
		--migrate-batch 1 --pages 4000
done
vm_jobs_run

j=$(vm_job_dir fixed)/results.json
r='.results[0]'
assert "fixed: run-all exits 0 (not reproduced)" [ "$(vm_job_rc fixed)" = 0 ]
assert_jq "verdict not-reproduced, by the documented rule" "$j" \
	"$r.verdict == \"not-reproduced\" and ($r | .verdict == ($verdict_rule))"
assert_jq "the same setting as the unfixed run: migrate, rmap-tp, 4000 VMAs, KSM merged" \
	"$j" "$r.trigger.name == \"migrate\" and ($r.cases | all(.probe == \"rmap-tp\" and .pattern.vmas == 4000)) and $r.pattern.ksm_pages_sharing >= 500"
assert_jq "KSM walks were measured, every page moved" "$j" \
	"$r.cases | all(.latency_ms.count > 0 and .reach.pages_moved == .reach.pages_filled)"
assert_jq "--migrate-batch 1: one move_pages() call per page (the benchmark's way)" \
	"$j" "$r.trigger.how | test(\"of 512 pages to the next node in 512 call\\\\(s\\\\)\")"
assert_jq "the KSM walks stay under the threshold (max < $(jq -r "$r.threshold_ms" "$j" 2>/dev/null) ms)" \
	"$j" "$r.cases[0].latency_ms.max < $r.threshold_ms"
assert "results.ktap: the reproducer is ok" \
	grep -qx "ok 1 ksm-mprotect-split" "$(vm_job_dir fixed)/results.ktap"
assert_jq "the unfixed twin, same options, reproduced" \
	"$(vm_job_dir unfixed)/results.json" "$r.verdict == \"reproduced\""

# (both kernels in one vm-run, compared: vmcompare.sh)
before=$(snapshot)
unfixed=$(test_kernel unfixed)
# --bisect: a kernel that does not report is skipped, a usage error aborts
"$top/scripts/vm-run" --kernel "$unfixed" --accel tcg --timeout 1 \
	--bisect --out "$work/short" >/dev/null 2>&1
assert "--bisect: a kernel that did not report exits 125" [ $? = 125 ]
"$top/scripts/vm-run" --kernel "$unfixed" --numa-nodes x --bisect \
	>/dev/null 2>&1
assert "--bisect: a usage error exits 128" [ $? = 128 ]
assert_same "the host is as before" "$before" "$(snapshot)"
finish
