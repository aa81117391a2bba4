# SPDX-License-Identifier: GPL-2.0
#
# What the scripts trust (docs/running.md, "What the suite trusts").
# Sourced by run-all, vm-run, sweep, plot and bench.
#
#   hook_set                 the first test-hook variable that is set
#                            (common/lib/hooks.c's list), or nothing
#   hooks_refused PROG       say why PROG does not run with one set;
#                            false when none is
#   out_dir_refused DIR      why root must not write into DIR, an existing
#                            directory that others can write or that is
#                            not root's (nothing, and false, otherwise, or
#                            when not root)
#   name_ok STRING           the suite's name rule: [A-Za-z0-9@._-]+
#   results_bad_name FILE    the first reproducer, case or probe name of a
#                            results file that breaks that rule (nothing
#                            when none does): a received file is data

# The variables of the test hooks, as common/lib/hooks.c lists them
# (tests/noroot/trust.sh checks that the two lists agree).
rr_hook_vars=(
	RMAP_REPRO_TEST_FAIL_CHANGE
	RMAP_REPRO_TEST_BREAK_UNDO
	RMAP_REPRO_TEST_HOLD_AT
	RMAP_REPRO_TEST_HOLD_MS
	RMAP_REPRO_STATE_DIR
	RMAP_REPRO_SYS_DIR
	RMAP_REPRO_PROC_DIR
	RMAP_REPRO_KSM_DIR
	RMAP_REPRO_KMSG
)

hook_set() {
	local v

	for v in "${rr_hook_vars[@]}"; do
		if [ -n "${!v+set}" ]; then
			echo "$v"
			return
		fi
	done
}

hooks_refused() {
	local v

	v=$(hook_set)
	[ -n "$v" ] || return 1
	echo "$1: $v is set: it drives a test hook, which only the test build honours (build/test/bin, for make check; run-all --test-build); nothing was run with it set. Unset it (env -u $v) and run again." >&2
	return 0
}

out_dir_refused() {
	local d=$1 uid mode

	[ "$(id -u)" = 0 ] && [ -e "$d" ] || return 1
	read -r uid mode < <(stat -Lc '%u %a' -- "$d" 2>/dev/null) || {
		echo "$d: cannot be read"
		return 0
	}
	if [ "$uid" != 0 ]; then
		echo "$d belongs to another user (uid $uid): as root, files go only to a directory that root alone can write; name a new one (it is made) or one of root's"
		return 0
	fi
	if (( 8#$mode & 8#022 )); then
		echo "other users can write to $d (mode $mode): as root, files go only to a directory that root alone can write; name a new one (it is made) or one of root's"
		return 0
	fi
	return 1
}

name_ok() {
	[[ "$1" =~ ^[A-Za-z0-9@._-]+$ ]]
}

results_bad_name() {
	jq -r '(if .results then .results else [.] end)[]
		| (.reproducer, ((.cases // [])[] | .name, .probe))
		| if type == "string" then . else tojson end
		| select(test("^[A-Za-z0-9@._-]+$") | not)' "$1" 2>/dev/null |
		head -1 | cut -c1-60
}
