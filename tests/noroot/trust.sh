#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The trust boundaries (docs/running.md, "What the suite trusts"), on the
# hostile inputs of tests/data/trust: each refused with a message naming
# why, and nothing created, changed or removed, no process signalled, no
# command run. Needs no root: the journal's cases run the test build with
# a state directory of the test's own, or refuse a file before taking
# any lock; as root the cases of --out in a directory others can write
# run too. Changes nothing of the machine's.
#   - a user's binaries and scripts with a test hook's variable set;
#   - journals: no header, a symbolic link, writable by others, records
#     of things the suite never makes, rmap-probes beside a live run;
#   - received results and sweeps for scripts/plot, sweep --replot and
#     compare whose strings are gnuplot code or a path;
#   - report files at a planted link; --out open to others (as root);
#   - smaller ones: a line break in an argument (KTAP), a decimal option
#     in hex, an option without its value (vm-run, ci/lava/run), a
#     preset that names --out.
. "$(dirname "$0")/../lib/integration.sh"

data=$top/tests/data/trust
repro=$bin/ksm-mprotect-split
# a sure skip, whoever runs it: no machine has 1 TiB available
skip=(--min-free-mb 1048576)

# sums FILE...: their contents and inodes, to compare before and after
sums() {
	local f

	for f in "$@"; do
		printf '%s %s\n' "$(stat -c %i "$f" 2>/dev/null)" \
			"$(sha256sum <"$f" 2>/dev/null)"
	done
}

# fill IN OUT: a data file with its @NAME@ placeholders filled in
fill() {
	sed -e "s|@MARK@|$mark|g" -e "s|@VICTIM@|$victim|g" \
	    -e "s|@LINK@|$work/link|g" -e "s|@CGROUP@|$cg|g" \
	    -e "s|@KNOB@|$knob|g" "$1" >"$2"
}

rm -rf "$work"/*
mark=$work/MARK			# what an injected command would make
victim=$work/victim		# a file of someone's
knob=$work/standin/knob		# a knob of a test's stand-in /proc
cg=$work/fakecg/rmap-repro-1	# a cgroup of the suite's name, not one
echo "the user's" >"$victim"
ln -s "$victim" "$work/link"
mkdir -p "$work/standin"

# --- the test hooks, off in a user's build ---------------------------
c_list=$(sed -n '/hook_vars\[\] = {/,/NULL/p' "$top/common/lib/hooks.c" |
	 grep -o 'RMAP_REPRO_[A-Z_]*' | tr '\n' ' ')
assert "scripts/lib/trust.sh lists the hooks of common/lib/hooks.c (${#rr_hook_vars[@]})" \
	[ "$c_list" = "${rr_hook_vars[*]} " ]
bad=()
for v in "${rr_hook_vars[@]}"; do
	for args in "--help" "--bisect --help" "--no-such-option" "--parse-only"; do
		want=2
		[[ "$args" == *--bisect* ]] && want=128
		# shellcheck disable=SC2086
		env "$v=1" "$repro" $args >"$work/h.out" 2>"$work/h.err"
		rc=$?
		[ $rc = $want ] && grep -q "$v is set" "$work/h.err" &&
			[ ! -s "$work/h.out" ] || bad+=("$v:'$args':$rc")
	done
	for t in rmap-restore rmap-probes rmap-stat; do
		env "$v=1" "$bin/$t" --help >/dev/null 2>"$work/h.err"
		rc=$?
		[ $rc = 2 ] && grep -q "$v is set" "$work/h.err" ||
			bad+=("$v:$t:$rc")
	done
done
assert "each hook variable stops a user's binary at once: exit 2, 128 under --bisect, the variable named${bad:+ (not: ${bad[*]})}" \
	[ ${#bad[@]} = 0 ]
RMAP_REPRO_TEST_HOLD_MS=1 "$tbin/ksm-mprotect-split" --help >/dev/null 2>&1
assert "the test build honours them (--help exits 0)" [ $? = 0 ]
RMAP_REPRO_EXEC_EXIT=1 "$repro" --bisect --no-such-option >/dev/null 2>&1
rc=$?
assert "RMAP_REPRO_EXEC_EXIT is nothing now: a usage error under --bisect is 128, not 0 (exit $rc)" \
	[ $rc = 128 ]
RMAP_REPRO_STATE_DIR=$work/state "$top/scripts/run-all" --only ksm-fork \
	>/dev/null 2>"$work/ra.err"
rc=$?
RMAP_REPRO_TEST_BREAK_UNDO=knob "$top/scripts/run-all" --bisect \
	>/dev/null 2>/dev/null
rc2=$?
assert "run-all with one set runs nothing: exit $rc (128 under --bisect: $rc2), the variable named" \
	bash -c "[ $rc = 2 ] && [ $rc2 = 128 ] && [ ! -e '$work/state' ] &&
		 grep -q 'RMAP_REPRO_STATE_DIR is set' '$work/ra.err'"
RMAP_REPRO_KMSG=/dev/null "$top/scripts/vm-run" --kernel /nonexistent \
	>/dev/null 2>"$work/vm.err"
rc=$?
assert "vm-run with one set runs nothing: exit $rc, the variable named" \
	bash -c "[ $rc = 2 ] && grep -q 'RMAP_REPRO_KMSG is set' '$work/vm.err'"

# --- journals ----------------------------------------------------------
# a file that is not a journal, named to scripts/restore (as
# `scripts/restore --journal /etc/shadow` would): refused, not removed
cp "$data/not-a-journal" "$work/shadow"
before=$(sums "$work/shadow")
"$bin/rmap-restore" --journal "$work/shadow" >/dev/null 2>"$work/r.err"
rc=$?
assert "rmap-restore --journal NOT-A-JOURNAL: exit $rc, 'not a journal of this suite', the file as it was" \
	bash -c "[ $rc = 2 ] && grep -q 'not a journal of this suite' '$work/r.err' &&
		 [ '$before' = '$(sums "$work/shadow")' ] &&
		 [ ! -e '$work/shadow.failed' ]"
# a journal reached through a link
fill "$data/good-knob.journal.in" "$work/real.journal"
ln -s "$work/real.journal" "$work/linked.journal"
echo changed >"$knob"
"$bin/rmap-restore" --journal "$work/linked.journal" >/dev/null \
	2>"$work/r.err"
rc=$?
assert "rmap-restore --journal A-LINK: exit $rc, 'a symbolic link', both files and the knob as they were" \
	bash -c "[ $rc = 2 ] && grep -q 'symbolic link' '$work/r.err' &&
		 [ -L '$work/linked.journal' ] && [ -s '$work/real.journal' ] &&
		 [ \"\$(cat '$knob')\" = changed ]"
# a journal that its group can write
chmod 0664 "$work/real.journal"
"$bin/rmap-restore" --journal "$work/real.journal" >/dev/null 2>"$work/r.err"
rc=$?
assert "rmap-restore --journal GROUP-WRITABLE: exit $rc, 'can be written by its group', left" \
	bash -c "[ $rc = 2 ] && grep -q 'can be written by its group' '$work/r.err' &&
		 [ -s '$work/real.journal' ] && [ \"\$(cat '$knob')\" = changed ]"

# The state directory's own journal, with records of what the suite
# never makes: the test build, in a state directory of the test's own
# (the user's build has no such directory to give).
state=$work/state
mkdir -p "$state" "$(dirname "$cg")" "$cg"
sleep 600 &
sleeper=$!
echo $sleeper >"$cg/cgroup.procs"
fill "$data/hostile.journal.in" "$state/journal"
RMAP_REPRO_STATE_DIR=$state "$tbin/rmap-restore" >"$work/r.out" 2>"$work/r.err"
rc=$?
refused=$(grep -c "refused the journal's record" "$work/r.err")
assert "a journal of hostile records: exit $rc (1), each of its 11 records refused ($refused)" \
	bash -c "[ $rc = 1 ] && [ $refused = 11 ]"
for what in "knob $victim" "knob $work/link" "cgroup $cg" "module ext4" \
	    "swapon /dev/sda1" "mount /home" "exec /bin/sh"; do
	assert "...'$what' refused, with why" \
		grep -q "refused the journal's record $what: ..*; nothing was done with it" \
		"$work/r.err"
done
assert "...the file written through a link and the other's file unchanged" \
	[ "$(cat "$victim")" = "the user's" ]
assert "...the process in the fake cgroup alive, the directory there" \
	bash -c "kill -0 $sleeper && [ -d '$cg' ]"
assert "...no command run, and the journal kept for a look (journal.failed)" \
	bash -c "[ ! -e '$mark' ] && [ -s '$state/journal.failed' ]"
kill $sleeper 2>/dev/null
wait $sleeper 2>/dev/null
rm -f "$state/journal.failed"

# rmap-probes beside a live run: it waits, then gives up without looking
# or undoing (it replayed the live run's journal, and removed it)
fill "$data/good-knob.journal.in" "$state/journal"
echo changed >"$knob"
before=$(sums "$state/journal")
# (-o: the lock is flock's own, gone when it is killed, not its sleep's)
flock -o "$state/lock" sleep 30 &
holder=$!
sleep 0.3
RMAP_REPRO_STATE_DIR=$state RMAP_REPRO_PROC_DIR=$work/standin \
	"$tbin/rmap-probes" --wait 1 >/dev/null 2>"$work/p.err"
rc=$?
kill $holder 2>/dev/null
wait $holder 2>/dev/null
assert "rmap-probes while a run holds the lock: exit $rc, says so, the run's journal and its change as they were" \
	bash -c "[ $rc = 2 ] && grep -q 'another run holds the lock' '$work/p.err' &&
		 [ '$before' = '$(sums "$state/journal")' ] &&
		 [ \"\$(cat '$knob')\" = changed ]"
# with the lock free, the same journal is the test's to replay: it is
RMAP_REPRO_STATE_DIR=$state RMAP_REPRO_PROC_DIR=$work/standin \
	"$tbin/rmap-restore" --quiet --wait 5 >/dev/null 2>&1
assert "...and once the lock is free, scripts/restore replays it (the knob back)" \
	bash -c "[ \"\$(cat '$knob')\" = orig ] && [ ! -e '$state/journal' ]"

# --- received results and sweeps are data -----------------------------
plotted() {
	local name=$1

	shift
	mkdir -p "$work/$name"
	"$@" >"$work/$name.out" 2>"$work/$name.err"
}
if command -v gnuplot >/dev/null; then
	fill "$data/results-gnuplot.json" "$work/r1.json"
	plotted p1 "$top/scripts/plot" --out "$work/p1" "$work/r1.json"
	rc=$?
	assert "plot: a reproducer's name that is gnuplot code: exit $rc, refused, nothing run or drawn" \
		bash -c "[ $rc = 2 ] && grep -q 'is not a name of this suite' '$work/p1.err' &&
			 [ ! -e '$mark' ] && [ -z \"\$(ls '$work/p1')\" ]"
	fill "$data/results-case.json" "$work/r2.json"
	plotted p2 "$top/scripts/plot" --out "$work/p2" "$work/r2.json"
	rc=$?
	assert "plot: a case's name that is gnuplot code: exit $rc, refused, nothing run" \
		bash -c "[ $rc = 2 ] && [ ! -e '$mark' ] && [ -z \"\$(ls '$work/p2')\" ]"
	mkdir -p "$work/p3/a/b"
	plotted p3 "$top/scripts/plot" --out "$work/p3/a/b" \
		"$data/results-escape.json"
	rc=$?
	assert "plot: a reproducer named ../../escaped: exit $rc, refused, no file outside the output directory" \
		bash -c "[ $rc = 2 ] && [ -z \"\$(find '$work/p3' -type f)\" ]"
	for s in name values kernel; do
		rm -rf "$work/s-$s"
		mkdir -p "$work/s-$s"
		fill "$data/sweep-$s.json" "$work/s-$s/sweep.json"
		"$top/scripts/sweep" --replot "$work/s-$s" >/dev/null \
			2>"$work/s-$s.err"
		eval "rc_$s=$?"
	done
	assert "sweep --replot: a case's name that is gnuplot code: exit $rc_name, refused, nothing run or drawn" \
		bash -c "[ $rc_name = 2 ] && grep -q 'not drawn' '$work/s-name.err' &&
			 [ ! -e '$mark' ] && [ ! -e '$work/s-name/sweep.png' ]"
	assert "sweep --replot: a value that is gnuplot code: exit $rc_values, refused" \
		bash -c "[ $rc_values = 2 ] && [ ! -e '$mark' ] &&
			 [ ! -e '$work/s-values/sweep.png' ]"
	assert "sweep --replot: a kernel string that is gnuplot code is a title, drawn as text (exit $rc_kernel), and runs nothing" \
		bash -c "[ $rc_kernel = 0 ] && [ -s '$work/s-kernel/sweep.png' ] &&
			 grep -q 'system' '$work/s-kernel/sweep.svg' &&
			 [ ! -e '$mark' ]"
else
	ok "plot and sweep --replot on hostile files # SKIP no gnuplot (scripts/install-deps --plot)"
fi
fill "$data/results-gnuplot.json" "$work/r1.json"
"$top/scripts/compare" "$work/r1.json" "$top/docs/sample-vm-results.json" \
	>"$work/c.out" 2>"$work/c.err"
rc=$?
assert "compare: a name that is not the suite's: exit $rc, refused" \
	bash -c "[ $rc = 2 ] && grep -q 'not compared' '$work/c.err' && [ ! -s '$work/c.out' ]"

# --- reports are never written through a link --------------------------
mkdir -p "$work/out1"
ln -s "$victim" "$work/out1/ksm-mprotect-split.json"
"$repro" "${skip[@]}" --out "$work/out1" >/dev/null 2>&1
rc=$?
assert "a link planted at a report's name is replaced, its target unchanged (exit $rc)" \
	bash -c "[ $rc = 4 ] && [ \"\$(cat '$victim')\" = \"the user's\" ] &&
		 [ -f '$work/out1/ksm-mprotect-split.json' ] &&
		 [ ! -L '$work/out1/ksm-mprotect-split.json' ] &&
		 jq -e .verdict '$work/out1/ksm-mprotect-split.json'"
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$work/open"
	chmod 1777 "$work/open"
	"$repro" "${skip[@]}" --out "$work/open" >/dev/null 2>"$work/o.err"
	rc=$?
	"$top/scripts/run-all" --only ksm-fork --out "$work/open" \
		>/dev/null 2>"$work/o2.err"
	rc2=$?
	assert "as root, --out a directory others can write: refused (exit $rc, run-all $rc2), nothing written" \
		bash -c "[ $rc = 2 ] && [ $rc2 = 2 ] &&
			 grep -q 'other users can write' '$work/o.err' &&
			 grep -q 'other users can write' '$work/o2.err' &&
			 [ -z \"\$(ls -A '$work/open')\" ]"
	"$repro" "${skip[@]}" --out "$work/open/mine" >/dev/null 2>&1
	rc=$?
	assert "as root, a new directory of its own there is fine (exit $rc)" \
		bash -c "[ $rc = 4 ] && [ -s '$work/open/mine/ksm-mprotect-split.json' ]"
else
	ok "--out a directory others can write, as root # SKIP not root"
	ok "a new directory there, as root # SKIP not root"
fi

# --- smaller ones --------------------------------------------------------
nl=$'x\nok 99 injected-line'
"$repro" "${skip[@]}" --format ktap --out "$work/$nl" >"$work/k.ktap" 2>/dev/null
assert "a line break in an argument starts no KTAP line of its own" \
	bash -c "! grep -q '^ok 99' '$work/k.ktap' &&
		 grep -q \"out \\\$'.*x\\\\\\\\nok 99 injected-line'\" '$work/k.ktap'"
"$repro" --threshold-ms 0x10 --parse-only >/dev/null 2>"$work/t.err"
rc=$?
assert "--threshold-ms 0x10: a usage error (exit $rc), not 16" \
	bash -c "[ $rc = 2 ] && grep -q 'not a decimal number' '$work/t.err'"
"$top/scripts/vm-run" --kernel >/dev/null 2>&1
rc=$?
"$top/scripts/vm-run" --bisect --kernel >/dev/null 2>&1
rc2=$?
assert "vm-run --kernel without a value: a usage error (exit $rc; $rc2 under --bisect, which aborts it)" \
	[ $rc = 2 -a $rc2 = 128 ]
"$top/ci/lava/run" --preset "quick|e id" >/dev/null 2>"$work/l.err"
rc=$?
"$top/ci/lkp/run" --only "a\" ; id" >/dev/null 2>"$work/l2.err"
rc2=$?
assert "ci/lava/run and ci/lkp/run refuse a preset or names that are not names (exit $rc, $rc2)" \
	bash -c "[ $rc = 2 ] && [ $rc2 = 2 ] && grep -q 'not .quick|e id' '$work/l.err' &&
		 grep -q 'reproducer names' '$work/l2.err'"
printf -- '--runs 1\n[ksm-fork]\n--out /etc\n' >"$work/out.preset"
"$top/scripts/run-all" --preset "$work/out.preset" --only ksm-fork \
	>/dev/null 2>"$work/pr.err"
rc=$?
assert "a preset that gives --out is refused before anything runs (exit $rc)" \
	bash -c "[ $rc = 2 ] && grep -q 'run-all gives --out' '$work/pr.err'"
finish
