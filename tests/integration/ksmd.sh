#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KSM daemon's reproducers on the kernel here (the ksm-scan trigger:
# ksmd itself, timed by its full-scan tracepoints). Asserted, whatever
# the verdict: each case's full scans were timed and are consistent
# with ksmd's counters (scans counted, pages scanned, a scan rate above
# zero, CPU time); what merged is what the pattern says (nothing of the
# unique pages, every page of the pairs); merge times stay within
# --merge-timeout; the verdict follows from the figures; the formats
# agree; the machine is left as found. Then the usage errors: a victim,
# a walk-level probe.
. "$(dirname "$0")/../lib/integration.sh"

if [ ! -e /sys/kernel/mm/ksm/run ]; then
	ok "ksmd # SKIP no KSM here"
	finish
	exit 0
fi
if ! offers ksm-scan; then
	ok "ksmd # SKIP no ksm/ksm_start_scan tracepoints (before 6.8)"
	finish
	exit 0
fi

# figures every case must have: scans timed, counters consistent
consistent='(.cases | all(.probe == "ksm-scan" and .latency_ms.count > 0 and
	.ksmd.calls == 1 and .ksmd.full_scans >= 1 and .ksmd.seconds > 0 and
	.ksmd.cpu_ms >= 0 and .ksmd.state_samples > 0 and
	(.ksmd.pages_scanned == null or .ksmd.pages_scanned > 0) and
	.walkers.ksmd == .latency_ms.count))'

before=$(snapshot)
"$bin/ksm-scan-cost" --runs 1 --mb 32 --format json --out "$work/s" \
	>"$work/s.json" 2>"$work/s.err"
rc=$?
after=$(snapshot)
j=$work/s.json
assert_verdict "ksm-scan-cost" "$j" $rc
assert_jq "ksm-scan-cost: a benchmark, nothing judged without a bound" "$j" \
	'.verdict == "not-reproduced" and .verdict_policy == "benchmark" and (.reason | test("nothing judged"))'
assert_jq "ksm-scan-cost: each case's full scans timed, ksmd's figures consistent" \
	"$j" "$consistent and (.cases | all(.ksmd.full_scans >= 2))"
assert_jq "ksm-scan-cost: unique pages merge nothing, the half case half of them in pairs" \
	"$j" '.cases[0].ksmd.merging_pages == 0 and .cases[1].ksmd.merging_pages == .cases[1].pattern.pages'
assert_formats "ksm-scan-cost: text, KTAP and JSON agree" "$work/s" \
	ksm-scan-cost
assert "ksm-scan-cost: the text report has a ksmd line per case" \
	bash -c "grep -q '^ksmd     unique: ran ' '$work/s/ksm-scan-cost.txt' &&
		 grep -q '^         half: ran ' '$work/s/ksm-scan-cost.txt'"
assert_same "ksm-scan-cost: the machine is as before" "$before" "$after"

# Given a bound, it is judged (by the rule assert_verdict recomputes).
"$bin/ksm-scan-cost" --runs 1 --mb 16 --max-ms-per-gb 0.001 \
	--format json >"$work/b.json" 2>"$work/b.err"
rc=$?
assert_verdict "ksm-scan-cost --max-ms-per-gb 0.001" "$work/b.json" $rc
assert_jq "...judged against the bound, which the JSON carries" \
	"$work/b.json" '.max_ms_per_gb == 0.001 and (.reason | test("the bound of 0.001 ms per GiB"))'

before=$(snapshot)
"$bin/ksmd-contention" --runs 1 --victim-mb 32 --format json \
	--out "$work/c" >"$work/c.json" 2>"$work/c.err"
rc=$?
after=$(snapshot)
j=$work/c.json
assert_verdict "ksmd-contention" "$j" $rc
assert_jq "ksmd-contention: judged on the merge times (trigger calls)" "$j" \
	'.verdict_on == "trigger calls" and (.cases | all(.trigger_call_ms.count == 1))'
assert_jq "ksmd-contention: each case's full scans timed, ksmd's figures consistent" \
	"$j" "$consistent"
assert_jq "ksmd-contention: every page merged in both, within --merge-timeout" \
	"$j" '.cases | all(.ksmd.merging_pages == .pattern.pages and .trigger_call_ms.max < 60000)'
assert_formats "ksmd-contention: text, KTAP and JSON agree" "$work/c" \
	ksmd-contention
assert_same "ksmd-contention: the machine is as before" "$before" "$after"
assert "ksmd-contention: no contender is left" \
	bash -c "! grep -qs ksmd-contentio /proc/[0-9]*/comm"

"$bin/ksmd-contention" --victim same >"$work/v.out" 2>&1
rc=$?
assert "--victim same: a usage error (exit 2), saying why" \
	bash -c "[ $rc = 2 ] && grep -q 'no victim thread' '$work/v.out'"
"$bin/ksm-mprotect-split" --trigger ksm-scan >"$work/t.out" 2>&1
rc=$?
assert "--trigger ksm-scan elsewhere: a usage error (exit 2), saying why" \
	bash -c "[ $rc = 2 ] && grep -q 'only for the reproducers that list it' '$work/t.out'"
"$bin/ksm-scan-cost" --probe funcgraph --format json >"$work/p.json" \
	2>/dev/null
rc=$?
assert_jq "--probe funcgraph: a skip (exit $rc): ksm-scan has no walk" \
	"$work/p.json" '.verdict == "skip" and (.reason | test("no rmap walk"))'
finish
