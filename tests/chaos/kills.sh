#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kill at every phase, inside the work: for each reproducer and trigger
# of the matrix, a listing run names the points it passes
# (RMAP_REPRO_TEST_HOLD_AT=list: its phases, and the places inside each
# trigger's work where the kernel is mid-change, such as a memcg limit
# still lowered or some pages moved). The run is then held at each point
# in turn and gets SIGINT, SIGTERM, its own --timeout, or SIGKILL
# followed by scripts/restore. After each: no journal, the machine and
# the user's own state as before. Prints its figures: kills per signal,
# diffs. The points of the later cases repeat the first case's: only the
# first case's are held; every one for the flagship under each trigger,
# the setup's first, the trigger's own and the restore for the others
# (with their own trigger: the phases are the same code). Then run-all,
# its group signalled while its reproducer is held (runall_kill).
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/chaos.sh"

set -m		# a job of its own: the default SIGINT disposition
user_setup
trap user_teardown EXIT
kills=0
never=0
declare -A per_sig=() per_trig=() trig_order=() per_phase=()
trigs=()
signals=(INT TERM timeout KILL)

# wait_held ERR POINT PID: the run holds at the point (0), or it ended
# or took 900 s (pressure's restore comes after minutes) without (1)
wait_held() {
	local i

	for ((i = 0; i < 9000; i++)); do
		grep -q -- "test hook: holding at $2 for" "$1" && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# first-case points only; the quick subset (and, at TCG's pace, a
# guest's): setup's first, the trigger's own (inside its work), and the
# restore
pick_points() {
	local few=$quick

	grep -qw rmap_repro.vm /proc/cmdline && few=1
	[ "$2" = ksm-mprotect-split ] || few=1
	# pressure's phases are the reclaim's code: its own points only
	[ "${3:-}" = pressure ] && few=1
	# the first run's: a retry (a trigger that missed, runs that
	# disagreed) repeats its points, and may not come again
	awk '!seen[$0]++' "$1" | grep -Ev '^case [^ ]+ run [2-9]' |
	awk -v quick="$few" '
		/^case / { c = $2; if (first == "") first = c
			   if (c != first) next }
		quick != 1 { print; next }
		/^setup: / && !s++ { print; next }
		/^trigger / || /^restore$/ { print }'
}

# kill_at NAME TRIGGER POINT SIGNAL OPTS...
kill_at() {
	local r=$1 t=$2 p=$3 sig=$4 pid rc t0 took m before reached=1 desc
	local tmo=()

	shift 4
	before=$(chaos_snapshot)
	desc="$r --trigger $t, $sig at '$p'"
	if [ "$sig" = timeout ]; then
		# the run's own timeout falls inside a long hold
		export RMAP_REPRO_TEST_HOLD_MS=60000
		tmo=(--timeout "${reach_s[$p]:-30}")
	else
		export RMAP_REPRO_TEST_HOLD_MS=${CHAOS_HOLD_MS:-4000}
	fi
	t0=$SECONDS
	RMAP_REPRO_TEST_HOLD_AT=$p "$bin/$r" "$@" "${tmo[@]}" \
		>"$work/k.json" 2>"$work/k.err" &
	pid=$!
	if [ "$sig" = timeout ]; then
		wait $pid
		rc=$?
		grep -q "test hook: holding at $p" "$work/k.err" || reached=0
	else
		wait_held "$work/k.err" "$p" $pid || reached=0
		# the timeout run's budget: this run's way to the point and
		# a margin for a slower one (a loaded host: 5 s was once too
		# little for compact's 'end'), inside the 60 s hold there
		took=$((SECONDS - t0))
		m=$((took / 2 < 10 ? 10 : took / 2 > 30 ? 30 : took / 2))
		reach_s[$p]=$((took + m))
		sleep 0.3
		kill -$sig $pid 2>/dev/null
		wait $pid
		rc=$?
	fi
	wait_unlocked
	if [ "$sig" = KILL ]; then
		user_env "$top/scripts/restore" >"$work/k.restore" 2>&1
	fi
	kills=$((kills + 1))
	per_sig[$sig]=$((${per_sig[$sig]:-0} + 1))
	per_trig[$t]=$((${per_trig[$t]:-0} + 1))
	[ -z "${trig_order[$t]:-}" ] && trig_order[$t]=${#trig_order[@]} &&
		trigs+=("$t")
	per_phase[${p%%:*}]=$((${per_phase[${p%%:*}]:-0} + 1))
	if [ $reached = 0 ] && ! grep -q "test hook: holding at $p" \
	   "$work/k.err" && [ "$sig" != timeout ] && [ $rc != $((128 + $(kill -l $sig))) ]; then
		# it ended before the point: a path that differs from run
		# to run (a trigger that missed, one more run), not a fault;
		# still nothing may be left
		never=$((never + 1))
		same "$desc (never reached)" "$before" "$work/k.err" &&
			ok "$desc: exit $rc before the point (the run went another way), the machine as before"
		return
	fi
	if [ $reached = 0 ]; then
		not_ok "$desc: the run reached the point" "rc=$rc" \
			"$(tail -3 "$work/k.err")"
		same "$desc" "$before" "$work/k.err"
		return
	fi
	same "$desc (exit $rc)" "$before" "$work/k.err" \
		$([ "$sig" = KILL ] && echo "$work/k.restore") || return
	if [ -e "$state/journal" ]; then
		not_ok "$desc: no journal left"
	elif [ $rc = 0 ] || [ $rc = 1 ]; then
		# the signal (or timeout) came too late: nothing to judge
		not_ok "$desc: the run ended by the $sig" "rc=$rc"
	else
		ok "$desc: exit $rc, the machine as before"
	fi
}

declare -A reach_s=()
while read -r r t; do
	# every point of every trigger for the flagship; the others, their
	# own trigger's few points (the phases are the same code)
	[ "$r" != ksm-mprotect-split ] && [ "$t" != auto ] &&
		! grep -qw rmap_repro.vm /proc/cmdline && continue
	mapfile -t opts < <(chaos_opts "$r")
	opts+=(--runs 1 --format json)
	[ "$t" = auto ] || opts+=(--trigger "$t")
	RMAP_REPRO_TEST_HOLD_AT=list "$bin/$r" "${opts[@]}" \
		>"$work/list.json" 2>"$work/list.err"
	rc=$?
	if [ $rc = 4 ] || [ $rc = 2 ]; then
		echo "# $r --trigger $t: exit $rc, $(jq -r .reason "$work/list.json" 2>/dev/null | head -c 150)"
		continue
	fi
	mapfile -t points < <(pick_points "$state/test-holds" "$r" "$t")
	# the flagship's own trigger's points, for run-all's kills below
	[ "$r" = ksm-mprotect-split ] && [ "$t" = auto ] &&
		cp "$state/test-holds" "$work/ra-points"
	echo "# $r --trigger $t: ${#points[@]} points: ${points[*]}"
	reach_s=()
	for p in "${points[@]}"; do
		for sig in "${signals[@]}"; do
			[ "$sig" = timeout ] && [ -z "${reach_s[$p]:-}" ] &&
				continue
			# the timeout stops the measuring; a restore is
			# never cut short, so none can fall inside it
			[ "$sig" = timeout ] && [ "$p" = restore ] && continue
			kill_at "$r" "$t" "$p" "$sig" "${opts[@]}"
		done
	done
done < <(chaos_pairs)
# run-all: a signal to its process group (as a terminal's ^C sends) or
# a SIGKILL of the group, while its reproducer is held inside the
# trigger's work or in its restore. run-all must return only once the
# machine is restored (checked at the moment it returns), with 128 + the
# signal; after SIGKILL, scripts/restore puts it back. Not in a guest:
# vm-run's own are vm.sh's (tests/vm).
runall_kill() {
	local p=$1 sig=$2 pid rc before desc="run-all, SIG$2 to its group at '$1'"

	before=$(chaos_snapshot)
	RMAP_REPRO_TEST_HOLD_AT=$p RMAP_REPRO_TEST_HOLD_MS=${CHAOS_HOLD_MS:-4000} \
		"$top/scripts/run-all" --test-build --preset quick \
		--only ksm-mprotect-split \
		--out "$work/ra" -- "${ra_opts[@]}" \
		>"$work/ra.out" 2>"$work/ra.err" &
	pid=$!		# set -m: a job of its own, its pid its group
	if ! wait_held "$work/ra.err" "$p" $pid; then
		kill -TERM -- -$pid 2>/dev/null
		wait $pid
		wait_unlocked
		not_ok "$desc: the run reached the point" \
			"$(tail -3 "$work/ra.err")"
		same "$desc" "$before" "$work/k.err"
		return
	fi
	sleep 0.3
	kill -$sig -- -$pid
	wait $pid
	rc=$?
	kills=$((kills + 1))
	per_sig[run-all $sig]=$((${per_sig[run-all $sig]:-0} + 1))
	if [ $sig = KILL ]; then
		wait_unlocked
		user_env "$top/scripts/restore" >"$work/ra.restore" 2>&1
	elif pgrep -f "$bin/ksm-mprotect-split" >/dev/null; then
		# returned before its reproducer had finished restoring
		not_ok "$desc: run-all returned after its reproducer" \
			"$(pgrep -af "$bin/ksm-mprotect-split")"
		wait_unlocked
	fi
	same "$desc: at the moment it returned" "$before" || return
	if [ -e "$state/journal" ]; then
		not_ok "$desc: no journal left"
	elif [ $sig != KILL ] && [ $rc != $((128 + $(kill -l $sig))) ]; then
		not_ok "$desc: exit 128 + SIG$sig" "rc=$rc"
	else
		ok "$desc: exit $rc, the machine as before"
	fi
}

if ! grep -qw rmap_repro.vm /proc/cmdline &&
   [ -e "$work/ra-points" ]; then
	mapfile -t ra_opts < <(chaos_opts ksm-mprotect-split)
	ra_opts+=(--runs 1)
	mapfile -t points < <(grep -E '^trigger |^restore$' "$work/ra-points" |
		awk '!seen[$0]++')
	ra_sigs=(INT TERM HUP KILL)
	[ "$quick" = 1 ] && ra_sigs=(TERM) && points=("${points[0]}")
	echo "# run-all: ${#points[@]} points: ${points[*]}"
	for p in "${points[@]}"; do
		for sig in "${ra_sigs[@]}"; do
			runall_kill "$p" "$sig"
		done
	done
fi

figs=()
for sig in "${signals[@]}" "run-all INT" "run-all TERM" "run-all HUP" \
	   "run-all KILL"; do
	[[ "$sig" == run-all* ]] && [ -z "${per_sig[$sig]:-}" ] && continue
	figs+=("$sig ${per_sig[$sig]:-0}")
done
tfigs=()
for t in "${trigs[@]}"; do
	tfigs+=("$t ${per_trig[$t]}")
done
# the phases by their first word: setup, case, trigger, restore, start
pfigs=()
for p in $(printf '%s\n' "${!per_phase[@]}" | sed 's/ .*//' | sort -u); do
	n=0
	for k in "${!per_phase[@]}"; do
		[ "${k%% *}" = "$p" ] && n=$((n + per_phase[$k]))
	done
	pfigs+=("$p $n")
done
figures "$kills kills ($(IFS=,; echo "${figs[*]}" | sed 's/,/, /g')); per trigger: $(IFS=,; echo "${tfigs[*]}" | sed 's/,/, /g'); per phase: $(IFS=,; echo "${pfigs[*]}" | sed 's/,/, /g'); $never ended before their point"
assert "kills were tried" [ $kills -gt 0 ]
finish
