# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the chaos tests (tests/chaos, make chaos): what a user has
# on the machine before a run, the runs a matrix makes, and its figures.
# Sourced after integration.sh, not run.
#
# CHAOS_QUICK=1: the short subset make check runs (the flagship, the
# trigger this kernel gives it by default). CHAOS_MAX_N caps the fault
# points tried per run (the test of the matrix itself). CHAOS_REPROS and
# CHAOS_TRIGGERS narrow the pairs (names, space-separated).

. "$top/scripts/lib/preset.sh"

# The matrices drive the test hooks: the test build's binaries.
bin=$tbin

state=${RMAP_REPRO_STATE_DIR:-/run/rmap-repro}
quick=${CHAOS_QUICK:-0}
diffs=0			# runs after which the machine was not as before
remerged=0		# pressure runs after which the user's ksmd merged again

# figures LEADING...: a matrix's "# here: figures:" line, its own figures
# first, then the counts every matrix keeps; the diffs last, where
# tests/integration/chaos.sh reads them ("... N diffs")
figures() {
	echo "# here: figures: $*, $remerged pressure runs after which the user's ksmd merged their reclaimed pages again; $diffs diffs"
}

# The reproducers, small: the quick preset's lines (a first look), one
# run, so that a matrix of hundreds of runs fits in minutes.
chaos_opts() {
	preset_words "$top/configs/quick.preset" "$1"
	case $1 in
	ksm-mprotect-split|madvise-split)
		# the quick preset's 20,000 pages, cut to 2,000
		printf '%s\n' --pages 2000 --identical 64 ;;
	ksm-mremap)
		# 512 pages, cut to 32: soft offline journals each frame it
		# retires (an unpoison each), 1,037 changes at 512
		printf '%s\n' --pages 32 ;;
	esac
}

# The reproducers and triggers of the matrix: "NAME TRIGGER" lines. A
# trigger the reproducer refuses (--parse-only) is not a pair; one this
# kernel cannot run shows as a SKIP of the counting run.
chaos_pairs() {
	local r t

	if [ "$quick" = 1 ]; then
		echo "ksm-mprotect-split auto"
		return
	fi
	# In a guest of the shared test kernel (vmchaos.sh): the triggers
	# the host lacks, each with the reproducer built for it (TCG's pace).
	if suite_vm; then
		printf '%s\n' "ksm-mprotect-split migrate" \
			"ksm-mprotect-split page-idle" \
			"ksm-memory-failure hwpoison" \
			"ksm-mremap soft-offline"
		return
	fi
	for r in ${CHAOS_REPROS:-$(ls "$top"/reproducers/*.c |
		   xargs -n1 basename | sed 's/\.c$//')}; do
		# pressure's phases take a minute or more each: the
		# flagship's alone
		for t in ${CHAOS_TRIGGERS:-auto reclaim compact migrate \
			 soft-offline hwpoison page-idle damon ksm-scan \
			 $([ "$r" = ksm-mprotect-split ] && echo pressure)}; do
			"$bin/$r" --parse-only --trigger "$t" \
				$(chaos_opts "$r") >/dev/null 2>&1 &&
				echo "$r $t"
		done
	done
}

# ---- the user's own state, set up before and checked after every run ----

user_cg=""
user_inst=""
user_zram=""
user_thp=""
user_pid=""
user_ksm_run=""
user_kprobe=""
user_kprobe_fn=do_sys_openat2
user_sharing=0

# user_setup: what a kernel developer may have running: their process
# with KSM-merged pages (ksmd on), their own zram swap, tracefs instance
# and memory cgroup with a limit, a THP setting of theirs. Each is said
# (a "# user:" line) or skipped with the reason.
user_setup() {
	local t=/sys/kernel/tracing v1=/sys/fs/cgroup/memory id

	# a test stopped by a signal still gives the user's state back
	# (the EXIT trap runs on exit, not on a signal's default action)
	trap 'exit 130' INT
	trap 'exit 143' TERM HUP
	user_ksm_run=$(cat /sys/kernel/mm/ksm/run 2>/dev/null)
	user_sharing=$(cat /sys/kernel/mm/ksm/pages_sharing 2>/dev/null)
	if [ -w /sys/kernel/mm/ksm/run ]; then
		echo 1 >/sys/kernel/mm/ksm/run
		"$top/build/tests/helpers/ksm-holder" 256 3600 \
			>"$work/holder.out" 2>&1 &
		user_pid=$!
		wait_for "$work/holder.out" "ready\|timeout" 60
		echo "# user: ksmd on, pid $user_pid with $(user_merged) merged pages"
	fi
	if [ -e /sys/class/zram-control/hot_add ] && command -v mkswap \
	   >/dev/null && [ "$(wc -l </proc/swaps)" = 1 ]; then
		id=$(cat /sys/class/zram-control/hot_add)
		if echo 64M >/sys/block/zram$id/disksize &&
		   mkswap /dev/zram$id >/dev/null 2>&1 &&
		   swapon -p 5 /dev/zram$id; then
			user_zram=$id
			echo "# user: swap on /dev/zram$id"
		else
			echo "$id" >/sys/class/zram-control/hot_remove
		fi
	fi
	if ! grep -q " $t tracefs " /proc/mounts; then
		mount -t tracefs nodev $t && user_tracefs=1
	fi
	if mkdir "$t/instances/user-chaos-$$" 2>/dev/null; then
		user_inst=$t/instances/user-chaos-$$
		echo "# user: tracefs instance ${user_inst##*/}"
	fi
	# a kprobe event of theirs, where the kernel has kprobe events
	if [ -w $t/kprobe_events ] &&
	   echo "p:user_chaos/user_probe $user_kprobe_fn" \
		>>$t/kprobe_events 2>/dev/null; then
		user_kprobe=1
		echo "# user: kprobe event user_chaos/user_probe on $user_kprobe_fn"
	else
		echo "# user: no kprobe event (no kprobe_events here)"
	fi
	if [ -d $v1 ]; then
		user_cg=$v1/user-chaos-$$
	elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		user_cg=/sys/fs/cgroup/user-chaos-$$
	fi
	if [ -n "$user_cg" ] && mkdir "$user_cg"; then
		if [ -d $v1 ]; then
			echo $((512 << 20)) >"$user_cg/memory.limit_in_bytes"
		else
			echo $((512 << 20)) >"$user_cg/memory.max"
		fi
		echo "# user: memory cgroup ${user_cg##*/}, limit 512 MiB"
	else
		user_cg=""
	fi
	v=/sys/kernel/mm/transparent_hugepage/defrag
	if [ -w $v ]; then
		user_thp=$(sed 's/.*\[\(.*\)\].*/\1/' $v)
		echo defer >$v && echo "# user: THP defrag defer (was $user_thp)"
	fi
}

user_merged() {
	cat /proc/$user_pid/ksm_merging_pages 2>/dev/null || echo 0
}

# What of the user's state a run must leave: one fact per line.
user_state() {
	[ -n "$user_pid" ] && {
		echo "user ksm run=$(cat /sys/kernel/mm/ksm/run)"
		[ "$(user_merged)" -gt 0 ] && echo "user ksm pages merged"
	}
	[ -n "$user_zram" ] && grep "^/dev/zram$user_zram " /proc/swaps |
		awk '{ print "user swap " $1 " prio " $5 }'
	[ -n "$user_inst" ] && [ -d "$user_inst" ] && echo "user instance"
	[ -n "$user_kprobe" ] &&
		grep "user_chaos/user_probe" /sys/kernel/tracing/kprobe_events
	[ -n "$user_cg" ] && for f in memory.limit_in_bytes memory.max; do
		[ -r "$user_cg/$f" ] && echo "user cgroup $f=$(cat "$user_cg/$f")"
	done
	[ -n "$user_thp" ] &&
		echo "user thp $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
	return 0
}

user_teardown() {
	local f=/sys/kernel/mm/ksm/pages_sharing i

	if [ -n "$user_pid" ]; then
		{ kill "$user_pid"; wait "$user_pid"; } 2>/dev/null
		# ksmd drops gone pages (the stand-in's, and those of the
		# runs, which leave KSM merged while the user's pages are)
		# from its counters only as it scans: where KSM held nothing
		# before, the user unmerges all (run=2), so that the tests
		# after find the counters as they were
		if [ "$user_sharing" = 0 ] && [ "$(cat $f)" != 0 ]; then
			echo 2 >/sys/kernel/mm/ksm/run
			for ((i = 0; i < 100 && $(cat $f) != 0; i++)); do
				sleep 0.1
			done
		fi
	fi
	[ -n "$user_ksm_run" ] && echo "$user_ksm_run" >/sys/kernel/mm/ksm/run
	if [ -n "$user_zram" ]; then
		swapoff /dev/zram$user_zram
		echo 1 >/sys/block/zram$user_zram/reset
		echo "$user_zram" >/sys/class/zram-control/hot_remove
	fi
	[ -n "$user_kprobe" ] && echo "-:user_chaos/user_probe" \
		>>/sys/kernel/tracing/kprobe_events
	[ -n "$user_inst" ] && rmdir "$user_inst"
	[ -n "${user_tracefs:-}" ] && umount /sys/kernel/tracing
	[ -n "$user_cg" ] && rmdir "$user_cg"
	[ -n "$user_thp" ] &&
		echo "$user_thp" >/sys/kernel/mm/transparent_hugepage/defrag
	# the hooks' lists (fault.h): nothing of the tests stays behind
	rm -f "$state/test-changes" "$state/test-holds"
	return 0
}

# The whole state: the suite's snapshot, and the user's.
chaos_snapshot() {
	snapshot | grep -v '^ksm/pages_\(shared\|sharing\)='
	user_state
}

# same DESC BEFORE [FILE...]: the machine is as before (a diff counted,
# and shown with the end of each FILE the run wrote, kept in $work).
# Under the pressure trigger ($t, the pair's trigger), the reclaim is
# machine-wide, as any memory pressure: the user's idle KSM pages may go
# to swap (the run's zram, first by priority) and come back unmerged when
# the run removes its device. Their own ksmd merges them again: that is
# waited for (30 s at most) and counted, not a diff. Any other trigger
# must leave them merged as they were.
same() {
	local now i

	now=$(chaos_snapshot)
	if [ "$now" != "$2" ] && [ "${t:-}" = pressure ] &&
	   grep -qx "user ksm pages merged" <<<"$2" &&
	   ! grep -qx "user ksm pages merged" <<<"$now"; then
		for ((i = 0; i < 300; i++)); do
			[ "$(user_merged)" -gt 0 ] && break
			sleep 0.1
		done
		if [ "$(user_merged)" -gt 0 ]; then
			remerged=$((remerged + 1))
			echo "# $1: the user's KSM pages came back unmerged (reclaimed under the pressure); their ksmd merged them again after $((i / 10)).$((i % 10)) s"
			now=$(chaos_snapshot)
		fi
	fi
	if [ "$now" != "$2" ]; then
		diffs=$((diffs + 1))
		not_ok "$1: the machine is as before" \
			$(diff <(echo "$2") <(echo "$now") | head -10 | tr ' ' '_')
		# what the run said (its restore's warnings), kept for later
		for f in "${@:3}"; do
			[ -s "$f" ] || continue
			cp "$f" "$work/diff-$diffs-$(basename "$f")"
			echo "# kept $work/diff-$diffs-$(basename "$f"), which ends:"
			tail -6 "$f" | cut -c1-300 | sed 's/^/#   /'
		done
		return 1
	fi
	return 0
}
