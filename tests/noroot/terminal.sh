#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a person sees of a run, on a recorded one: run-all in a copy of
# the tree whose reproducers replay this machine's quick run
# (tests/data/run-all/host-b3bfdee-quick, 13 reproducers, one of them a
# benchmark) with progress and undo lines. Through a pipe: each phase
# once, a line per reproducer in order, then stdout holds the summary
# and the four paths, line by line, nothing more. On a terminal
# (script(1)): the status line rewritten in place, the same ending, at
# most 60 lines. And the pictures: a valid PNG and SVG per reproducer
# that measured and an overview, with the cases, the threshold, the
# kernel and the verdicts in them; compare --plots puts two runs side by
# side; a kernel release with gnuplot's syntax in it stays text. Needs no
# root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

rec=$top/tests/data/run-all/host-b3bfdee-quick/results.json
fake=$work/tree
# a run's estimate comes from the runs beside it: none from a past test
rm -rf "$work/p" "$work/t" "$work/u" "$fake" "$work/cmp" "$work/hostile" \
	"$work/badname" "$work/pwned" "$work/skips"
export RMAP_REPRO_STATE_DIR=$work/state
mkdir -p "$fake/scripts" "$fake/reproducers" "$fake/configs" \
	 "$fake/build/test/bin" "$RMAP_REPRO_STATE_DIR"
# the scripts' gate for what they read and where they write (trust.sh)
mkdir -p "$fake/build/bin"
cp "$top/build/bin/rmap-trust" "$fake/build/bin/"
cp -r "$top/scripts/run-all" "$top/scripts/plot" "$top/scripts/lib" \
	"$fake/scripts/"
before=$(snapshot)

mapfile -t units < <(jq -r '.results[].reproducer' "$rec")
cat >"$fake/build/test/bin/rmap-probes" <<EOF
#!/bin/bash
[ "\${1:-}" = --json ] &&
	echo '{"rmap-tp": false, "system": {"release": "$(jq -r '.results[0].kernel.release' "$rec")", "cpus": 2, "mem_kb": 1048576}}' ||
	echo "rmap-tp no"
EOF
# A reproducer that replays its recorded result: three progress lines
# (the trigger's twice, as its ticker would), two undone changes.
cat >"$fake/build/test/bin/replay" <<EOF
#!/bin/bash
rec=$rec
EOF
cat >>"$fake/build/test/bin/replay" <<'EOF'
name=$(basename "$0")
base=$name
out=.
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--label) name=$2; shift 2 ;;
	--parse-only) exit 0 ;;
	*) shift ;;
	esac
done
r=$(jq -c --arg n "$name" '.results[] | select(.reproducer == $n)' "$rec")
v=$(jq -r .verdict <<<"$r")
echo "$name: run 1/1, case subject: build" >&2
echo "$name: run 1/1, case subject: trigger: still running (1 s)" >&2
echo "$name: run 1/1, case subject: trigger: still running (2 s)" >&2
echo "$base: restored /fake/knob: 1 -> 0" >&2
echo "$base: removed /fake/cgroup" >&2
printf '%s\n' "$r" >"$out/$name.json"
echo "$name: $v" >"$out/$name.txt"
case $v in reproduced) k="not ok"; rc=1 ;; skip) k=ok; rc=4 ;;
	   not-reproduced) k=ok; rc=0 ;; *) k="not ok"; rc=2 ;; esac
printf 'KTAP version 1\n1..1\n%s 1 %s\n' "$k" "$name" >"$out/$name.ktap"
exit $rc
EOF
chmod +x "$fake/build/test/bin/rmap-probes" "$fake/build/test/bin/replay"
{
	echo "--runs 1"
	for u in "${units[@]}"; do
		b=${u%@*}
		touch "$fake/reproducers/$b.c"
		[ -e "$fake/build/test/bin/$b" ] ||
			ln -s replay "$fake/build/test/bin/$b"
		echo "[$u]"
	done
} >"$fake/configs/quick.preset"
ra=$fake/ra
printf '#!/bin/bash\nexec "%s/scripts/run-all" --test-build "$@"\n' "$fake" \
	>"$ra"
chmod +x "$ra"

# what each reproducer's line must say: its verdict, or "measured"
said() {
	jq -r -L "$top/scripts/lib" --arg n "$1" 'include "summary";
		.results[] | select(.reproducer == $n)
		| if measured then "measured" else .verdict end' "$rec"
}

# --- through a pipe ----------------------------------------------------
"$ra" --preset quick --out "$work/p/pipe" >"$work/pipe.out" 2>"$work/pipe.err"
rc=$?
assert "a replayed run that reproduced: exit 1 ($rc)" [ $rc = 1 ]
{
	k=0
	for u in "${units[@]}"; do
		k=$((k + 1))
		echo "run-all: $u --runs 1 [$k/${#units[@]}]"
		echo "$u: run 1/1, case subject: build"
		echo "$u: run 1/1, case subject: trigger: still running (1 s)"
		# a benchmark says what it measured: its reason
		w=$(said "$u")
		[ "$w" = measured ] && w="$w in # s, $(jq -r --arg n "$u" \
			'.results[] | select(.reproducer == $n) | .reason' "$rec")" ||
			w="$w in # s"
		echo "$u: $w; undid 2 changes (listed in report.txt)"
	done
} >"$work/pipe.want"
sed 's/ in [0-9]* s\([;,]\)/ in # s\1/; s/ *\[/ [/' "$work/pipe.err" >"$work/pipe.got"
assert "plain stderr, line by line: the command (k of n), each phase once, a line per reproducer" \
	diff "$work/pipe.want" "$work/pipe.got"
assert "plain stderr: no carriage return, no undo line" \
	bash -c "! grep -q \$'\\r' '$work/pipe.err' &&
		 ! grep -q 'restored /fake/knob' '$work/pipe.err'"
d=$work/p/pipe
{
	sed -n '/^-----/q; p' "$d/report.txt"
	echo "Report:  $d/report.txt (every figure, how it was measured, the undone changes)"
	echo "Results: $d/results.json, $d/results.ktap"
	if command -v gnuplot >/dev/null; then
		echo "Plots:   $d/plots/overview.png ($(jq '[.results[] | select(.cases | length > 0)] | length' "$rec") more, NAME.png, each with .svg)"
	else
		echo "Plots:   none: gnuplot is missing (scripts/install-deps --plot)"
	fi
	echo "Compare: scripts/compare $d OTHER-RUN (a run of the same preset on another kernel; --plots DIR draws both)"
} >"$work/out.want"
assert "plain stdout, line by line: the summary, then the paths, nothing more" \
	diff "$work/out.want" "$work/pipe.out"
for u in "${units[@]}"; do
	row=$(grep -E "^$u +" "$work/pipe.out")
	[ "$(awk '{ print $2 }' <<<"$row")" = "$(said "$u")" ] || break
done
assert "each summary row says what its recorded result says (ksm-scan-cost: measured)" \
	bash -c "[ '$u' = '${units[-1]}' ] &&
		 grep -Eq '^ksm-scan-cost +measured +[0-9.]+/[0-9.]+ +ksm-scan +1\$' '$work/pipe.out'"
assert "the report's Restore block has the undone changes" \
	grep -qx 'Undone   restored /fake/knob: 1 -> 0' "$d/report.txt"

# --- on a terminal -------------------------------------------------------
if command -v script >/dev/null; then
	TERM=xterm COLUMNS=100 script -qec \
		"'$ra' --preset quick --out '$work/t/tty'" /dev/null \
		>"$work/tty.raw" 2>&1
	# the screen: each line as its last carriage return left it
	sed 's/\x1b\[K//g' "$work/tty.raw" | tr '\r' '\n' >"$work/tty.cr"
	awk '{ n = split($0, p, "\r"); print p[n] }' RS='\n' \
		<(sed 's/\x1b\[K//g; s/\r$//' "$work/tty.raw") >"$work/tty.screen"
	assert "terminal: a status per reproducer, k of n, rewritten in place" \
		bash -c "grep -q '^\[1/${#units[@]} [0-9]* s\] ${units[0]}: run 1/1' '$work/tty.cr' &&
			 grep -q '^\[${#units[@]}/${#units[@]} ' '$work/tty.cr'"
	assert "terminal: the screen keeps a line per reproducer and the same ending, at most 60 lines" \
		bash -c "[ \$(grep -c ': [a-z-]* in [0-9]* s\(, a benchmark.*\)\?; undid 2 changes' '$work/tty.screen') = ${#units[@]} ] &&
			 ! grep -q 'case subject' '$work/tty.screen' &&
			 tail -4 '$work/tty.screen' | sed 's|$work/t/tty|DIR|g' >'$work/tty.end' &&
			 tail -4 '$work/pipe.out' | sed 's|$work/p/pipe|DIR|g' | diff - '$work/tty.end' &&
			 [ \$(wc -l <'$work/tty.screen') -le 60 ]"
	# a second run estimates each reproducer's time from the first's
	TERM=xterm script -qec "'$ra' --preset quick --out '$work/t/tty2'" \
		/dev/null >"$work/tty2.raw" 2>&1
	assert "terminal: the next run of the preset gives an estimate (its times file)" \
		bash -c "grep -q '^${units[0]} [0-9]*\$' '$work/t/tty/times' &&
			 ! grep -q ' s of ~' '$work/tty.cr' &&
			 tr '\\r' '\\n' <'$work/tty2.raw' | grep -q '^.*\[1/${#units[@]} [0-9]* s of ~[0-9]* s\] '"
	# with no run beside it, the preset's own times file (data: a line
	# that is not NAME SECONDS is no estimate)
	printf '# run-all times: preset quick\n%s 42\n%s x\nsystem("id") 3\n' \
		"${units[0]}" "${units[1]}" >"$fake/configs/quick.times"
	TERM=xterm script -qec "'$ra' --preset quick --only ${units[0]},${units[1]} --out '$work/u/tty3'" \
		/dev/null >"$work/tty3.raw" 2>&1
	sed 's/\x1b\[K//g' "$work/tty3.raw" | tr '\r' '\n' >"$work/tty3.cr"
	assert "terminal: else the estimate of the preset's times file, its valid lines only" \
		bash -c "grep -q '^\[1/2 [0-9]* s of ~42 s\] ${units[0]}: ' '$work/tty3.cr' &&
			 grep -q '^\[2/2 [0-9]* s\] ${units[1]}: ' '$work/tty3.cr'"
	rm -f "$fake/configs/quick.times"
fi

# --- the pictures ----------------------------------------------------------
if command -v gnuplot >/dev/null; then
	p=$d/plots
	valid() {
		head -c 8 "$1.png" | od -An -c | grep -q 'P   N   G' &&
			grep -q '<svg' "$1.svg" &&
			{ ! command -v xmllint >/dev/null ||
			  xmllint --noout "$1.svg"; }
	}
	bad=""
	while read -r u; do
		valid "$p/$u" || bad+=" $u"
	done < <(jq -r '.results[] | select(.cases | length > 0) | .reproducer' "$rec")
	assert "a valid PNG and SVG for every reproducer that measured${bad:+ (not:$bad)}" \
		[ -z "$bad" ]
	assert "no picture of a reproducer that measured nothing (skipped)" \
		[ ! -e "$p/ksm-memory-failure.png" ]
	# gnuplot's SVG: a group per plotted series; ksm-fork's 3 cases are
	# 3 box series, 3 point series and the rows' names
	assert "ksm-fork's strip: its three cases' boxes and points, the threshold, probe, kernel and verdict" \
		bash -c "[ \$(grep -c 'id=\"gnuplot_plot_[0-9]*[ab]*\"' '$p/ksm-fork.svg') -ge 7 ] &&
			 for t in ksm anon file 'threshold 10 ms' 'probe memcg-reclaim' \
				  '$(jq -r '.results[0].kernel.release' "$rec"), reproduced' \
				  'a bound, not one walk'; do
				grep -q \">\$t<\" '$p/ksm-fork.svg' ||
				grep -q \"\$t\" '$p/ksm-fork.svg' || exit 1
			 done"
	assert "ksm-scan-cost's strip says measured and draws no threshold" \
		bash -c "grep -q 'measured (a benchmark: nothing judged)' '$p/ksm-scan-cost.svg' &&
			 ! grep -q 'threshold' '$p/ksm-scan-cost.svg'"
	assert "the overview names every reproducer and counts the verdicts" \
		bash -c "valid() { :; }; for u in ${units[*]}; do
				grep -q \">\$u<\" '$p/overview.svg' || exit 1
			 done
			 grep -q '4 of 9 reproduced, 3 skipped' '$p/overview.svg'"
	assert "the overview is a valid PNG and SVG" valid "$p/overview"

	# two runs side by side (compare --plots): a column each
	"$top/scripts/compare" --plots "$work/cmp" "$top/docs/sample-vm-results.json" \
		"$top/docs/sample-vm-fixed-results.json" >/dev/null 2>"$work/cmp.err"
	# half as wide, a column's title takes two lines: the run and kernel,
	# then what it said (640 pixels: one line would run into the next)
	assert "compare --plots: two columns, A and B, each title on two lines" \
		bash -c "grep -A3 '>A: 6.12.117<' '$work/cmp/ksm-fork.svg' | grep -q '>reproduced<' &&
			 grep -A3 '>B: 6.12.117<' '$work/cmp/ksm-fork.svg' | grep -q '>not-reproduced<' &&
			 grep -A3 '>A: 6.12.117<' '$work/cmp/overview.svg' | grep -q '>5 of 5 reproduced<'"

	# a received file's strings are data: gnuplot's syntax stays text
	jq '.results[0].kernel.release = "x\"; system(\"touch '"$work"'/pwned\"); \""' \
		"$rec" >"$work/hostile.json"
	"$top/scripts/plot" --out "$work/hostile" "$work/hostile.json" \
		>/dev/null 2>&1
	assert "a release with gnuplot syntax in it is drawn as text, never run" \
		bash -c "[ ! -e '$work/pwned' ] && grep -q 'system' '$work/hostile/overview.svg'"
	jq '.results[0].cases[0].name = "a b\"c"' "$rec" >"$work/badname.json"
	"$top/scripts/plot" --out "$work/badname" "$work/badname.json" \
		>/dev/null 2>"$work/badname.err"
	assert "a case name that is not the suite's refuses the file (exit 2)" \
		bash -c "[ $? = 2 ] && grep -q 'not a name of this suite' '$work/badname.err'"
	# a run where every reproducer skipped: nothing to draw, said as such
	jq '.results |= map(select(.cases | length == 0))' "$rec" \
		>"$work/skips.json"
	"$top/scripts/plot" --out "$work/skips" "$work/skips.json" \
		>/dev/null 2>"$work/skips.err"
	assert "a run that measured nothing: plot exits 4 and draws nothing" \
		bash -c "[ $? = 4 ] && grep -q 'nothing measured to draw' '$work/skips.err' &&
			 [ -z \"\$(ls '$work/skips' 2>/dev/null)\" ]"
fi
assert_same "nothing on the machine changed" "$before" "$(snapshot)"
finish
