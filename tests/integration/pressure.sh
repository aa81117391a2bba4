#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pressure trigger on the kernel here: stress-ng pushes the whole
# machine below its low watermark and kswapd (or direct reclaim) walks
# the pattern. Asserted, whatever the verdict: every phase reached the
# pattern (pagemap), within the bounds (filling memory, then 45 s of
# pressure); the batches were run by
# kswapd or the load (the reproducer's own are left out); free memory stayed above the
# floor and the OOM killer stayed silent; the three formats agree; no
# load outlives the run, and the machine is as found. Then a SIGTERM in
# the middle of a phase: the load is gone and everything is undone.
# alone: before the vm tier's guests start (tests/run): its reclaim
# swapped a guest's memory out instead of the pattern (CI, 2026-12-07)
. "$(dirname "$0")/../lib/integration.sh"

if ! command -v stress-ng >/dev/null; then
	ok "pressure # SKIP stress-ng is not installed (scripts/install-deps)"
	finish
	exit 0
fi
if ! reclaim_possible; then
	ok "pressure # SKIP no memory cgroup or no swap possible here"
	finish
	exit 0
fi

# The floor that lets the watermarks widen to four times it (at most
# 0.3 of memory): 512 MiB here, about 128 MiB in a 2 GiB guest.
floor=$(awk '$1 == "MemTotal:" { f = int($2 / 1024 / 16);
	     print (f > 512 ? 512 : f) }' /proc/meminfo)
# stress-ng tasks (busybox in a guest may have no pgrep)
load_tasks() {
	grep -l "^stress-ng" /proc/[0-9]*/comm 2>/dev/null | wc -l
}

before=$(snapshot)
oom0=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
"$bin/ksm-mprotect-split" --trigger pressure --victim off --runs 1 \
	--min-free-mb "$floor" --format json --out "$work/p" \
	>"$work/p.json" 2>"$work/p.err"
rc=$?
after=$(snapshot)
oom1=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
j=$work/p.json
assert_verdict "ksm-mprotect-split --trigger pressure" "$j" $rc
probe=$(expected_probe auto pressure)
echo "# here: trigger pressure, probe $probe"
# What each case measured and how the phases ended, for whoever reads a
# failure: a guest's JSON stays in the guest, its check.log comes back.
jq -r '.cases[]? | "# case \(.name): \(.latency_ms.count // 0) intervals (\(.probe)), walkers \(.walkers | tostring), events lost \([.per_run[]?.lost_events] | add), unpaired \([.per_run[]?.unpaired_events] | add); \(.reach.text // "no reach")"' \
	"$j" 2>/dev/null
jq -r '"# trigger: \(.trigger.how // .reason // "none")"' "$j" 2>/dev/null
grep -h 'pressure phase:' "$work/p.err" | sed 's/^/# /'
assert_jq "$probe measured every case, in any task" "$j" \
	".trigger.name == \"pressure\" and (.cases | all(.probe == \"$probe\" and .latency_ms.count > 0))"
assert_jq "every phase reached the whole pattern, none missed or stopped" \
	"$j" '.trigger.pressure as $p | $p.phases == 3 and $p.reached + $p.partly == 3 and $p.missed == 0 and $p.emergency_stops == 0 and (.cases | all(.reach.pages_unmapped > 0))'
assert_jq "each phase kept its bounds: memory filled, then the pattern went within 45 s of pressure" \
	"$j" '.trigger.pressure | .bound_s == 45 and .max_fill_s <= .fill_bound_s and .max_reach_s <= .bound_s and .max_phase_s < .fill_bound_s + .bound_s + 1'
assert_jq "kswapd or the load ran the batches; the figures are theirs" \
	"$j" '.cases | all(.walkers.kswapd + .walkers.load > 0 and .walkers.kswapd + .walkers.load + .walkers.other == .latency_ms.count)'
assert_jq "free memory stayed above the floor; the load locked memory" \
	"$j" '.trigger.pressure | .min_free_kb >= .floor_kb and .max_locked_bytes > 0 and (.command | test("--vm-locked"))'
# A kernel without VM event counters has no oom_kill: its log says.
assert_jq "the report says the OOM killer did not run" "$j" \
	'(.trigger.pressure.oom_kills // 0) == 0 and .safety.oom_kill_before == .safety.oom_kill_after and ([.cases[].kernel_log // [] | .[] | select(test("oom|Out of memory"; "i"))] | length == 0)'
assert "oom_kill in /proc/vmstat did not move ($oom0 -> $oom1)" \
	[ "$oom0" = "$oom1" ]
assert_formats "text, KTAP and JSON agree" "$work/p" ksm-mprotect-split
assert "the text report has the Pressure and Walkers lines" \
	bash -c "grep -q '^Pressure ' '$work/p/ksm-mprotect-split.txt' &&
		 grep -q '^Walkers  ksm: ' '$work/p/ksm-mprotect-split.txt'"
assert_same "no load left, the machine is as before" "$before" "$after"

# The rest asserts what no kernel changes (option handling, signals):
# once, on the host, not again in vmcheck's guest (make check's budget).
if suite_vm; then
	finish
	exit 0
fi

# A floor that cannot fit below the widest low watermark: a skip that
# says which floor would, before any load runs; nothing left changed.
before=$(snapshot)
huge=$(awk '$1 == "MemTotal:" { print int($2 / 1024 / 3) }' /proc/meminfo)
"$bin/ksm-mprotect-split" --trigger pressure --min-free-mb "$huge" \
	--format json >"$work/h.json" 2>"$work/h.err"
rc=$?
assert_jq "--min-free-mb $huge: a skip (exit $rc) naming the largest floor" \
	"$work/h.json" '.verdict == "skip" and (.reason | test("at most [0-9]+ MiB here"))'
assert_same "...and the machine is as before" "$before" "$(snapshot)"

# Without stress-ng in PATH the trigger is unavailable, and says why.
PATH=/nonexistent "$bin/ksm-mprotect-split" --trigger pressure \
	--format json >"$work/n.json" 2>"$work/n.err"
rc=$?
assert_jq "no stress-ng: a skip (exit $rc) that names it" "$work/n.json" \
	'.verdict == "skip" and (.reason | test("stress-ng is not installed"))'

# SIGTERM while a load holds its memory.
before=$(snapshot)
"$bin/ksm-mprotect-split" --trigger pressure --victim off --runs 1 \
	--min-free-mb "$floor" >"$work/s.out" 2>"$work/s.err" &
pid=$!
wait_for "$work/s.err" "case ksm: trigger pressure: still running (5 s)" 120
reached=$?
held=$(load_tasks)
kill -TERM $pid
wait $pid
rc=$?
assert "SIGTERM during a pressure phase: the load was running ($held tasks)" \
	[ $reached = 0 -a "$held" -gt 0 ]
assert "...the run died of SIGTERM (143) after restoring" \
	bash -c "[ $rc = 143 ] && grep -q 'the machine is as found' '$work/s.out'"
# Its tasks left the load's group before the run returned; a moment for
# init to reap what it inherited.
for i in 1 2 3 4 5; do [ "$(load_tasks)" = 0 ] && break; sleep 1; done
assert_same "...no load left, the machine is as before" "$before" \
	"$(snapshot)"
finish
