# SPDX-License-Identifier: GPL-2.0
#
# scripts/plot's data: what gnuplot draws, as numbers and names in
# columns, never as program text (a results file is data, often someone
# else's). jq -L scripts/lib, include "plot";.
include "summary";

def results: if .results then .results[] else . end;

# the reproducers of the runs $runs, first seen first
def names_in($runs): [$runs[] | results | .reproducer]
	| reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end);

# the reproducers of all runs given (-n, inputs), first seen first
def names: [inputs] as $runs | names_in($runs) | .[];

# one run's result of reproducer $n, or null
def result_of($n): [results | select(.reproducer == $n)] | .[0];

# the judged samples of a case (ms), or [] where the result kept none
def samples($k): if (.samples_ms.of // $k) == $k
	then (.samples_ms.values // []) else [] end;

# a case's rows are drawn top down in the order of the first run that
# has the reproducer: row 0 at the bottom
def case_names($runs; $n):
	[$runs[] | result_of($n) | select(. != null) | .cases[]? | .name]
	| reduce .[] as $c ([]; if index([$c]) then . else . + [$c] end);

# The strip of one run's result $r for the cases $cases, as a data file
# in blocks gnuplot indexes: block i (0 .. C-1) the samples of case i,
# "x y" with y the row and a fixed jitter so that equal samples stay
# apart; block C+i its log2 histogram, "x y xlo xhi ylo yhi" for
# boxxyerror (a bucket's height is its share of the case's largest);
# block 2C the rows' names, "y name". A case the run lacks has an
# empty block ("NaN NaN"), so that every run keeps the same rows.
def strip_data($cases):
	. as $r | ($cases | length) as $nc
	| ($r | if . == null then "latency_ms" else judged end) as $k
	| [$cases | to_entries[] | .key as $i | .value as $c
	   | ($r.cases // [] | map(select(.name == $c)) | .[0]) as $case
	   | ($nc - 1 - $i) as $y
	   | {y: $y, case: $case,
	      s: (if $case then $case | samples($k) else [] end),
	      h: (if $case then $case[$k].log2_histogram // [] else [] end)}]
	| (map(
		(if (.s | length) == 0 then ["NaN NaN"]
		 else .y as $y | [.s | to_entries[]
		      | (.key * 0.6180339887) as $g
		      | "\(.value) \($y + 0.36 * ($g - ($g | floor) - 0.5))"]
		 end) + ["", ""]) | add),
	  (map(.y as $y | (.h | map(.count) | max // 1) as $top
		| (if (.h | length) == 0 then ["NaN NaN NaN NaN NaN NaN"]
		   else [.h[] | (.lo_us / 1000) as $lo | (.hi_us / 1000) as $hi
			 | (0.4 * .count / $top) as $hh
			 | "\(($lo * $hi) | sqrt) \($y) \($lo) \($hi) \($y - $hh) \($y + $hh)"]
		   end) + ["", ""]) | add),
	  [$cases | to_entries[] | "\($nc - 1 - .key) \(.value)"]
	| .[];

# what the judged figure is and bounds, for the axis: short enough for
# a picture 640 pixels wide
def axis_label:
	if . == null then "ms (log scale)"
	elif judged == "trigger_call_ms" then
		"the trigger's calls, ms (log scale; the calls, not walks)"
	else (.cases[0].probe // "?") as $p
		| if .cases[0].probe_detail.walk_level == false then
			"\($p) intervals, ms (log scale): a bound, not one walk"
		  else "\($p): one walk each, ms (log scale)" end
	end;

# what the run said: the verdict, or "measured" for a benchmark
def said: if . == null then "not in this run"
	elif measured then "measured (a benchmark: nothing judged)"
	else .verdict end;

# one column's head: the run's label, its kernel and what it said
def column_title($head):
	(if $head == "" then "" else $head + ": " end)
	+ (if . == null then "" else "\(.kernel.release // "?"), " end)
	+ said;

# the line to draw at the threshold, or "" (a benchmark, no threshold)
def threshold: if . == null or measured then ""
	else (.threshold_ms // "" | tostring) end;

# The overview of one run: per reproducer (row, top down) the subject's
# largest figure and the controls' largest; blocks: 0 the subjects' "x
# y", 1 the controls' "x y" (each control), 2 the thresholds "x y" (of
# the rows that measured), 3 the rows' names "y name", 4 the rows that
# measured nothing, "y verdict" (a row below the axis when none: gnuplot
# 5.4 crashes on a label at NaN) ($names: the reproducers of all runs).
def overview_data($names):
	. as $run
	| ($names | length) as $n
	| [$names | to_entries[] | .key as $i
	   | .value as $nm | ($run | result_of($nm)) as $r
	   | {y: ($n - 1 - $i), r: $r,
	      k: (if $r then $r | judged else "latency_ms" end)}] as $rows
	| ([$rows[] | select(.r) | .y as $y | .k as $k
	    | .r.cases[] | select(.role == "subject") | .[$k].max? // empty
	    | "\(.) \($y)"] | if length == 0 then ["NaN NaN"] else . end
	   + ["", ""]),
	  ([$rows[] | select(.r) | .y as $y | .k as $k
	    | .r.cases[] | select(.role == "control") | .[$k].max? // empty
	    | "\(.) \($y)"] | if length == 0 then ["NaN NaN"] else . end
	   + ["", ""]),
	  ([$rows[] | select(.r) | select(.r | figures[0] != null)
	    | (.r | threshold) as $t
	    | select($t != "") | "\($t) \(.y)"]
	   | if length == 0 then ["NaN NaN"] else . end + ["", ""]),
	  ([$rows[] | "\(.y) \($names[$n - 1 - .y])"] + ["", ""]),
	  ([$rows[] | select(.r == null or (.r | figures[0] == null))
	    | "\(.y) \(.r | if . == null then "not-run" else .verdict end)"]
	   | if length == 0 then ["-100 none"] else . end)
	| .[];

# the overview's column head: the kernel and how many of the judged
# reproduced (a skip or an error judged nothing, a benchmark neither)
def run_title: [results] as $r
	| ($r | map(select(.verdict == "skip")) | length) as $skip
	| "\($r | map(.kernel.release // empty) | .[0] // "?"), "
	+ "\($r | map(select(.verdict == "reproduced")) | length) of "
	+ "\($r | map(select((measured | not) and (.verdict == "reproduced"
				 or .verdict == "not-reproduced"))) | length)"
	+ " reproduced" + (if $skip > 0 then ", \($skip) skipped" else "" end);

# run $i's column label among the runs $runs: none for one run, else
# its letter
def head_of($runs; $i): if ($runs | length) > 1
	then ["A", "B", "C", "D", "E", "F"][$i] else "" end;

# What scripts/plot draws of every reproducer of the runs $runs, in one
# pass (a jq each costs more than the drawing), a record a line, its
# fields split by the unit separator (\u001f) and its free text last:
#   N k ncase name               the k-th reproducer, its cases' count
#   P k probe                    the probes that measured it
#   A k label                    the time axis' label
#   T k i threshold title        its column of run i
#   D k i line                   a line of that column's strip_data
# A name or title keeps no newline: a title's becomes a space, as the
# column's head always had it, a name's a "?" (not a reproducer's name).
def strips($runs):
	"\u001f" as $s
	| names_in($runs) | to_entries[] | .key as $k
	| (.value | tostring | gsub("[\n\u001f]"; "?")) as $n
	| case_names($runs; .value) as $cases
	| .value as $name
	| "N\($s)\($k)\($s)\($cases | length)\($s)\($n)",
	  (select($cases | length > 0)
	   | "P\($s)\($k)\($s)\([$runs[] | result_of($name) | select(. != null)
		| .cases[0].probe // "?"] | unique | join(", ")
		| gsub("\n"; " "))",
	     "A\($s)\($k)\($s)\([$runs[] | result_of($name) | select(. != null)
		| axis_label][0] // "" | gsub("\n"; " "))",
	     ($runs | to_entries[] | .key as $i | .value | result_of($name)
	      | "T\($s)\($k)\($s)\($i)\($s)\(threshold
		| gsub("\n"; " "))\($s)\(column_title(head_of($runs; $i))
		| gsub("\n"; " "))",
		(strip_data($cases) | "D\($s)\($k)\($s)\($i)\($s)\(.)")));
