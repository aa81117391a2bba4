#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The negative control: the shared 6.12 test kernel whose KSM walk is
# fixed (linux-6.12-rmap-tp-ksmfix: each rmap_item keeps its page's
# index, the walk looks up only that index) must not reproduce the
# ksm-mprotect-split pathology, with the same pattern, trigger and probe
# under which its unfixed twin reproduces it (vm.sh asserts that half).
# The verdict is asserted only here and in vm.sh: on known kernels.
. "$(dirname "$0")/../lib/integration.sh"

if ! vm_possible; then
	ok "the fixed test kernel # SKIP no test kernels or no QEMU (../shared/kernels, RMAP_REPRO_TEST_KERNEL_FIXED)"
	finish
	exit 0
fi
before=$(snapshot)
out=$work/fixed
vm_quick "$(test_kernel fixed)" "$out" ksm-mprotect-split
rc=$?
j=$out/results.json
r='.results[0]'
assert "vm-run exits 0: the fixed kernel does not reproduce" [ $rc = 0 ]
assert_jq "verdict not-reproduced, by the documented rule" "$j" \
	"$r.verdict == \"not-reproduced\" and ($r | .verdict == ($verdict_rule))"
assert_jq "the same setting as the unfixed run: migrate, rmap-tp, 20000 VMAs, KSM merged" \
	"$j" "$r.trigger.name == \"migrate\" and ($r.cases | all(.probe == \"rmap-tp\" and .pattern.vmas == 20000)) and $r.pattern.ksm_pages_sharing >= 500"
assert_jq "KSM walks were measured, every page moved" "$j" \
	"$r.cases | all(.latency_ms.count > 0 and .reach.pages_moved == .reach.pages_filled)"
assert_jq "the KSM walks stay under the threshold (max < $(jq -r "$r.threshold_ms" "$j" 2>/dev/null) ms)" \
	"$j" "$r.cases[0].latency_ms.max < $r.threshold_ms"
assert "results.ktap: the reproducer is ok" \
	grep -qx "ok 1 ksm-mprotect-split" "$out/results.ktap"
assert_same "the host is as before" "$before" "$(snapshot)"
finish
