# SPDX-License-Identifier: GPL-2.0
#
# scripts/sweep's data and drawing (jq -L scripts/lib,
# include "sweep";): the sweep's JSON from run-all's results, the points
# rmap-stat --fit fits (the least-squares slope of log(latency) on
# log(value) is the suite's C, lib/stats.c) and their slopes put back,
# the text table, an ASCII log-log plot, and gnuplot's data. Tested on
# docs/sample-sweep by tests/noroot/jq.sh.
include "text";

# A slope in words.
def words: if . == null then "too few points to fit"
	elif . < 0.25 then "flat"
	elif . < 0.75 then "grows sublinearly"
	elif . < 1.35 then "grows linearly"
	else "grows faster than linearly" end;

# sweep.json from run-all's results.json: the points of each case, in
# the order of the values; $labels[i] is the label of the run of
# $vals[i] (the first is the reproducer's own name).
def sweep_of($param; $vals; $labels; $only):
	[.results[] as $r | $labels | index($r.reproducer) as $i
	 | select($i != null) | {value: $vals[$i], result: $r}] | sort_by(.value)
	| . as $pts
	| ($pts[0].result) as $first
	| {schema: "rmap-repro-sweep/1", reproducer: $only, param: $param,
	   values: [$pts[].value],
	   kernel: $first.kernel.release,
	   probe: ([$pts[].result.cases[0].probe] | unique),
	   probe_detail: ($first.cases[0].probe_detail | {interval, bounds,
							  walk_level}),
	   verdicts: [$pts[].result.verdict],
	   cases: [$first.cases[].name as $c
	     | [$pts[] | {value, c: (.result.cases | map(select(.name == $c))
				      | .[0])}] as $cp
	     | {name: $c,
		role: ($first.cases | map(select(.name == $c)) | .[0].role),
		points: [$cp[] | {value, vmas: .c.pattern.vmas?,
				  count: .c.latency_ms.count?,
				  max_ms: (if .c.latency_ms.count? > 0
					   then .c.latency_ms.max else null end),
				  p50_ms: (if .c.latency_ms.count? > 0
					   then .c.latency_ms.p50 else null end),
				  victim_alone_per_s: .c.victim_rate.alone_per_s?,
				  victim_during_per_s:
					.c.victim_rate.during_firings_per_s?}]}
	     | .slope = {max: null, p50: null}]};

# rmap-stat --fit's input: "CASE.FIGURE N x1 y1 .. xN yN" per case and
# figure (max, p50), "nan" for a point without a figure.
def fit_lines:
	.cases | to_entries[] | .key as $i | .value.points as $p
	| ("max", "p50") as $f
	| "\($i).\($f) \($p | length) \([$p[] | "\(.value) \(.["\($f)_ms"] // "nan")"]
				       | join(" "))";

# The slopes rmap-stat --fit printed ("CASE.FIGURE slope points", "-":
# none), and each in words.
def with_slopes($fits):
	reduce ($fits | split("\n")[] | select(length > 0) | split(" ")) as $l
	  (.; ($l[0] | split(".")) as $k
	      | .cases[$k[0] | tonumber].slope[$k[1]] =
		(if $l[1] == "-" then null else $l[1] | tonumber end))
	| .cases[] |= (.growth = {max: (.slope.max | words),
				  p50: (.slope.p50 | words)});

# sweep.txt's table, the fit in words and the probe, 72 columns.
def sweep_table:
	def f3: if . == null then "-" else (. * 1000 | round / 1000 | tostring) end;
	def sl: if . == null then "-" else (. * 100 | round / 100 | tostring) end;
	def r0: if . == null then "-" else (round | tostring) end;
	. as $s |
	("\(.reproducer) over --\(.param), kernel \(.kernel), probe \(.probe | join(", ")); ms" | wrap(72; "  ")),
	"",
	("--" + .param | pad(12)) + ([.cases[].name | ("max " + .) | pad(14)] | join("")),
	(.values | to_entries[] as $e
	 | ($e.value | pad(12)) + ([$s.cases[] | .points[$e.key].max_ms | f3 | pad(14)]
				   | join(""))),
	(if [.cases[].points[].victim_alone_per_s] | any(. != null) then
	   "",
	   "The victim's calls per second (--victim-alone): with no trigger / during the firings",
	   ("--" + .param | pad(12)) + ([.cases[].name | pad(16)] | join("")),
	   (.values | to_entries[] as $e
	    | ($e.value | pad(12)) + ([$s.cases[] | .points[$e.key]
		| "\(.victim_alone_per_s | r0) / \(.victim_during_per_s | r0)"
		| pad(16)] | join("")))
	 else empty end),
	"",
	"Least-squares fit of log(latency) on log(--\(.param)):",
	(.cases[] | "  \(.name): max slope \(.slope.max | sl), \(.growth.max);",
		    "    p50 slope \(.slope.p50 | sl), \(.growth.p50)"),
	"",
	("Probe: " + (.probe | join(", ")) + ". One interval: " +
	 .probe_detail.interval + ". It bounds: " + .probe_detail.bounds + "."
	 | wrap(72; "  "));

# A 60 x 16 log-log plot of each case's max, its first letter the mark.
def ascii_plot:
	def lg: log / (10 | log);
	[.cases[] as $c | $c.points[] | select(.max_ms != null and .max_ms > 0)
	 | {m: ($c.name[:1]), x: (.value | lg), y: (.max_ms | lg)}] as $p
	| if ($p | length) == 0 then "(nothing to plot)" else
	  ([$p[].x] | min) as $x0 | ([$p[].x] | max) as $x1
	  | ([$p[].y] | min) as $y0 | ([$p[].y] | max) as $y1
	  | 60 as $w | 16 as $h
	  | (reduce $p[] as $q ([range($h) | [range($w) | " "]];
		(if $x1 > $x0 then (($q.x - $x0) / ($x1 - $x0) * ($w - 1) | round)
		 else 0 end) as $col
		| (if $y1 > $y0 then (($q.y - $y0) / ($y1 - $y0) * ($h - 1) | round)
		   else 0 end) as $row
		| .[$h - 1 - $row][$col] |= (if . == " " or . == $q.m then $q.m
					     else "*" end))) as $g
	  | def num: pow(10; .) | if . >= 100 then round else . * 1000 | round / 1000 end
		     | tostring;
	  "",
	  "max ms, log scale (\([.cases[].name | "\(.[:1]) \(.)"] | join(", ")); * both)",
	  ($g | to_entries[] | (if .key == 0 then ($y1 | num)
				elif .key == $h - 1 then ($y0 | num) else "" end
				| " " * (9 - length) + .) + " |" + (.value | join(""))
			       | sub(" +$"; "")),
	  (" " * 10 + "+" + "-" * $w),
	  (" " * 11 + ($x0 | num) + " " * ($w - (($x0 | num) | length) -
					    (($x1 | num) | length)) + ($x1 | num)),
	  (" " * 11 + "--\(.param), log scale")
	  end;

# gnuplot's data: a row per value, the value then each case's max.
def gnuplot_rows: .values as $v | .cases as $c
	| range($v | length) as $i
	| ([$v[$i]] + [$c[] | .points[$i].max_ms // "NaN"])
	| map(tostring) | join(" ");

# gnuplot's strings, each an argument of scripts/lib/sweep.gp (never its
# program text): the cases' names, the title, the x tics' values.
def gnuplot_cases: [.cases[].name] | join(" ");
def gnuplot_title:
	"\(.reproducer): \(.probe | join(", ")) max over --\(.param), kernel \(.kernel)";
def gnuplot_xtics: [.values[] | tostring] | join(" ");

# What makes a sweep.json not the suite's, or "" (scripts/sweep --replot
# reads files received from others: a name becomes a file name or a
# title, a value a number on an axis).
def sweep_invalid:
	def name: type == "string" and test("^[A-Za-z0-9@._-]+$");
	def num_or_null: . == null or type == "number";
	if type != "object" then "not a JSON object"
	elif (.param | type == "string" and test("^[a-z][a-z0-9-]*$")) | not
	then "its param is not an option's name"
	elif (.reproducer | name) | not then "its reproducer is not a name"
	elif (.values | type == "array" and length > 0 and
	      all(.[]; type == "number")) | not
	then "its values are not numbers"
	elif ((.probe // []) | type == "array" and all(.[]; name)) | not
	then "its probes are not names"
	elif (.kernel | type == "string" or . == null) | not
	then "its kernel is not a string"
	elif (.cases | type == "array" and all(.[]; (.name | name) and
	      (.points | type == "array" and
	       all(.[]; (.max_ms | num_or_null) and (.p50_ms | num_or_null)))))
	     | not
	then "a case's name is not a name, or a point's figure not a number"
	else "" end;
