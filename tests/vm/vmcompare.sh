#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run given the unfixed and the fixed 6.12 test kernels
# (--kernel A --kernel B) runs the same pattern on each, then compares
# them: A reproduced and B not, the verdict change marked in
# compare.txt and printed, the two runs side by side in the pictures,
# and compare.json's ratio that of the two runs' files. On instruction
# counts (--exact): on wall time "A reproduced, B not" failed in a run
# of 2026-12-07 (B's KSM walk maximum 0.043 of A's, 0.007 in the run
# after: a TCG hiccup of the fixed kernel's walk), and the verdicts,
# not the clock, are what is compared here; vm.sh runs vm-run on wall
# time. A smaller pattern than the preset's (4,000 VMAs: the unfixed
# walks 175 ms, 17x the threshold; the fixed 0.33 ms).
# beside-guests: every boot of its own counts instructions, which the
# shared guests' load cannot move (tests/run starts it beside them)
. "$(dirname "$0")/../lib/integration.sh"

if ! vm_possible; then
	ok "two kernels compared # SKIP no test kernels or no QEMU (../shared/kernels, RMAP_REPRO_TEST_KERNEL_FIXED)"
	finish
	exit 0
fi
r='.results[0]'
before=$(snapshot)
out=$work/both
unfixed=$(test_kernel unfixed)
"$top/scripts/vm-run" --kernel "$unfixed" --kernel "$(test_kernel fixed)" \
	--config "$(test_kernel_config "$unfixed")" --exact --preset quick \
	--only ksm-mprotect-split --out "$out" --timeout 900 \
	-- --pages 4000 --identical 256 >"$out.stdout" 2>"$out.stderr"
rc=$?
assert "vm-run of two kernels exits 0: both runs reported" [ $rc = 0 ]
assert_jq "A (unfixed) reproduced, B (fixed) not, both on instruction counts" \
	"$out/A/results.json" \
	"$r.verdict == \"reproduced\" and \$b[0]$r.verdict == \"not-reproduced\" and $r.system.exact_clock != null and \$b[0]$r.system.exact_clock != null" \
	--slurpfile b "$out/B/results.json"
# the comparison: the verdict change marked, the ratios the two files'
assert "compare.txt: B's verdict marked as changed, printed by vm-run too" \
	bash -c "grep -q 'verdict: A reproduced, B not-reproduced \\*\$' '$out/compare.txt' &&
		 grep -q 'verdict: A reproduced, B not-reproduced' '$out.stdout'"
if command -v gnuplot >/dev/null; then
	assert "the two runs side by side: OUT/plots, a column each (A unfixed, B fixed)" \
		bash -c "grep -A3 '>A: 6.12' '$out/plots/ksm-mprotect-split.svg' | grep -q '>reproduced<' &&
			 grep -A3 '>B: 6.12' '$out/plots/ksm-mprotect-split.svg' | grep -q '>not-reproduced<' &&
			 [ -s '$out/plots/overview.png' ] && [ -s '$out/A/plots/overview.png' ] &&
			 grep -q \"^Plots:   $out/plots/overview.png\" '$out.stdout'"
fi
want=$(jq -n --slurpfile a "$out/A/results.json" \
	--slurpfile b "$out/B/results.json" \
	"\$b[0]$r.cases[0].latency_ms.max / \$a[0]$r.cases[0].latency_ms.max")
assert_jq "compare.json: the KSM max ratio is B/A of the two runs ($want)" \
	"$out/compare.json" \
	".reproducers[0] | .verdict_changed == [false, true] and .warnings == [] and ((.cases[0].rows[0].ratios[1] - $want) | fabs) < 1e-9"
assert_same "the host is as before" "$before" "$(snapshot)"
finish
