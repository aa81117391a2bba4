#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every exit path restores the machine: SIGINT in the middle of the
# trigger, the run's own timeout, and SIGKILL (then scripts/restore).
# The published layout (--identical 0: ~79 KSM pages) keeps the reclaim
# trigger busy for seconds, so the signal lands inside it.
. "$(dirname "$0")/../lib/integration.sh"

# Job control: a background job keeps the default SIGINT disposition.
set -m
repro=$bin/ksm-mprotect-split
long=(--runs 1 --identical 0 --format json)

# --- SIGINT during the trigger ---------------------------------------
before=$(snapshot)
"$repro" "${long[@]}" --out "$work/int" >"$work/int.json" 2>"$work/int.err" &
pid=$!
if wait_for "$work/int.err" "case ksm: trigger reclaim (probe pass)" 60; then
	sleep 0.5
	mid=$(snapshot)
	kill -INT $pid
fi
wait $pid
rc=$?
wait_unlocked
after=$(snapshot)
assert "SIGINT: the run reached the trigger" \
	grep -q "case ksm: trigger reclaim" "$work/int.err"
assert "SIGINT: the run had changed the machine (swap, cgroup, KSM)" \
	[ "$mid" != "$before" ]
assert "SIGINT: the process dies of SIGINT after restoring (status 130)" \
	[ $rc = 130 ]
assert_jq "SIGINT: report says error, interrupted during the trigger" \
	"$work/int/ksm-mprotect-split.json" \
	'.verdict == "error" and (.reason | test("interrupted by SIGINT during case ksm run 1: trigger reclaim"))'
assert_jq "SIGINT: the journal was replayed without failure" \
	"$work/int/ksm-mprotect-split.json" \
	'.safety.restore_ran and .safety.restore_failures == 0'
assert "SIGINT: KTAP says not ok with the error" \
	grep -q "^# error: interrupted by SIGINT" "$work/int/ksm-mprotect-split.ktap"
assert_same "SIGINT: the machine is as before" "$before" "$after"

# --- the run's own timeout -------------------------------------------
before=$(snapshot)
"$repro" "${long[@]}" --timeout 2 --out "$work/tmo" >/dev/null 2>"$work/tmo.err"
rc=$?
after=$(snapshot)
assert "timeout: exit 2 (error)" [ $rc = 2 ]
assert_jq "timeout: report says timed out" "$work/tmo/ksm-mprotect-split.json" \
	'.verdict == "error" and (.reason | test("timed out after 2 s"))'
assert_same "timeout: the machine is as before" "$before" "$after"

# --- SIGKILL, then scripts/restore -----------------------------------
before=$(snapshot)
"$repro" "${long[@]}" >/dev/null 2>"$work/kill.err" &
pid=$!
wait_for "$work/kill.err" "case ksm: trigger reclaim (probe pass)" 60
sleep 0.5
kill -KILL $pid
wait $pid
rc=$?
wait_unlocked
mid=$(snapshot)
assert "SIGKILL: the process died of SIGKILL (status 137)" [ $rc = 137 ]
assert "SIGKILL: the measuring child died with its parent (lock free)" \
	wait_unlocked
assert "SIGKILL: state was left behind, and a journal" \
	bash -c "[ '$mid' != '$before' ] && [ -s /run/rmap-repro/journal ]"
"$top/scripts/restore" >"$work/restore.out" 2>&1
rc=$?
after=$(snapshot)
assert "SIGKILL: scripts/restore exits 0" [ $rc = 0 ]
assert "SIGKILL: scripts/restore said what it undid" \
	grep -q "swapoff /dev/zram" "$work/restore.out"
assert_same "SIGKILL: after scripts/restore the machine is as before" \
	"$before" "$after"
"$top/scripts/restore" >"$work/restore2.out" 2>&1
assert "a second scripts/restore has nothing to do" \
	grep -q "nothing to restore" "$work/restore2.out"
finish
