# SPDX-License-Identifier: GPL-2.0
#
# What the scripts trust (docs/running.md, "What the suite trusts").
# Sourced by run-all, vm-run, sweep, plot, compare, fingerprint, bench
# and ci/. The rules themselves are the suite's C, in one gate
# (build/bin/rmap-trust: tools/trust.c), which fails closed.
#
#   hook_set                 the first test-hook variable that is set
#                            (common/lib/hooks.c's list), or nothing
#   hooks_refused PROG       say why PROG does not run with one set;
#                            false when none is
#   out_dir DIR              DIR as a directory to write into: as root it
#                            and every directory above it root's alone
#                            (a sticky one such as /tmp aside, above a
#                            directory made here), the missing part made;
#                            its resolved path in $out_dir_path, the one
#                            to use from then on; false, with why in
#                            $out_dir_why, when refused
#   out_dir_check DIR        the same check, nothing made (before a lock)
#   out_base                 where a default output directory is made:
#                            the clone's out/, or /var/tmp/rmap-repro
#                            where root may not write there (a clone of
#                            another user's; said on stderr); in
#                            $out_dir_path
#   sub_dir DIR NAME         DIR/NAME as a real directory: a link or a
#                            file planted at the name (a received
#                            directory's) is removed, not followed
#   received_results FILE... each a results file (or a reproducer's own
#                            JSON) that is data, often someone else's:
#                            false, with why on stderr, unless every
#                            rule holds (strict JSON, names, no control
#                            character, finite times not negative, kept
#                            equal to the values' count, sizes)
#   received_sweep FILE      the same for a sweep.json
#   name_ok STRING           the suite's name rule: [A-Za-z0-9@._-]+
#   put FILE                 standard input into FILE: a new file beside
#                            it, then renamed over the name, so that a
#                            link planted at the name is replaced, never
#                            followed
#   new_beside FILE          the name of a new, empty file beside FILE
#                            (for a program that writes a file itself,
#                            such as gnuplot); place_over TMP FILE then
#                            renames it over FILE

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

rr_trust() {
	local t=${top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

	if [ ! -x "$t/build/bin/rmap-trust" ]; then
		echo "build/bin/rmap-trust is missing: run make" >&2
		return 2
	fi
	"$t/build/bin/rmap-trust" "$@"
}

out_dir_check() {
	local o

	o=$(rr_trust out-dir "$1" 2>&1) && return 0
	out_dir_why=${o#rmap-trust: }
	return 1
}

out_dir() {
	local o

	if o=$(rr_trust out-dir --make "$1" 2>&1); then
		out_dir_path=$o
		return 0
	fi
	out_dir_why=${o#rmap-trust: }
	return 1
}

out_base() {
	out_dir "$top/out" && return 0
	echo "note: not $top/out: $out_dir_why; using /var/tmp/rmap-repro" >&2
	out_dir /var/tmp/rmap-repro
}

sub_dir() {
	local d=$1/$2

	if [ -L "$d" ] || { [ -e "$d" ] && [ ! -d "$d" ]; }; then
		rm -f -- "$d" || return 1
	fi
	mkdir -p -- "$d"
}

received_results() {
	rr_trust results "$@" 2>&1 | sed 's/^rmap-trust: //' >&2
	[ "${PIPESTATUS[0]}" = 0 ]
}

received_sweep() {
	rr_trust sweep "$1" 2>&1 | sed 's/^rmap-trust: //' >&2
	[ "${PIPESTATUS[0]}" = 0 ]
}

name_ok() {
	[[ "$1" =~ ^[A-Za-z0-9@._-]+$ ]]
}

new_beside() {
	local t d

	# dirname and basename in the shell: a process each is slow in a
	# guest under TCG
	d=.
	case $1 in */*) d=${1%/*}; d=${d:-/} ;; esac
	t=$(mktemp "$d/.${1##*/}.XXXXXX") || return 1
	# as a report the C writes: readable by all, like the name it takes
	chmod 0644 "$t" && echo "$t"
}

place_over() {
	mv -fT -- "$1" "$2" || { rm -f -- "$1"; return 1; }
}

put() {
	local t

	t=$(new_beside "$1") || return 1
	if ! cat >"$t"; then
		rm -f -- "$t"
		return 1
	fi
	place_over "$t" "$1"
}
