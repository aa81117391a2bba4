#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The jq of scripts/sweep, scripts/compare and scripts/plot, as the named
# functions of scripts/lib/sweep.jq, compare.jq and plot.jq, on known
# points and on the samples in docs/ (made by scripts/samples from real
# runs): the fit's slope, the sweep's table and ASCII plot, gnuplot's
# rows, rmap-stat's input, the comparison drawn as text and Markdown,
# and the pictures' data. Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

lib=$top/scripts/lib
sw=$top/docs/sample-sweep/sweep.json
a=$top/docs/sample-vm-results.json
b=$top/docs/sample-vm-fixed-results.json
jqs() {
	jq -L "$lib" "$@"
}

# the fit: rmap-stat --fit (lib/stats.c) on the lines fit_lines makes,
# put back by with_slopes (a case's max and p50, "-" for no slope)
stat=$top/build/bin/rmap-stat
fits=$(printf '%s\n' 'line 3 1 2 10 20 100 200' 'flat 3 1 3 10 3 1000 3' \
	'one 1 5 5' 'one-x 2 5 1 5 2' 'gap 3 1 1 10 nan 100 1000' |
	"$stat" --fit | tr '\n' '/')
assert "rmap-stat --fit: slope 1 for a line, 0 for a constant, none for one point or one x, a missing figure left out ($fits)" \
	[ "$fits" = "line 1 3/flat 0 3/one - 1/one-x - 2/gap 1.5 2/" ]
got=$(jqs -rn 'include "sweep"; [null, 0.1, 0.5, 1, 2] | map(words) | join("/")')
assert "words: the slope in words" \
	[ "$got" = "too few points to fit/flat/grows sublinearly/grows linearly/grows faster than linearly" ]

# on the sample sweep: the recorded slopes are rmap-stat's fit of its
# points, and their words
jqs -r 'include "sweep"; fit_lines' "$sw" | "$stat" --fit >"$work/fits"
jqs --rawfile fits "$work/fits" 'include "sweep";
	del(.cases[].slope, .cases[].growth) | with_slopes($fits)' "$sw" \
	>"$work/refit.json"
assert_jq "sweep sample: each case's recorded slopes are rmap-stat --fit of its points, and its words" \
	<(jq -s . "$sw" "$work/refit.json") '.[0].cases as $a | .[1].cases as $b
	| all(range($a | length); ($a[.].slope.max - $b[.].slope.max | fabs) < 1e-9
	      and ($a[.].slope.p50 - $b[.].slope.p50 | fabs) < 1e-9
	      and $a[.].growth == $b[.].growth)'
jqs -r 'include "sweep"; sweep_table, ascii_plot' "$sw" >"$work/sweep.txt"
assert "sweep sample: sweep_table and ascii_plot give docs/sample-sweep/sweep.txt" \
	diff "$work/sweep.txt" <(grep -v '^(no sweep.png' "$top/docs/sample-sweep/sweep.txt")
assert "sweep sample: no line of the text wider than 72 columns" \
	bash -c "! awk 'length > 72' '$work/sweep.txt' | grep -q ."
jqs -r 'include "sweep"; gnuplot_rows' "$sw" >"$work/sweep.dat"
cols=$(awk '{ print NF }' "$work/sweep.dat" | sort -u)
want=$(jq -r '"\(.values | length) \(.cases | length + 1)"' "$sw")
assert "sweep sample: gnuplot_rows gives a row per value ($(wc -l <"$work/sweep.dat")), the value and each case's max ($cols columns)" \
	[ "$(wc -l <"$work/sweep.dat") $cols" = "$want" ]

# compare: rmap-stat's input, one line per case with samples in both
lines=$(jqs -rn 'include "compare"; stat_lines' "$a" "$b" | wc -l)
want=$(jq -n --slurpfile a "$a" --slurpfile b "$b" '[$a[0].results[] as $r
	| $r.cases[] as $c | $b[0].results[] | select(.reproducer == $r.reproducer)
	| .cases[] | select(.name == $c.name and (.samples_ms.kept // 0) > 0
			    and ($c.samples_ms.kept // 0) > 0
			    and .samples_ms.of == $c.samples_ms.of)] | length')
assert "compare samples: stat_lines gives a line per case with samples in both runs ($lines of $want)" \
	[ "$lines" = "$want" -a "$lines" -gt 0 ]
tests=$(jqs -rn 'include "compare"; stat_lines' "$a" "$b" |
	"$top/build/bin/rmap-stat" | jqs -Rn 'include "compare"; stat_results')
assert "compare samples: stat_results reads rmap-stat's answer for each line" \
	[ "$(echo "$tests" | jq length)" = "$lines" ]
# the sample was made from these two files under /work/main/docs: the
# Runs compared block names them; the rest must be the same
(cd "$top/docs" && jqs -n --argjson tests "$tests" --argjson noise 50 \
	'include "compare"; comparison($tests; $noise)' \
	sample-vm-results.json sample-vm-fixed-results.json) >"$work/c.json"
jqs -r --arg fmt text 'include "compare"; draw($fmt)' "$work/c.json" \
	>"$work/c.txt"
strip_runs() {
	awk '/^Runs compared/ { skip = 1; next } skip && /^$/ { skip = 0 }
	     !skip' "$1"
}
assert "compare samples: comparison and draw(text) give docs/sample-compare.txt (but the files' paths)" \
	diff <(strip_runs "$work/c.txt") <(strip_runs "$top/docs/sample-compare.txt")
jqs -r --arg fmt markdown 'include "compare"; draw($fmt)' "$work/c.json" \
	>"$work/c.md"
tables=$(grep -c '^| case | figure | A | B | ratio |$' "$work/c.md")
assert "compare samples: draw(markdown) gives a table per reproducer ($tables)" \
	[ "$tables" = "$(jq '.reproducers | length' "$work/c.json")" ]
# run-all's summary: a benchmark given no bound says "measured" and the
# runs it made, never a verdict; the others their verdict and runs agreeing
jqs -r 'include "summary"; .results[] | summary_row(.reproducer)' \
	"$top/docs/sample-results.json" >"$work/summary"
assert "summary: ksm-scan-cost (no bound) is measured, in 3 runs; the others keep their verdicts" \
	bash -c "grep -Eq '^ksm-scan-cost +measured +[0-9.]+/[0-9.]+ +ksm-scan +3\$' '$work/summary' &&
		 grep -Eq '^ksm-mprotect-split +reproduced +.* [0-9]+/[0-9]+\$' '$work/summary' &&
		 ! grep -q 'not-reproduced.*-/' '$work/summary'"

# plot.jq, what scripts/plot draws: ksm-fork's strip on the unfixed VM
# sample is 3 cases' points (54, 1000, 1000: its kept samples), their
# log2 buckets and the rows' names; the fixed run's same rows
jqs -n -r --arg n ksm-fork 'include "plot"; [inputs] as $runs
	| $runs[0] | result_of($n) | strip_data(case_names($runs; $n))' \
	"$a" "$b" >"$work/strip.dat"
got=$(awk 'BEGIN { b = 0 } /^$/ { e++; next }
	   { if (e >= 2) b++; e = 0; c[b]++ }
	   END { for (i = 0; i <= b; i++) printf "%d ", c[i] }' "$work/strip.dat")
want="$(jq -r '.results[] | select(.reproducer == "ksm-fork") | [.cases[]
	| .samples_ms.values | length] + [.cases[] | .latency_ms.log2_histogram
	| length] + [3] | map(tostring) | join(" ")' "$a") "
assert "strip_data: a block of points per case, one of buckets per case, the names ($got)" \
	[ "$got" = "$want" ]
assert "strip_data: the rows' names, subject on top, each point near its row, spread apart" \
	bash -c "tail -3 '$work/strip.dat' | tr '\n' / | grep -qx '2 ksm/1 anon/0 file/' &&
		 awk 'NF == 2 && \$2 ~ /^-?[0-9.]+\$/ && \$1 ~ /^[0-9]/ {
			d = \$2 - int(\$2 + 0.5); if (d > 0.18 || d < -0.18) bad++
			if (!(\$2 in seen)) { seen[\$2] = 1; ys++ } }
			END { exit bad > 0 || ys < 100 }' '$work/strip.dat'"
got=$(jqs -r 'include "plot"; .results[] | select(.reproducer == "ksm-fork")
	| [column_title("A"), threshold, axis_label] | join("/")' "$a")
assert "column_title, threshold, axis_label of the unfixed ksm-fork ($got)" \
	[ "$got" = "A: 6.12.117, reproduced/10/rmap-tp: one walk each, ms (log scale)" ]
got=$(jqs -r 'include "plot"; .results[] | select(.reproducer == "ksm-scan-cost")
	| [said, (threshold | length), axis_label] | join("/")' \
	"$top/docs/sample-results.json")
assert "a benchmark: measured, no threshold, its bracket a bound ($got)" \
	[ "$got" = "measured (a benchmark: nothing judged)/0/ksm-scan intervals, ms (log scale): a bound, not one walk" ]
got=$(jqs -r --argjson n '["ksm-fork", "nothere"]' \
	'include "plot"; overview_data($n)' "$b" | grep . | tr '\n' /)
want="$(jq -r '.results[] | select(.reproducer == "ksm-fork") | .cases as $c
	| "\($c[0].latency_ms.max) 1/\($c[1].latency_ms.max) 1/\($c[2].latency_ms.max) 1/10 1/1 ksm-fork/0 nothere/0 not-run/"' "$b")"
assert "overview_data: subject, controls, threshold, names, a row not run ($got)" \
	[ "$got" = "$want" ]
got=$(jqs -r 'include "plot"; run_title' "$b")
assert "run_title: the kernel and the judged that reproduced ($got)" \
	[ "$got" = "6.12.117, 2 of 5 reproduced" ]
finish
