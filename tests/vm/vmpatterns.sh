#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The later patterns on the shared 6.12 test kernels, with the quick
# preset (madvise-split at 8,000 pages): ksm-fork (both orders) and madvise-split must reproduce on the
# unfixed kernel and must not on the -ksmfix one, whose KSM walk looks
# up only the page's index, under the same trigger (migrate) and probe
# (rmap-tp). Verdicts are asserted here because the kernels are known:
# each run is judged on its own and two thirds of the runs decide. Both
# run in the vm tier's shared guests (tests/lib/vmshare.sh), on QEMU's
# instruction counts: the same figures on every boot, whatever the host
# runs beside.
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

if ! vm_possible; then
	ok "the later patterns on the test kernels # SKIP no test kernels or no QEMU"
	finish
	exit 0
fi
# The quick preset, but madvise-split at 8,000 pages (make check's
# time): its KSM walk's maximum was 883 ms at 20,000 on instruction
# counts, 354 ms here (2026-12-07), 3.5x the 100 ms asserted below and
# 35x the 10 ms threshold. ksm-fork's family with 4 children, not the
# preset's 8: with 8 its KSM walks' maximum was 795 ms, with 4 443 ms,
# 4.4x the 100 ms asserted, and the unfixed guest's job took 60 s of
# the host's time instead of 73 (alone, 2026-12-07).
preset=$work/patterns.preset
vm_quick_set "$preset" madvise-split --pages 8000 ksm-fork --children 4
for which in unfixed fixed; do
	vm_job $which $which --preset "$preset" --only ksm-fork,madvise-split
done
vm_jobs_run

units='["ksm-fork", "ksm-fork@merge-then-fork", "madvise-split"]'
for which in unfixed fixed; do
	j=$(vm_job_dir $which)/results.json
	rc=$(vm_job_rc $which)
	if [ $which = unfixed ]; then
		want=reproduced code=1
	else
		want=not-reproduced code=0
	fi
	assert "$which: run-all exits $code ($want)" [ "$rc" = $code ]
	assert_jq "$which: ran $units" "$j" "[.results[].reproducer] == $units"
	assert_jq "$which: each is $want, by the documented rule, run by run" "$j" \
		".results | all(.verdict == \"$want\" and .verdict == ($verdict_rule) and .run_verdicts == ($run_rule))"
	assert_jq "$which: two thirds of each one's runs agree, and the reason counts them" \
		"$j" '.results | all(3 * .runs_agreeing >= 2 * .runs and (.reason | test("^[0-9]+ of [0-9]+ runs?: ")))'
	assert_jq "$which: migrate and rmap-tp measured every case" "$j" \
		'.results | all(.trigger.name == "migrate" and (.cases | all(.probe == "rmap-tp" and .latency_ms.count > 0)))'
	assert_jq "$which: every page the trigger asked to move moved" "$j" \
		'.results | all(.cases | all(.reach.pages_moved > 0 and .reach.pages_move_failed == 0))'
	assert_jq "$which: ksm-fork's families: 5 processes, 10000 VMAs per case" \
		"$j" '[.results[] | select(.reproducer | startswith("ksm-fork")) | .cases[].pattern] | all(.processes == 5 and .vmas == 10000)'
	# Every mapping present: 5 x 256 in the ksm and anon cases; a
	# child's MAP_SHARED file pages are faulted in only after
	# fork-then-merge (fork copies no PTE of a shared file mapping).
	assert_jq "$which: ksm-fork's oracle clean: every member's mapping of every page followed it (5 x 256)" \
		"$j" '[.results[] | select(.reproducer | startswith("ksm-fork")) | .cases[].oracle] | all(.pages_failed == 0 and .mappings_missed == 0)'
	assert_jq "$which: ksm-fork's oracle checked 5 x 256 mappings of the ksm and anon cases" \
		"$j" '[.results[] | select(.reproducer | startswith("ksm-fork")) | .cases[0:2][].oracle.mappings_checked] | all(. == 1280)'
	# medians: one walk's hiccup moves a maximum, not a median
	if [ $which = unfixed ]; then
		assert_jq "unfixed: KSM walks of 100 ms and more, the controls' median under 1 ms, the rank test significant" \
			"$j" '.results | all(.cases[0].latency_ms.max >= 100 and (.cases[1:] | all(.latency_ms.p50 < 1)) and .evidence.significant)'
	else
		assert_jq "fixed: the KSM walks' median under the threshold" "$j" \
			'.results | all(.cases[0].latency_ms.p50 < .threshold_ms)'
	fi
done
finish
