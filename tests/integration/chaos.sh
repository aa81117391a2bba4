#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's share of make chaos (tests/chaos, CHAOS_QUICK=1): every
# change of the flagship's run refused in turn, a kill of each kind at
# its setup, inside its trigger's work and in its restore, 10 runs of
# soak and one under load, with the user's own state (their ksmd and
# merged pages, zram swap, tracefs instance, memory cgroup, THP setting)
# checked after each. Then the matrix is shown to fail: with the undo
# of memory cgroups broken on purpose (RMAP_REPRO_TEST_BREAK_UNDO), it
# reports the cgroup left behind.
. "$(dirname "$0")/../lib/integration.sh"

# KSM's sharing counters: stale until ksmd next runs, after the test's
# stand-in user (holding merged pages) is gone
state_now() {
	snapshot | grep -v '^ksm/pages_\(shared\|sharing\)='
}
before=$(state_now)

# chaos_run NAME [ENV=VALUE...]: a chaos script's results, its figures
chaos_run() {
	local name=$1

	shift
	env CHAOS_QUICK=1 "$@" bash "$top/tests/chaos/$name.sh" \
		>"$work/$name.out" 2>"$work/$name.err"
}

for t in faults kills soak load; do
	chaos_run $t
	rc=$?
	n=$(grep -c '^ok ' "$work/$t.out")
	bad=$(grep -c '^not ok ' "$work/$t.out")
	grep '^# here: figures' "$work/$t.out" | sed "s/^# here: /# here: $t: /"
	if [ $rc = 0 ] && [ "$bad" = 0 ] && [ "$n" -gt 0 ]; then
		ok "chaos $t (quick): $n passed"
	else
		not_ok "chaos $t (quick): $n passed, $bad failed (exit $rc)" \
			"$(grep -A3 '^not ok ' "$work/$t.out" | head -20)"
	fi
done
assert "the fault matrix counted 0 diffs" \
	grep -q '^# here: figures: .* 0 diffs$' "$work/faults.out"
assert "the kill matrix counted 0 diffs" \
	grep -q '^# here: figures: .* 0 diffs$' "$work/kills.out"

# The matrix can fail: a broken undo is seen.
chaos_run faults CHAOS_MAX_N=2 RMAP_REPRO_TEST_BREAK_UNDO=cgroup
bad=$(grep -c '^not ok ' "$work/faults.out")
assert "with the cgroups' undo broken, the matrix fails ($bad failures)" \
	[ "$bad" -gt 0 ]
assert "and names the cgroup left behind" \
	grep -q '^# >_cgroup=.*/rmap-repro-' "$work/faults.out"
assert "and counts the diffs" \
	grep -Eq '^# here: figures: .* [1-9][0-9]* diffs$' "$work/faults.out"
# what the broken undo left: removed here
find /sys/fs/cgroup -maxdepth 8 -depth -type d -name 'rmap-repro*' \
	-exec rmdir {} + 2>/dev/null
assert_same "the machine is as before" "$before" "$(state_now)"
finish
