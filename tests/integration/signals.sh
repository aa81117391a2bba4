#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every exit path restores the machine: SIGINT in the middle of the
# trigger, the run's own timeout, SIGKILL (then scripts/restore), and a
# SIGTERM or SIGHUP to run-all's whole process group, after which
# run-all returns only once the machine is as before. The signal is sent
# once the reproducer is inside its trigger, whichever trigger this
# machine gives it ("case ksm: trigger NAME (probe pass)", printed by
# every trigger); a run that never gets there fails the test. The hook
# RMAP_REPRO_TEST_HOLD_MS holds the run there for a few seconds, so the
# signal lands inside the trigger phase on any kernel, fast or slow.
. "$(dirname "$0")/../lib/integration.sh"

# Job control: a background job keeps the default SIGINT disposition.
set -m

# "nohup make check &": SIGHUP comes ignored (nohup) and so does SIGINT
# (a background job of a shell without job control); the reproducer
# keeps an ignore it inherited. tests/run starts each test through
# tests/helpers/sigdfl so that the signals below arrive.
sigign() {	# SigIgn's SIGHUP (bit 0) and SIGINT (bit 1) of CMD
	local m

	m=$("$@" awk '$1 == "SigIgn:" { print $2 }' /proc/self/status \
	    2>/dev/null)
	echo $((0x$m & 3))
}
# what "nohup CMD &" gives CMD: SIGHUP ignored (nohup), and SIGINT too
# (a background job of a shell without job control); in bash alone, as
# a guest's busybox nohup may differ
nohup_bg() {
	bash -c 'trap "" HUP; "$@" & wait' nohup_bg "$@"
}
assert "SIGINT and SIGHUP reach this test (tests/run: sigdfl)" \
	[ "$(sigign)" = 0 ]
assert "a nohup background job has them ignored" \
	[ "$(sigign nohup_bg)" = 3 ]
assert "sigdfl gives them back" \
	[ "$(sigign nohup_bg "$top/build/tests/helpers/sigdfl")" = 0 ]
# the hook is the test build's (common/lib/hooks.h); scripts/restore,
# the user's, then replays what that run left
hold=(env RMAP_REPRO_TEST_HOLD_MS=8000)
repro=$tbin/ksm-mprotect-split
long=(--runs 1 --pages 2000 --identical 64 --format json)
trigger=$(expected_trigger)
inside="case ksm: trigger $trigger (probe pass)"
echo "# here: trigger $trigger"

# --- SIGINT during the trigger ---------------------------------------
before=$(snapshot)
mid=$before
"${hold[@]}" "$repro" "${long[@]}" --out "$work/int" >"$work/int.json" 2>"$work/int.err" &
pid=$!
if wait_for "$work/int.err" "$inside" 120; then
	sleep 0.5
	mid=$(snapshot)
	kill -INT $pid
	reached=1
else
	reached=0
	kill -INT $pid
fi
wait $pid
rc=$?
wait_unlocked
after=$(snapshot)
assert "SIGINT: the run reached its trigger ($inside)" [ $reached = 1 ]
assert "SIGINT: the run had changed the machine (knobs, cgroup, instance)" \
	[ "$mid" != "$before" ]
assert "SIGINT: the process dies of SIGINT after restoring (status 130)" \
	[ $rc = 130 ]
assert_jq "SIGINT: report says error, interrupted during the trigger" \
	"$work/int/ksm-mprotect-split.json" \
	".verdict == \"error\" and (.reason | test(\"interrupted by SIGINT during case ksm run 1: trigger $trigger\"))"
assert_jq "SIGINT: the journal was replayed without failure" \
	"$work/int/ksm-mprotect-split.json" \
	'.safety.restore_ran and .safety.restore_failures == 0'
assert "SIGINT: KTAP says not ok with the error" \
	grep -q "^# error: interrupted by SIGINT" "$work/int/ksm-mprotect-split.ktap"
assert_same "SIGINT: the machine is as before" "$before" "$after"

# --- the run's own timeout -------------------------------------------
before=$(snapshot)
"${hold[@]}" "$repro" "${long[@]}" --timeout 5 --out "$work/tmo" >/dev/null 2>"$work/tmo.err"
rc=$?
after=$(snapshot)
assert "timeout: exit 2 (error)" [ $rc = 2 ]
assert_jq "timeout: report says timed out, inside the trigger" \
	"$work/tmo/ksm-mprotect-split.json" \
	".verdict == \"error\" and (.reason | test(\"timed out after 5 s during case ksm run 1: trigger $trigger\"))"
assert_same "timeout: the machine is as before" "$before" "$after"

# --- SIGKILL, then scripts/restore -----------------------------------
before=$(snapshot)
"${hold[@]}" "$repro" "${long[@]}" >/dev/null 2>"$work/kill.err" &
pid=$!
wait_for "$work/kill.err" "$inside" 120
reached=$?
sleep 0.5
kill -KILL $pid
wait $pid
rc=$?
wait_unlocked
mid=$(snapshot)
assert "SIGKILL: the run reached its trigger" [ $reached = 0 ]
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
	grep -q "change(s) undone; the machine is as the run found it" \
	"$work/restore.out"
assert_same "SIGKILL: after scripts/restore the machine is as before" \
	"$before" "$after"
"$top/scripts/restore" >"$work/restore2.out" 2>&1
assert "a second scripts/restore has nothing to do" \
	grep -q "nothing to restore" "$work/restore2.out"

# --- SIGTERM and SIGHUP to run-all's process group -------------------
# What a CI farm does on timeout: the whole group gets the signal. When
# run-all returns, its reproducer has restored everything.
for sig in TERM HUP; do
	code=$((128 + $(kill -l $sig)))
	before=$(snapshot)
	out=$work/ra-$sig
	"${hold[@]}" "$top/scripts/run-all" --test-build --preset quick \
		--only ksm-mprotect-split \
		--out "$out" -- --pages 2000 --identical 64 >/dev/null \
		2>"$work/ra-$sig.err" &
	pid=$!	# a job of its own: its pid is its process group
	wait_for "$work/ra-$sig.err" "$inside" 120
	reached=$?
	sleep 0.5
	kill -$sig -- -$pid
	wait $pid
	rc=$?
	after=$(snapshot)
	assert "run-all, SIG$sig to its group: the reproducer was inside its trigger" \
		[ $reached = 0 ]
	assert "run-all, SIG$sig: exit $code (interrupted)" [ $rc = $code ]
	assert_same "run-all, SIG$sig: when it returned, the machine was as before" \
		"$before" "$after"
	assert "run-all, SIG$sig: the lock was free when it returned" \
		flock -n /run/rmap-repro/lock true
	assert_jq "run-all, SIG$sig: results.json says the reproducer was interrupted" \
		"$out/results.json" \
		".results[0].verdict == \"error\" and (.results[0].reason | test(\"interrupted by SIG$sig\"))"
	assert "run-all, SIG$sig: its KTAP says not ok" \
		grep -qx "not ok 1 ksm-mprotect-split" "$out/results.ktap"
done
finish
