#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/run-all itself, on a copy of the tree whose reproducers are
# small scripts that play a part (a verdict, a usage error, a slow
# restore): KTAP renumbering, the report of a reproducer that gave none,
# bad arguments and presets (exit 2, with the file and line), one run-all
# at a time, a new output directory per run, and signals to run-all's
# process group forwarded to the reproducer, with run-all returning only
# once it has ended; --bisect's codes, and git bisect run over a small
# history that they drive. No kernel state is touched. (It runs the
# test build, run-all --test-build: its state directory is a test's.)
. "$(dirname "$0")/../lib/integration.sh"

set -m
fake=$work/tree
export RMAP_REPRO_STATE_DIR=$work/state
mkdir -p "$fake/scripts" "$fake/reproducers" "$fake/configs" \
	 "$fake/build/test/bin" "$RMAP_REPRO_STATE_DIR"
# the scripts' gate for what they read and where they write (trust.sh)
mkdir -p "$fake/build/bin"
cp "$top/build/bin/rmap-trust" "$fake/build/bin/"
cp -r "$top/scripts/run-all" "$top/scripts/lib" "$fake/scripts/"
touch "$fake/reproducers/fa.c" "$fake/reproducers/fb.c"
printf -- '--runs 1\n[fa]\n--pages 10\n' >"$fake/configs/quick.preset"
cp "$fake/configs/quick.preset" "$fake/configs/default.preset"
# run-all takes the machine's facts from rmap-probes --json's system
cat >"$fake/build/test/bin/rmap-probes" <<'EOF'
#!/bin/bash
[ "${1:-}" = --json ] &&
	echo "{\"rmap-tp\": false, \"system\": {\"release\": \"$(uname -r)\", \"cpus\": 2, \"mem_kb\": 1048576}}" ||
	echo "rmap-tp no"
EOF
# A reproducer: FAKE_<name>="exit code" (default 0), FAKE_SLOW=seconds
# before it ends, FAKE_MARK=a file it writes once its "restore" is done
# (2 s after a signal).
cat >"$fake/build/test/bin/fa" <<'EOF'
#!/bin/bash
name=$(basename "$0")
base=$name
out=.
args="$*"
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--label) name=$2; shift 2 ;;
	--bad) echo "$name: unknown option '--bad'" >&2
	       echo "Try '$name --help'." >&2
	       exit 2 ;;
	--parse-only) parse_only=1; shift ;;
	# valid to --parse-only, refused once running
	--late-bad) [ -n "$parse_only" ] && { shift; continue; }
		    echo "$name: cannot run with '--late-bad'" >&2
		    exit 2 ;;
	*) shift ;;
	esac
done
[ -n "$parse_only" ] && exit 0
sleeper=""
restore() {
	[ -n "$sleeper" ] && kill $sleeper
	sleep 2
	echo "$base: restored /fake/knob: 1 -> 0" >&2
	[ -n "${FAKE_MARK:-}" ] && echo "$name restored" >"$FAKE_MARK"
	exit "$1"
}
trap 'restore 130' INT
trap 'restore 143' TERM
trap 'restore 129' HUP
[ -n "${FAKE_ARGS:-}" ] && echo "$args" >"$FAKE_ARGS.$name"
var=FAKE_$base
rc=${!var:-0}
case $rc in 0) v=not-reproduced; k=ok ;; 1) v=reproduced; k="not ok" ;;
	    3) v=inconclusive; k="ok" ;;
	    4) v=skip; k=ok ;; *) v=error; k="not ok" ;; esac
echo "$name: progress" >&2
[ -n "${FAKE_SLOW:-}" ] && { sleep "$FAKE_SLOW" & sleeper=$!; wait $!; }
echo "$name: $v" >"$out/$name.txt"
printf '{"schema": "rmap-repro-result/1", "reproducer": "%s", "verdict": "%s", "reason": "why", "runs": 3, "runs_agreeing": 2, "cases": [{"role": "subject", "probe": "rmap-tp", "latency_ms": {"max": 705.12}}, {"role": "control", "latency_ms": {"max": 0.42}}, {"role": "control", "latency_ms": {"max": 1.5}}]}\n' \
	"$name" "$v" >"$out/$name.json"
printf 'KTAP version 1\n1..1\n    # %s: max 1.000 ms\n%s 1 %s\n' "$name" \
	"$k" "$name" >"$out/$name.ktap"
# its restore's lines, one per change undone
echo "$base: restored /fake/knob: 1 -> 0" >&2
echo "$base: removed /fake/cgroup" >&2
exit "$rc"
EOF
chmod +x "$fake/build/test/bin/rmap-probes" "$fake/build/test/bin/fa"
cp "$fake/build/test/bin/fa" "$fake/build/test/bin/fb"
# The state directory is a test hook's: the test build's run-all.
ra=$fake/ra
printf '#!/bin/bash\nexec "%s/scripts/run-all" --test-build "$@"\n' "$fake" \
	>"$ra"
chmod +x "$ra"

# --- a variant section: the reproducer once more, under its label ------
printf -- '--runs 1\n[fa]\n--pages 10\n[fa@big]\n--pages 99\n' \
	>"$work/variant.preset"
FAKE_ARGS=$work/args "$ra" --preset "$work/variant.preset" --only fa \
	--out "$work/var" >"$work/var.out" 2>"$work/var.err"
rc=$?
assert "a variant: run-all runs fa, then fa@big (exit $rc)" \
	bash -c "grep -qx '1..2' '$work/var/results.ktap' &&
		 grep -qx 'ok 1 fa' '$work/var/results.ktap' &&
		 grep -qx 'ok 2 fa@big' '$work/var/results.ktap'"
assert "a variant gets NAME's lines, then its own, and its label" \
	grep -qx -- "--runs 1 --pages 10 --pages 99 --label fa@big --out $work/var/parts" \
	"$work/args.fa@big"
assert "the plain run gets no variant lines" \
	grep -qx -- "--runs 1 --pages 10 --out $work/var/parts" "$work/args.fa"
assert_jq "results.json holds both" "$work/var/results.json" \
	'[.results[].reproducer] == ["fa", "fa@big"]'
"$ra" --preset "$work/variant.preset" --only fa@big --out "$work/var1" \
	>/dev/null 2>&1
assert_jq "--only NAME@VARIANT runs that variant alone" \
	"$work/var1/results.json" '[.results[].reproducer] == ["fa@big"]'
"$ra" --preset "$work/variant.preset" --only fa@small >/dev/null \
	2>"$work/var2.err"
rc=$?
assert "--only of a variant the preset lacks: exit 2, naming it" \
	bash -c "[ $rc = 2 ] && grep -q 'no variant \[fa@small\]' '$work/var2.err'"
printf -- '[fa@b/d]\n--runs 1\n' >"$work/badvar.preset"
"$ra" --preset "$work/badvar.preset" >"$work/badvar.out" 2>&1
rc=$?
assert "a broken variant name is refused with its file and line (exit 2)" \
	bash -c "[ $rc = 2 ] && grep -q '$work/badvar.preset:1: broken' '$work/badvar.out'"

# --- results from two reproducers -------------------------------------
FAKE_fa=1 FAKE_fb=0 "$ra" --preset quick --out "$work/two" \
	>"$work/two.out" 2>"$work/two.err"
rc=$?
assert "one reproduced, one not: run-all exits 1" [ $rc = "$(exit_of reproduced)" ]
assert "results.ktap: a plan for two, each renumbered" \
	bash -c "grep -qx '1..2' '$work/two/results.ktap' &&
		 grep -qx 'not ok 1 fa' '$work/two/results.ktap' &&
		 grep -qx 'ok 2 fb' '$work/two/results.ktap' &&
		 [ \$(grep -c '^KTAP version 1' '$work/two/results.ktap') = 1 ]"
assert "results.ktap: the reproducers' diagnostics are kept" \
	grep -qx "    # fb: max 1.000 ms" "$work/two/results.ktap"
assert_jq "results.json: both results, in order" "$work/two/results.json" \
	'[.results[].reproducer] == ["fa", "fb"] and .preset == "quick"'
assert "the preset's section applies to its reproducer only" \
	grep -q "^run-all: fa --runs 1 --pages 10 *\[1/2\]$" "$work/two.err"
# the summary a thread gets: the kernel, then a line per reproducer
sum=$(sed -n '1,/^-----/p' "$work/two/report.txt")
assert "report.txt opens with a summary of at most 60 lines" \
	[ "$(printf '%s\n' "$sum" | wc -l)" -le 60 ]
assert "the summary: the kernel, then each reproducer's verdict, figures, probe and runs agreeing" \
	bash -c "printf '%s\n' \"\$1\" | grep -q '^Kernel   $(uname -r) ' &&
		 printf '%s\n' \"\$1\" | grep -Eq '^fa +reproduced +705/1.50 +rmap-tp +2/3\$' &&
		 printf '%s\n' \"\$1\" | grep -Eq '^fb +not-reproduced +705/1.50 +rmap-tp +2/3\$'" \
	_ "$sum"
assert "the summary fits 72 columns" \
	bash -c "! printf '%s\n' \"\$1\" | awk 'length > 72' | grep -q ." _ "$sum"
# the terminal: the undo lines counted, one line each reproducer, and in
# the report; stdout ends on the summary and the files' paths
assert "the terminal gets one line for what each restore undid, not each undo" \
	bash -c "grep -qx 'fa: reproduced in [0-9]* s; undid 2 changes (listed in report.txt)' '$work/two.err' &&
		 ! grep -q 'restored /fake/knob' '$work/two.err'"
assert "report.txt lists each reproducer's undone changes" \
	bash -c "grep -qx 'Undone   restored /fake/knob: 1 -> 0' '$work/two/report.txt' &&
		 grep -qx '         removed /fake/cgroup' '$work/two/report.txt'"
assert "stdout: the summary, then the paths and how to compare, nothing more" \
	bash -c "grep -Eq '^fa +reproduced ' '$work/two.out' &&
		 ! grep -q '^-----' '$work/two.out' &&
		 tail -4 '$work/two.out' | head -1 | grep -qx 'Report:  $work/two/report.txt (every figure, how it was measured, the undone changes)' &&
		 tail -1 '$work/two.out' | grep -q '^Compare: scripts/compare $work/two OTHER-RUN' &&
		 [ \$(wc -l <'$work/two.out') -le 60 ]"
FAKE_fa=1 FAKE_fb=0 "$ra" --preset quick --verbose --out "$work/verbose" \
	>"$work/verbose.out" 2>"$work/verbose.err"
# not a terminal: plain lines, each phase once, no carriage return
assert "plain mode: each progress line once, no carriage return" \
	bash -c "[ \$(grep -c '^fa: progress\$' '$work/two.err') = 1 ] &&
		 ! grep -q \$'\\r' '$work/two.err'"
# a terminal (script(1) gives one): the status line rewritten in place,
# one line per reproducer when it ends, the same ending on stdout
if command -v script >/dev/null; then
	FAKE_fa=1 FAKE_fb=0 TERM=xterm script -qec \
		"'$ra' --preset quick --out '$work/tty'" /dev/null \
		>"$work/tty.screen" 2>&1
	assert "on a terminal: a status line rewritten (\\r), a line per reproducer, the paths at the end" \
		bash -c "grep -q \$'\\r' '$work/tty.screen' &&
			 tr '\\r' '\\n' <'$work/tty.screen' | grep -q 'fb: not-reproduced in [0-9]* s' &&
			 grep -q '^Results: $work/tty/results.json' '$work/tty.screen'"
fi
assert "--verbose: every undo line on the terminal, the whole report on stdout" \
	bash -c "grep -qx 'fa: restored /fake/knob: 1 -> 0' '$work/verbose.err' &&
		 grep -qx 'fb: reproduced\|fb: not-reproduced' '$work/verbose.out' &&
		 grep -q '^-----' '$work/verbose.out'"
FAKE_fa=3 FAKE_fb=0 "$ra" --preset quick --out "$work/unsure" >/dev/null 2>&1
assert "one inconclusive, one not reproduced: exit 3" [ $? = 3 ]
FAKE_fa=3 FAKE_fb=0 "$ra" --preset quick --bisect --out "$work/unsure2" \
	>/dev/null 2>&1
assert "--bisect: an inconclusive reproducer cannot judge the kernel: 125" \
	[ $? = 125 ]
FAKE_fa=1 FAKE_fb=3 "$ra" --preset quick --out "$work/unsure3" >/dev/null 2>&1
assert "a reproduced one outranks an inconclusive one: exit 1" [ $? = 1 ]
FAKE_fa=2 FAKE_fb=4 "$ra" --preset quick --out "$work/err" >/dev/null 2>&1
assert "an error outranks a skip: exit 2" [ $? = 2 ]
FAKE_fa=4 FAKE_fb=4 "$ra" --preset quick --out "$work/skip" >/dev/null 2>&1
assert "all skipped: exit 4" [ $? = 4 ]

# --- a preset that names its reproducers ([run-all] --only) ----------
printf -- '--runs 1\n[run-all]\n--only fb\n[fb]\n--pages 5\n' >"$work/only.preset"
"$ra" --preset "$work/only.preset" --out "$work/only" >/dev/null 2>&1
assert_jq "[run-all] --only: the preset runs only the reproducers it names" \
	"$work/only/results.json" '[.results[].reproducer] == ["fb"]'
"$ra" --preset "$work/only.preset" --only fa --out "$work/only2" \
	>/dev/null 2>&1
assert_jq "[run-all] --only: the command line's --only wins" \
	"$work/only2/results.json" '[.results[].reproducer] == ["fa"]'
printf -- '[run-all]\n--runs 3\n' >"$work/badra.preset"
"$ra" --preset "$work/badra.preset" >"$work/badra.out" 2>&1
rc=$?
assert "[run-all] takes only --only: anything else is refused (exit 2)" \
	bash -c "[ $rc = 2 ] && grep -q 'badra.preset:2: \[run-all\] takes only --only' '$work/badra.out'"

# --- --bisect: git bisect run's codes for the whole run ----------------
bisect() {	# FA FB WANT DESC [RUN-ALL ARGS]
	local fa=$1 fb=$2 want=$3 desc=$4

	shift 4
	FAKE_ARGS=$work/bargs FAKE_fa=$fa FAKE_fb=$fb "$ra" --preset quick \
		--out "$work/bisect-$fa$fb" "$@" >/dev/null 2>&1
	rc=$?
	assert "--bisect: $desc: exit $want (got $rc)" [ $rc = "$want" ]
}
bisect 1 2 1 "reproduced beside an error is bad" --bisect
bisect 0 4 0 "not reproduced beside a skip is good" --bisect
bisect 2 4 125 "an error and a skip: skipped" --bisect
bisect 4 4 125 "all skipped: skipped" --bisect
bisect 0 0 0 "taken after -- too, not passed on" -- --bisect
assert "--bisect after -- is not passed to the reproducers" \
	bash -c "! grep -q -- --bisect '$work/bargs.fa'"
"$ra" --bisect --no-such-option >/dev/null 2>&1
assert "--bisect: a usage error exits 128 (aborts git bisect run)" \
	[ $? = 128 ]

# git bisect run itself, over a history whose commits say what the fake
# reproducer finds: good x3, error (125: skipped), good, bad, bad. The
# first commit tested is the error, in the middle.
repo=$work/history
if ! command -v git >/dev/null; then
	ok "git bisect run through run-all --bisect # SKIP no git here"
else
rm -rf "$repo"
git init -q "$repo"
i=0
for state in good good good error good bad bad; do
	i=$((i + 1))
	echo "$state $i" >"$repo/state"
	git -C "$repo" add state
	git -C "$repo" -c user.name=t -c user.email=t@t commit -qm "c$i $state"
done
{
	echo '#!/bin/bash'
	echo 'case $(cut -d" " -f1 state) in good) c=0 ;; bad) c=1 ;; *) c=2 ;; esac'
	echo "FAKE_fa=\$c FAKE_fb=0 exec '$ra' --preset quick --bisect \\"
	echo "	--out '$work/step-'\$(git rev-parse --short HEAD)"
} >"$work/bisect-step"
chmod +x "$work/bisect-step"
first=$(git -C "$repo" rev-list --reverse HEAD | sed -n 1p)
bad6=$(git -C "$repo" rev-list --reverse HEAD | sed -n 6p)
(cd "$repo" && git bisect start HEAD "$first" &&
	git bisect run "$work/bisect-step" && git bisect log) \
	>"$work/bisect.out" 2>&1
assert "git bisect run with run-all --bisect finds the first bad commit (c6)" \
	grep -q "^$bad6 is the first bad commit" "$work/bisect.out"
assert "and skipped the commit whose run was an error (125)" \
	grep -q "^git bisect skip " "$work/bisect.out"
fi

# --- a reproducer that fails once running, without a report -----------
printf -- '--runs 1\n[fb]\n--late-bad\n' >"$work/bad-opt.preset"
"$ra" --preset "$work/bad-opt.preset" --out "$work/badopt" >/dev/null \
	2>&1
rc=$?
assert "a reproducer's error without a report: run-all exits 2" [ $rc = 2 ]
assert "the report quotes its reason (from its stderr)" \
	bash -c "grep -q \"fb: no report; it said (parts/fb.stderr):\" '$work/badopt/report.txt' &&
		 grep -q \"cannot run with '--late-bad'\" '$work/badopt/report.txt'"
assert "its stderr is kept in parts/fb.stderr" \
	grep -q "cannot run with '--late-bad'" "$work/badopt/parts/fb.stderr"
assert "results.ktap: not ok for it, with no result" \
	grep -qx "not ok 2 fb" "$work/badopt/results.ktap"

# --- bad arguments and presets: exit 2, a reason, nothing written -----
bad() {
	local desc=$1 want=$2

	shift 2
	rm -rf "$fake/out"
	"$ra" "$@" >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want" "$work/bad.err" &&
	   [ ! -e "$fake/out" ] && [ ! -s "$work/bad.out" ]; then
		ok "run-all $desc: exit 2, nothing run"
	else
		not_ok "run-all $desc: exit 2, nothing run" "rc=$rc" \
			"$(head -c 300 "$work/bad.err" | tr '\n' ' ')"
	fi
}
bad '--only ""' "--only needs a value" --only ""
bad "--only ," "--only needs a value" --only ,
bad "--only nope" "--only: no reproducer 'nope' (there are: fa fb" --only nope
bad "--preset (no value)" "--preset needs a value" --preset
bad '--out ""' "--out needs a value" --out ""
bad "--out= (empty)" "--out needs a value" --out=
bad "--bogus" "unknown argument '--bogus'" --bogus
bad "--preset missing" "no preset file" --preset nosuch
printf -- '--runs 1\nruns 3\n' >"$work/p1.preset"
bad "a preset line that is not an option" \
	"$work/p1.preset:2: not an option line (--name [value]): runs 3" \
	--preset "$work/p1.preset"
printf -- '# comment\n--runs 1\n\n[zz]\n--pages 3\n' >"$work/p2.preset"
bad "a preset section of no reproducer" \
	"$work/p2.preset:4: unknown reproducer [zz]" --preset "$work/p2.preset"
printf -- '--runs 1\n[fa\n--pages 3\n' >"$work/p3.preset"
bad "a broken section header" \
	"$work/p3.preset:2: broken section header: [fa" \
	--preset "$work/p3.preset"
# an option value one reproducer refuses: refused before any runs
# (fa would run first, and FAKE_ARGS would record it)
printf -- '--runs 1\n[fb]\n--bad\n' >"$work/p4.preset"
rm -f "$work/args".*
FAKE_ARGS=$work/args bad "an option a reproducer refuses (its --parse-only)" \
	"[fb] in $work/p4.preset: fb: unknown option '--bad'; nothing was run" \
	--preset "$work/p4.preset" --only fa,fb
assert "no reproducer ran before the refusal" \
	bash -c "! ls '$work'/args.* 2>/dev/null"

# --- one run-all at a time; a new directory for each -----------------
FAKE_SLOW=3 "$ra" --preset quick --out "$work/first" >/dev/null \
	2>"$work/first.err" &
first=$!
wait_for "$work/first.err" "fa: progress" 10
t0=${EPOCHREALTIME/./}
"$ra" --preset quick --out "$work/second" >/dev/null 2>"$work/second.err"
rc=$?
t1=${EPOCHREALTIME/./}
wait $first
assert "a second run-all is refused with exit 2" [ $rc = 2 ]
assert "at once (under 2 s), naming the holder" \
	bash -c "[ $(((t1 - t0) / 1000)) -lt 2000 ] &&
		 grep -q 'another rmap-repro run holds .*: pid $first (run-all)' '$work/second.err'"
rm -rf "$fake/out"
"$ra" --preset quick >/dev/null 2>&1
"$ra" --preset quick >/dev/null 2>&1
assert "two runs in the same second write two directories" \
	[ "$(ls -d "$fake"/out/run-* 2>/dev/null | wc -l)" = 2 ]

# --- signals to run-all's process group -------------------------------
for sig in TERM HUP INT; do
	code=$((128 + $(kill -l $sig)))
	rm -f "$work/mark"
	FAKE_SLOW=30 FAKE_MARK=$work/mark "$ra" --preset quick \
		--out "$work/sig-$sig" >/dev/null 2>"$work/sig-$sig.err" &
	pid=$!	# a job of its own: its pid is its process group
	wait_for "$work/sig-$sig.err" "fa: progress" 10
	kill -$sig -- -$pid
	wait $pid
	rc=$?
	assert "SIG$sig to run-all's group: it returned after its reproducer had restored" \
		grep -qx "fa restored" "$work/mark"
	assert "SIG$sig: exit $code" [ $rc = $code ]
	assert "SIG$sig: the report says what did not run" \
		grep -q "fb  *not run (interrupted by SIG$sig)" \
		"$work/sig-$sig/report.txt"
done
finish
