#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad inputs and faults, as a new user meets them. Each bad input gives
# its exact reason and exit code and changes nothing; a SKIP comes before
# any change. After a kill -9, the replay of the journal undoes only what
# is still the run's: a knob the user changed since, a zram swap the user
# made under the same device number, KSM pages merged since the user
# started ksmd again, all stay, and the replay says so; a journal of an earlier boot
# undoes nothing; a journal left behind is replayed by the next run. The
# stale-instance sweep removes the instances of dead runs only.
. "$(dirname "$0")/../lib/integration.sh"

set -m
repro=$bin/ksm-mprotect-split
small=(--runs 1 --pages 2000 --identical 64)
ksm=/sys/kernel/mm/ksm
tracing=/sys/kernel/tracing

# case DESC CODE MESSAGE ARGS...: exit CODE, MESSAGE on stderr (usage
# errors) or in the JSON reason (skips), and nothing changed.
case_() {
	local desc=$1 code=$2 want=$3 before rc where

	shift 3
	before=$(snapshot)
	"$repro" --format json "$@" >"$work/case.out" 2>"$work/case.err"
	rc=$?
	if [ "$code" = 2 ]; then
		where=$work/case.err
		[ -s "$work/case.out" ] && where=/dev/null	# no report
	else
		jq -r .reason "$work/case.out" >"$work/case.why" 2>/dev/null
		where=$work/case.why
	fi
	if [ $rc = "$code" ] && grep -qF -- "$want" "$where" &&
	   [ "$(snapshot)" = "$before" ]; then
		ok "$desc: exit $code, nothing changed"
	else
		not_ok "$desc: exit $code, nothing changed" "rc=$rc" \
			"$(head -c 300 "$work/case.err" "$work/case.out" | tr '\n' ' ')"
	fi
}

node=4095
while [ -e /sys/devices/system/node/node$node ]; do node=$((node - 1)); done
touch "$work/a-file"
case_ "a number too large for any type" 2 \
	"--pages: 99999999999999999999 is out of range [16, 4000000]" \
	--pages 99999999999999999999
case_ "a hexadecimal number" 2 "--pages: '0x10' is not a decimal number" \
	--pages 0x10
case_ "a signed number" 2 "--runs: '-1' is not a decimal number" --runs -1
case_ "--compact-node of a node this machine lacks" 2 \
	"--compact-node $node: no such NUMA node here" --compact-node $node
case_ "--out where nothing can be created" 2 \
	"--out /proc/rmap-repro-x: cannot create /proc/rmap-repro-x" \
	--out /proc/rmap-repro-x
case_ "--out naming a file" 2 \
	"--out $work/a-file: $work/a-file exists and is not a directory" \
	--out "$work/a-file"
case_ "--min-free-mb above what is free: a skip" 4 \
	"is below the 1048576 MiB floor (--min-free-mb)" --min-free-mb 1048576
"$repro" --help >"$work/help" 2>&1
assert "--help lists every trigger, migrate too" \
	bash -c "tr -s ' \n' ' ' <'$work/help' |
		 grep -q 'one of auto, compact, reclaim, migrate, '"

# --- the stale-instance sweep ----------------------------------------
pid_max=$(cat /proc/sys/kernel/pid_max)
dead=rmap-repro-$((pid_max + 1))
live=rmap-repro-$$
mounted=1
grep -q " $tracing tracefs " /proc/mounts || {
	mounted=0
	mount -t tracefs nodev $tracing
}
before=$(snapshot)
mkdir "$tracing/instances/$dead" "$tracing/instances/$live"
"$repro" "${small[@]}" >/dev/null 2>"$work/sweep.err"
assert "the instance of a dead run is swept" \
	bash -c "[ ! -e '$tracing/instances/$dead' ] &&
		 grep -q 'removed stale tracefs instance $dead' '$work/sweep.err'"
assert "the instance of a live process stays" \
	[ -d "$tracing/instances/$live" ]
rmdir "$tracing/instances/$live" "$tracing/instances/$dead" 2>/dev/null
assert_same "the sweep changed nothing else" "$before" "$(snapshot)"
[ $mounted = 0 ] && umount $tracing

# --- a journal of an earlier boot ------------------------------------
before=$(snapshot)
mkdir -p /run/rmap-repro
mmc=$(cat /proc/sys/vm/max_map_count)
printf '# rmap-repro journal v1: pid 1 (test)\nboot\t00000000-0000-0000-0000-000000000000\t\nknob\t/proc/sys/vm/max_map_count\t12345\nwrote\t/proc/sys/vm/max_map_count\t%s\n' \
	"$mmc" >/run/rmap-repro/journal
"$top/scripts/restore" >"$work/boot.out" 2>&1
assert "a journal of an earlier boot: restore says so and undoes nothing" \
	bash -c "grep -q 'written in an earlier boot' '$work/boot.out' &&
		 [ \$(cat /proc/sys/vm/max_map_count) = $mmc ] &&
		 [ ! -e /run/rmap-repro/journal ]"
assert_same "...and the machine is as before" "$before" "$(snapshot)"

# kill9 ARGS...: start a run, SIGKILL it inside its trigger (held there
# by the test hook, whatever the kernel).
kill9() {
	local pid

	RMAP_REPRO_TEST_HOLD_MS=8000 "$tbin/${repro##*/}" "$@" >/dev/null \
		2>"$work/k9.err" &
	pid=$!
	wait_for "$work/k9.err" "(probe pass)" 120
	sleep 0.3
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_unlocked
}

# --- a journal left by a killed run: the next run replays it ---------
before=$(snapshot)
kill9 "${small[@]}"
assert "a killed run left its journal" [ -s /run/rmap-repro/journal ]
"$repro" "${small[@]}" >/dev/null 2>"$work/next.err"
assert "the next run restores it first, and says so" \
	grep -q "a killed run left /run/rmap-repro/journal: restoring it first" \
	"$work/next.err"
assert_same "...and leaves the machine as before" "$before" "$(snapshot)"

# --- after a kill -9, the user changed things: the replay leaves them --
if reclaim_possible && [ "$(wc -l </proc/swaps)" -le 1 ] &&
   [ -e /sys/class/zram-control/hot_add ]; then
	before=$(snapshot)
	pts=$(cat $ksm/pages_to_scan)
	kill9 "${small[@]}" --trigger reclaim
	dev=$(awk -F'\t' '$1 == "swapon" { print $2 }' /run/rmap-repro/journal)
	id=${dev#/dev/zram}
	# The user: their own KSM process and settings, their own zram swap
	# on the device number the run had.
	echo 777 >$ksm/pages_to_scan
	echo 1 >$ksm/run
	"$top/build/tests/helpers/ksm-holder" 64 30 >"$work/holder.out" &
	holder=$!
	wait_for "$work/holder.out" "ready" 30
	swapoff "$dev" && echo 1 >/sys/block/zram$id/reset &&
		echo "$id" >/sys/class/zram-control/hot_remove
	uid=$(cat /sys/class/zram-control/hot_add)
	echo 64M >/sys/block/zram$uid/disksize
	mkswap "/dev/zram$uid" >/dev/null 2>&1 && swapon "/dev/zram$uid"
	"$top/scripts/restore" >"$work/user.out" 2>&1
	rc=$?
	assert "the user's zram took the run's device number (zram$id)" \
		[ "$uid" = "$id" ]
	assert "scripts/restore exits 0" [ $rc = 0 ]
	assert "the user's zram swap is still on, and restore said why" \
		bash -c "grep -q '^/dev/zram$uid ' /proc/swaps &&
			 grep -q 'left swap on /dev/zram$uid: it is another device' '$work/user.out' &&
			 grep -q 'left /dev/zram$uid' '$work/user.out'"
	assert "the user's pages_to_scan and run stay, and restore said so" \
		bash -c "[ \$(cat $ksm/pages_to_scan) = 777 ] && [ \$(cat $ksm/run) = 1 ] &&
			 grep -q 'left $ksm/pages_to_scan as it is: it holds 777' '$work/user.out'"
	assert "the user's KSM pages stay merged (no run=2), and restore said so" \
		bash -c "[ \$(cat /proc/$holder/ksm_merging_pages) -gt 0 ] &&
			 grep -q 'left $ksm/run as it is: it holds 1' '$work/user.out' &&
			 grep -q 'left KSM merged: $ksm/run was changed since' '$work/user.out'"
	assert "the run's own changes were undone (its cgroup, sleep_millisecs)" \
		bash -c "! grep -q 'could not undo' '$work/user.out' &&
			 grep -q 'removed /sys/fs/cgroup.*rmap-repro' '$work/user.out'"
	# The user cleans up after themselves.
	kill $holder
	wait $holder 2>/dev/null
	swapoff "/dev/zram$uid"
	echo 1 >/sys/block/zram$uid/reset
	echo "$uid" >/sys/class/zram-control/hot_remove
	echo 2 >$ksm/run && echo 0 >$ksm/run
	echo "$pts" >$ksm/pages_to_scan
	assert_same "after the user's own clean-up, the machine is as before" \
		"$before" "$(snapshot)"
else
	echo "ok $((n += 1)) a user's zram swap after a kill -9 # SKIP needs reclaim, no active swap and zram hot_add"
fi

# --- a swap that is already on is used, and left on ------------------
if reclaim_possible && [ "$(wc -l </proc/swaps)" -le 1 ] &&
   [ -e /sys/class/zram-control/hot_add ]; then
	before=$(snapshot)
	uid=$(cat /sys/class/zram-control/hot_add)
	echo 64M >/sys/block/zram$uid/disksize
	# busybox's swapon (the guest's) may lack -p: the user's swap then
	# has the kernel's negative default, and the run's must take 0
	mkswap "/dev/zram$uid" >/dev/null 2>&1 &&
		{ swapon -p 5 "/dev/zram$uid" 2>/dev/null ||
		  swapon "/dev/zram$uid"; }
	uprio=$(awk -v d="/dev/zram$uid" '$1 == d { print $5 }' /proc/swaps)
	if [ "${uprio:--1}" -ge 0 ]; then
		want_prio=$((uprio + 1))
	else
		want_prio=0
	fi
	mid=$(snapshot)
	"$repro" "${small[@]}" --trigger reclaim --swap-mb 32 \
		--format json >"$work/reuse.json" 2>"$work/reuse.err"
	assert_jq "a swap already on with room for --swap-mb is used, and the report says so" \
		"$work/reuse.json" \
		".trigger.swap | test(\"^/dev/zram$uid .*already active\")"
	assert_same "it is still on afterwards, nothing else changed" \
		"$mid" "$(snapshot)"
	# too small for the run (64 MiB under --swap-mb 256): the pattern
	# would wait behind whatever fills it; the run adds its own, ahead
	# of the user's by priority, and removes it
	"$repro" "${small[@]}" --trigger reclaim --swap-mb 256 \
		--format json >"$work/beside.json" 2>"$work/beside.err"
	assert_jq "a swap with too little room gets one of the run's beside it, used first" \
		"$work/beside.json" \
		".trigger.swap | test(\"^/dev/zram[0-9]+ .*created for the run; the active swap had too little room\") and (startswith(\"/dev/zram$uid \") | not)"
	assert_jq "and the run's swap took a priority above the user's ($uprio)" \
		"$work/beside.json" \
		".trigger.swap | test(\"priority $want_prio\\\\)\")"
	assert_same "the user's swap is still on, nothing else changed" \
		"$mid" "$(snapshot)"
	swapoff "/dev/zram$uid"
	echo 1 >/sys/block/zram$uid/reset
	echo "$uid" >/sys/class/zram-control/hot_remove
	assert_same "after the user removed it, the machine is as before" \
		"$before" "$(snapshot)"
else
	echo "ok $((n += 1)) a swap already on is reused # SKIP needs reclaim, no active swap and zram hot_add"
fi
finish
