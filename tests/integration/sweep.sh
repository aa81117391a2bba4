#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/sweep on this machine's kernel, three sizes of ksm-mprotect-
# split: the points are the runs' own figures, the slope is the least-
# squares fit of those points (recomputed here), the text fits 72 columns
# and says which probe measured and what it bounds, and the pictures are
# real PNG and SVG files; scripts/plot draws the runs' histograms. No
# slope is asserted there: that is the kernel's to say (the VM sweep in
# docs/compare.md). The fit on synthetic points: tests/noroot/sweep-fit.sh.
# The machine is left as found.
. "$(dirname "$0")/../lib/integration.sh"

sw=$top/scripts/sweep
# well-formed XML (xmllint where it is) with an <svg> root
valid_svg() {
	grep -q '<svg' "$1" || return 1
	! command -v xmllint >/dev/null || xmllint --noout "$1"
}
export -f valid_svg
out=$work/s
before=$(snapshot)
"$sw" --only ksm-mprotect-split --param pages=1000,2000,4000 --out "$out" \
	>"$work/s.out" 2>"$work/s.err"
assert "sweep exits 0" [ $? = 0 ]
j=$out/sweep.json
r=$out/run/results.json
assert_jq "three points per case, in order" "$j" \
	'.values == [1000, 2000, 4000] and (.cases | length == 3 and all(.points | length == 3))'
# each point is its run's own figure: the run labelled for that value
assert "every point's max is its run's KSM, anon and file max" \
	jq -n -e --slurpfile s "$j" --slurpfile r "$r" '
		[$r[0].results[] | [.cases[].latency_ms.max]] as $runs
		| [$s[0].cases[] | [.points[].max_ms]] | transpose == $runs'
# the slope: least squares of log(max) on log(value), recomputed here in
# the closed form (the script centres its sums first)
for c in 0 1 2; do
	want=$(jq -r "[.cases[$c].points[] | select(.max_ms > 0)
		| [(.value | log), (.max_ms | log)]] as \$l | (\$l | length) as \$n
		| ([\$l[][0]] | add) as \$sx | ([\$l[][1]] | add) as \$sy
		| ([\$l[] | .[0] * .[0]] | add) as \$sxx
		| ([\$l[] | .[0] * .[1]] | add) as \$sxy
		| (\$n * \$sxy - \$sx * \$sy) / (\$n * \$sxx - \$sx * \$sx)" "$j")
	assert_jq "case $c: the slope of max is the fit of its points ($want)" \
		"$j" "(.cases[$c].slope.max - $want | fabs) < 1e-6 and (.cases[$c].growth.max | length > 0)"
done
assert "sweep.txt: the table, the fit in words, and the plot" \
	bash -c "grep -q '^Least-squares fit of log(latency) on log(--pages):' '$out/sweep.txt' &&
		 grep -Eq '^  ksm: max slope -?[0-9.]+, (flat|grows)' '$out/sweep.txt' &&
		 grep -q '^max ms, log scale' '$out/sweep.txt'"
probe=$(jq -r '.probe[0]' "$j")
assert "sweep.txt names the probe ($probe) and what one interval bounds" \
	bash -c "tr '\n' ' ' <'$out/sweep.txt' | tr -s ' ' | grep -q 'Probe: $probe. One interval: .* It bounds: '"
assert "sweep.txt: no line wider than 72 columns" \
	bash -c "! awk 'length > 72' '$out/sweep.txt' | grep -q ."
# the pictures: make check installs gnuplot (scripts/install-deps --plot),
# and this test runs on the host only (vmcheck.sh leaves it out)
assert "gnuplot is installed (make check's scripts/install-deps --plot)" \
	command -v gnuplot
assert "sweep.png is a PNG, sweep.svg an SVG" \
	bash -c "head -c 8 '$out/sweep.png' | od -An -c | grep -q 'P   N   G' &&
		 valid_svg '$out/sweep.svg'"
"$top/scripts/plot" --out "$work/p" "$r" 2>"$work/p.err"
assert "plot: a PNG and an SVG per point of the sweep, and the overview" \
	bash -c "[ \$(ls '$work/p'/*.png | wc -l) = 4 ] &&
		 [ \$(ls '$work/p'/*.svg | wc -l) = 4 ] &&
		 valid_svg '$work/p/ksm-mprotect-split.svg' &&
		 valid_svg '$work/p/overview.svg'"

"$sw" --only ksm-mprotect-split --param pages --out "$work/u1" >/dev/null 2>&1
assert "usage: --param without values exits 2" [ $? = 2 ]
"$sw" --only ksm-mprotect-split --param bogus=1,2 --out "$work/u2" \
	>/dev/null 2>"$work/u2.err"
assert "usage: an option the reproducer lacks exits 2, naming it" \
	bash -c "[ $? = 2 ] && grep -q 'has no option --bogus' '$work/u2.err'"
assert_same "the machine is as before" "$before" "$(snapshot)"
finish
