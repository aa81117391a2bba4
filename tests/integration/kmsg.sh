#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's log in the report: a line that matters, written to
# /dev/kmsg while the KSM case is inside its trigger, is reported for
# that case, and only that case, in all three formats; every case says
# it read the log.
. "$(dirname "$0")/../lib/integration.sh"

trigger=$(expected_trigger)
mark="WARNING: rmap-repro test $$: a line the report must show"
before=$(snapshot)
RMAP_REPRO_TEST_HOLD_MS=3000 "$tbin/ksm-mprotect-split" --runs 1 \
	--pages 2000 --identical 64 --format json --out "$work/k" \
	>"$work/k.json" 2>"$work/k.err" &
pid=$!
wait_for "$work/k.err" "case ksm: trigger $trigger" 120
reached=$?
echo "<4>$mark" >/dev/kmsg
wait $pid
rc=$?
after=$(snapshot)
j=$work/k.json
assert "the run reached the KSM case's trigger" [ $reached = 0 ]
assert_verdict "the run" "$j" $rc
assert_jq "every case read the log (kernel_log is a list)" "$j" \
	'.cases | all(.kernel_log | type == "array")'
assert_jq "the KSM case's kernel_log has the line" "$j" \
	".cases[0].kernel_log | index(\"$mark\") != null"
assert_jq "the controls' do not" "$j" \
	"[.cases[1:][] | .kernel_log | index(\"$mark\")] | all(. == null)"
assert "the text report shows it as the KSM case's" \
	grep -q "^Kernel   log, ksm: WARNING: rmap-repro test $$" \
	"$work/k/ksm-mprotect-split.txt"
assert "KTAP shows it as a diagnostic of the KSM case" \
	grep -q "^    # ksm: kernel log: $mark" "$work/k/ksm-mprotect-split.ktap"
assert_same "the machine is as before" "$before" "$after"
finish
