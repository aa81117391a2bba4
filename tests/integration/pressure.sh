#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pressure trigger on the kernel here: stress-ng pushes the whole
# machine below its low watermark and kswapd (or direct reclaim) walks
# the pattern. Asserted, whatever the verdict: every phase reached the
# pattern (pagemap), within the 45 s bound; the batches were run by
# kswapd or the load (the reproducer's own are left out); free memory stayed above the
# floor and the OOM killer stayed silent; the three formats agree; no
# load outlives the run, and the machine is as found. Then a SIGTERM in
# the middle of a phase: the load is gone and everything is undone.
. "$(dirname "$0")/../lib/integration.sh"

if ! command -v stress-ng >/dev/null; then
	ok "pressure # SKIP stress-ng is not installed (scripts/install-deps)"
	finish
fi
if ! reclaim_possible; then
	ok "pressure # SKIP no memory cgroup or no swap possible here"
	finish
fi

before=$(snapshot)
oom0=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
"$bin/ksm-mprotect-split" --trigger pressure --victim off --runs 1 \
	--format json --out "$work/p" >"$work/p.json" 2>"$work/p.err"
rc=$?
after=$(snapshot)
oom1=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
j=$work/p.json
assert_verdict "ksm-mprotect-split --trigger pressure" "$j" $rc
assert_jq "the lru-batch bracket measured every case, in any task" "$j" \
	'.trigger.name == "pressure" and (.cases | all(.probe == "lru-batch" and .latency_ms.count > 0))'
assert_jq "every phase reached the whole pattern, none missed or stopped" \
	"$j" '.trigger.pressure as $p | $p.phases == 3 and $p.reached + $p.partly == 3 and $p.missed == 0 and $p.emergency_stops == 0 and (.cases | all(.reach.pages_unmapped > 0))'
assert_jq "each phase stayed under a minute, the pattern went within 45 s" \
	"$j" '.trigger.pressure | .max_phase_s < 60 and .max_reach_s <= .bound_s'
assert_jq "kswapd or the load ran the batches; the figures are theirs" \
	"$j" '.cases | all(.walkers.kswapd + .walkers.load > 0 and .walkers.kswapd + .walkers.load + .walkers.other == .latency_ms.count)'
assert_jq "free memory stayed above the floor; the load locked memory" \
	"$j" '.trigger.pressure | .min_free_kb >= .floor_kb and .max_locked_bytes > 0 and (.command | test("--vm-locked"))'
assert_jq "the report says the OOM killer did not run" "$j" \
	'.trigger.pressure.oom_kills == 0 and .safety.oom_kill_before == .safety.oom_kill_after'
assert "oom_kill in /proc/vmstat did not move ($oom0 -> $oom1)" \
	[ "$oom0" = "$oom1" ]
assert_formats "text, KTAP and JSON agree" "$work/p" ksm-mprotect-split
assert "the text report has the Pressure and Walkers lines" \
	bash -c "grep -q '^Pressure ' '$work/p/ksm-mprotect-split.txt' &&
		 grep -q '^Walkers  ksm: ' '$work/p/ksm-mprotect-split.txt'"
assert_same "no load left, the machine is as before" "$before" "$after"

# SIGTERM while a load holds its memory.
before=$(snapshot)
"$bin/ksm-mprotect-split" --trigger pressure --victim off --runs 1 \
	>"$work/s.out" 2>"$work/s.err" &
pid=$!
wait_for "$work/s.err" "case ksm: trigger pressure: still running (3 s)" 120
reached=$?
held=$(pgrep -x stress-ng | wc -l)
kill -TERM $pid
wait $pid
rc=$?
assert "SIGTERM during a pressure phase: the load was running ($held tasks)" \
	[ $reached = 0 -a "$held" -gt 0 ]
assert "...the run died of SIGTERM (143) after restoring" \
	bash -c "[ $rc = 143 ] && grep -q 'the machine is as found' '$work/s.out'"
assert_same "...no load left, the machine is as before" "$before" \
	"$(snapshot)"
finish
