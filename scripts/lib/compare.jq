# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare's model and drawing (jq -L scripts/lib,
# include "compare";): the samples rmap-stat tests, its answers read
# back, the comparison of two or more runs as JSON, and its text and
# Markdown tables. Tested on the samples in docs/ by tests/noroot/jq.sh.
include "text";

# a run's letter by its index: 0 is A, the baseline
def run_letter: [65 + .] | implode;

# A results.json of run-all (.results) or a reproducer's own JSON.
def runs_of: if .results then .results else [.] end;

# rmap-stat's input, from the runs given as inputs: a line
# "REPRODUCER:CASE:K nK xK.. nA xA.." for each case of each run K after
# the first that kept samples of the same figure as run A.
def stat_lines:
	[inputs | runs_of] as $runs
	| $runs[0][] as $a | $a.cases[] as $ca
	| range(1; $runs | length) as $k
	| ($runs[$k] | map(select(.reproducer == $a.reproducer)) | .[0]) as $b
	| select($b != null)
	| ($b.cases | map(select(.name == $ca.name)) | .[0]) as $cb
	| select($cb != null and ($ca.samples_ms.kept // 0) > 0 and
		 ($cb.samples_ms.kept // 0) > 0 and
		 $ca.samples_ms.of == $cb.samples_ms.of)
	| "\($a.reproducer):\($ca.name):\($k) \($cb.samples_ms.kept) " +
	  ($cb.samples_ms.values | map(tostring) | join(" ")) +
	  " \($ca.samples_ms.kept) " + ($ca.samples_ms.values | map(tostring) | join(" "));

# rmap-stat's output lines (read with -R) as {KEY: {p, ratio, lo, hi,
# method, p_min}}.
def stat_results: [inputs | split(" ") | {key: .[0], value: {
		p: (.[1] | tonumber? // null), ratio: (.[4] | tonumber? // null),
		lo: (.[5] | tonumber? // null), hi: (.[6] | tonumber? // null),
		method: .[7], p_min: (.[8] | tonumber? // null)}}]
	| from_entries;

# The comparison of the runs given as inputs, as JSON (every format is
# drawn from it): $tests from stat_results, $noise the floor in percent.
def comparison($tests; $noise):
	def kernel_of: (.results[0].kernel.release // .kernel.release //
			.system.kernel.release // "?");
	def first_seen: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end);
	def ratio($b): if $b == null or . == null or $b == 0 then null
		       else . / $b end;
	def stat($c; $k; $f): $c[$k] | if . == null or .count == 0 then null
			      else .[$f] end;
	# the figure the verdict judges: the samples' of, else the latency
	def judged_max: .[.samples_ms.of? // "latency_ms"].max? // null;
	def oracle_text: if . == null then null
		elif .pages_failed == 0 and .mappings_missed == 0 then "clean"
		else "\(.pages_failed) pages, \(.mappings_missed) maps missed" end;
	# one row: a figure's value in each run, and its ratio to the first
	def row($name; $unit; $vals):
		{figure: $name, unit: $unit, values: $vals,
		 ratios: ($vals[0] as $b | [$vals[] |
			  if type == "number" then ratio($b) else null end])};
	# the judged samples of run $k against run A's, from rmap-stat
	def change($key; $k; $steps):
		if $k == 0 then null
		else ($tests["\($key):\($k)"] // null) as $t
		| if $t == null then {significant: false, word: "not tested: no samples in both runs",
				       steps_ratio: $steps}
		  else $t + {steps_ratio: $steps,
			     significant: ($t.p != null and $t.p < 0.01 and
					   $t.ratio != null and
					   ($t.ratio > 1 + $noise / 100 or
					    $t.ratio < 1 / (1 + $noise / 100))),
			     alpha: 0.01, noise_pct: $noise}
		    | .word = (if .significant then
				(if .ratio > 1 then "slower" else "faster" end) +
				", significant"
			       elif .p_min != null and 2 * .p_min >= 0.01 then
				"too few samples to tell (p cannot go below " +
				(2 * .p_min | tostring | .[:5]) + ")"
			       else "within noise" end)
		  end end;
	[inputs | {file: input_filename, kernel: kernel_of, preset: (.preset // null),
		   results: runs_of}]
	| to_entries | map(.value + {run: (.key | run_letter)}) as $runs
	| ($runs | map(.results[].reproducer) | first_seen) as $names
	| {schema: "rmap-repro-compare/1",
	   noise_pct: $noise, alpha: 0.01,
	   runs: [$runs[] | {run, file, kernel, preset}],
	   reproducers: [$names[] as $n
	     | [$runs[] | (.results | map(select(.reproducer == $n)) | .[0])] as $rs
	     | ([$rs[] | if . then (.cases[0].probe // null) else null end]) as $probes
	     | {name: $n,
		verdicts: [$rs[] | if . then .verdict else null end],
		verdict_on: [$rs[] | if . then (.verdict_on // "probe intervals")
				     else null end],
		probes: $probes,
		warnings: ([if ([$probes[] | select(.)] | unique | length) > 1 then
			"probes differ (" + ([$runs, $probes] | transpose
				| map(select(.[1]) | "\(.[0].run) \(.[1])")
				| join(", ")) +
			"): a bracket is not a walk, so these ratios compare different things"
			else empty end] +
			[$rs | to_entries[] | select(.value == null)
			 | "not in run \(.key | run_letter)"] +
			([$rs[] | select(.) | .cases[].name] | first_seen) as $all
			| [$rs | to_entries[] | select(.value) | .key as $k
			   | ([.value.cases[].name]) as $have
			   | $all[] | select(. as $c | $have | index([$c]) | not)
			   | "case \(.) not in run \($k | run_letter)"]),
		cases: ([$rs[] | select(.) | .cases[].name] | first_seen
		  | map(. as $c
		    | [$rs[] | if . then (.cases | map(select(.name == $c)) | .[0])
			       else null end] as $cs
		    | ([$cs[] | .iterations?.steps_per_walk_mean? // null]) as $steps
		    | {name: $c,
		       role: ([$cs[] | select(.) | .role // null] | .[0]),
		       changes: [range(0; $cs | length) as $k
			 | if $cs[$k] == null or $cs[0] == null then null
			   else change("\($n):\($c)"; $k;
				       if $k > 0 and $steps[0] and $steps[$k]
				       then $steps[$k] / $steps[0] else null end)
				| if . then .max_ratio = ([$cs[$k], $cs[0]]
					| map(judged_max) | if .[0] and .[1]
					  then .[0] / .[1] else null end)
				  else . end
			   end],
		       rows: [
			row("max"; "ms"; [$cs[] | stat(.; "latency_ms"; "max")]),
			row("p50"; "ms"; [$cs[] | stat(.; "latency_ms"; "p50")]),
			row("p99"; "ms"; [$cs[] | stat(.; "latency_ms"; "p99")]),
			row("mean"; "ms"; [$cs[] | stat(.; "latency_ms"; "mean")]),
			(if [$cs[] | .iterations?.us_per_step? // empty]
			    | length > 0 then
			 row("us/step"; ""; [$cs[] |
			     .iterations?.us_per_step? // null])
			 else empty end),
			row("intervals"; ""; [$cs[] | .latency_ms.count? // null]),
			(if [$cs[] | .iterations?.steps_per_walk_mean? // empty]
			    | length > 0 then
			 row("steps/walk"; ""; [$cs[] |
			     .iterations?.steps_per_walk_mean? // null])
			 else empty end),
			(if [$cs[] | .trigger_call_ms? // empty] | length > 0 then
			 row("call max"; "ms"; [$cs[] |
			     stat(.; "trigger_call_ms"; "max")])
			 else empty end),
			row("victim max"; "ms"; [$cs[] |
			    stat(.; "victim_stall_ms"; "max")]),
			row("oracle"; ""; [$cs[] | .oracle? // null | oracle_text])
		       ]})),
		verdict_changed: ([$rs[] | if . then .verdict else null end] as $v
		  | [$v[] | . != null and $v[0] != null and . != $v[0]])
	       }]};

# The comparison drawn as text (72 columns) or Markdown ($fmt).
def draw($fmt):
	def num: if . == null then "-" elif type != "number" then tostring
		 elif . == (. | floor) and . < 1e9 then (. | floor | tostring)
		 else fixed(3) end;
	def rat: if . == null then "" elif . >= 100 then fixed(0) + "x"
		 elif . >= 10 then fixed(1) + "x" elif . >= 0.01 then fixed(2) + "x"
		 else fixed(4) + "x" end;
	def text_line: if $fmt != "text" then . else
		(match("^ *").string) as $lead | .[($lead | length):]
		| wrap(72 - ($lead | length); "  ") | $lead + . end;
	def flabel($r): $r.figure + (if $r.unit != "" then " " + $r.unit else "" end);
	# one case's change in run $k, in words
	def change_words($ch; $k; $runs):
		if $ch == null then "\($runs[$k].run): not in both runs"
		elif $ch.ratio == null then "\($runs[$k].run): \($ch.word)"
		else "\($runs[$k].run) \($ch.ratio | rat) [\($ch.lo | rat), \($ch.hi | rat)] \($ch.word)"
		end + (if $ch.max_ratio? then ", max \($ch.max_ratio | rat)" else "" end)
		  + (if $ch.steps_ratio? then ", steps \($ch.steps_ratio | rat)"
		     else "" end);
	# the short form: a line per reproducer and case
	def summary($runs): . as $m
		| (if $fmt == "text" then
		    ("Summary: the ratio of each run's median to run A's, with its 95%" +
		     " interval; a change is significant where Mann-Whitney U gives" +
		     " p < 0.01 and the ratio is beyond the \($m.noise_pct)% noise floor;" +
		     " then the ratio of the maxima (what the verdict judges, unmarked)." | text_line)
		   else
		    "Summary: the ratio of each run's median to run A's, with its 95%" +
		    " interval; a change is significant where Mann-Whitney U gives" +
		    " p < 0.01 and the ratio is beyond the \($m.noise_pct)% noise floor;" +
		    " then the ratio of the maxima (what the verdict judges, unmarked).",
		    "", "| reproducer | case | change |", "|---|---|---|"
		   end),
		  ($m.reproducers[] as $p | $p.cases[] as $c
		   | ([range(1; $runs | length) as $k
		       | change_words($c.changes[$k]; $k; $runs)] | join("; ")) as $w
		   | (if $c.role == "subject" and ($p.verdict_changed | any) then
			"; verdict " + ($p.verdicts | map(. // "-") | join(" -> "))
		      else "" end) as $v
		   | if $fmt == "text" then "\($p.name) \($c.name): \($w)\($v)" | text_line
		     else "| \($p.name) | \($c.name) | \($w)\($v) |" end);
	# the run columns of one table: the baseline and up to two more
	def chunks: [range(1; length; 2)] as $s | . as $a
		| [$s[] | [0] + [range(.; [. + 2, ($a | length)] | min)]];
	.runs as $runs
	| summary($runs), "",
	  (if $fmt == "text" then
	    "Runs compared (ratios are to run A):",
	    ($runs[] | "  \(.run)  \(.kernel)\(if .preset then ", preset " + .preset
				else "" end): \(.file)" | text_line)
	  else
	    "| run | kernel | preset | file |", "|---|---|---|---|",
	    ($runs[] | "| \(.run) | \(.kernel) | \(.preset // "") | \(.file) |")
	  end),
	  (.reproducers[] as $p
	   | "",
	     (if $fmt == "text" then $p.name else "### " + $p.name end),
	     ($p.warnings[] | if $fmt == "text" then "  warning: " + . | text_line
			      else "> **warning:** " + . end),
	     ("verdict: " + ([$p.verdicts, $runs, $p.verdict_changed] | transpose
		| map("\(.[1].run) \(.[0] // "-")\(if .[2] then " *" else "" end)")
		| join(", ")) | if $fmt == "text" then "  " + . | text_line
				else . + "  " end),
	     ("probe: " + ([$p.probes, $runs] | transpose
		| map("\(.[1].run) \(.[0] // "-")") | join(", "))
	      | if $fmt == "text" then "  " + . | text_line else . + "  " end),
	     (($runs | chunks)[] as $cols
	      | (if $fmt == "text" then
		  ("case" | rpad(7)) + ("figure" | rpad(14)) +
		  ([$cols[] | $runs[.].run | if . == "A" then pad(10)
		    else pad(12) + (" " * 8) end] | join("")) | sub(" +$"; "")
		 else
		  "| case | figure | " + ([$cols[] | $runs[.].run |
		    if . == "A" then . else . + " | ratio" end] | join(" | ")) + " |",
		  "|---|---|" + ([$cols[] | if . == 0 then "---:|" else "---:|---:|"
				  end] | join(""))
		 end),
		($p.cases[] as $c | $c.rows | to_entries[] | .key as $i | .value as $r
		 | ($c.name | if $i > 0 then "" else . end) as $cn
		 | if $fmt == "text" then
		    ($cn | .[:6] | rpad(7)) + (flabel($r) | rpad(14)) +
		    ([$cols[] as $k | ($r.values[$k] | num) as $v
		      | if $k == 0 then ($v | .[:10] | pad(10))
			else ($v | .[:11] | pad(12)) + ($r.ratios[$k] | rat | pad(8))
			end] | join("")) | sub(" +$"; "")
		   else
		    "| \($cn) | \(flabel($r)) | " + ([$cols[] as $k
		      | ($r.values[$k] | num) as $v
		      | if $k == 0 then $v else $v + " | " + ($r.ratios[$k] | rat)
			end] | join(" | ")) + " |"
		   end)));

# --- Sides of several boots each (scripts/vm-run --boots N) ------------
# The inputs are every boot's results, side by side in $groups (lists of
# input indices, side A first). A figure's floor is measured: the spread
# between the boots of one side, (max - min) / mean, the larger of the
# sides'. A change is significant where the ratio of the sides' means is
# beyond that floor and Mann-Whitney U on the boots' values (rmap-stat)
# gives p below $alpha.

# the figures of one case that a boot gives, by name
def boot_figures:
	[["mean", "ms", .latency_ms.mean?], ["p50", "ms", .latency_ms.p50?],
	 ["max", "ms", .latency_ms.max?],
	 ["steps/walk", "", .iterations?.steps_per_walk_mean?],
	 # the cost per step with the most digits the file has: the mean
	 # over the steps where the mean has five or more (files before
	 # 2026-12 kept us_per_step to 4 decimals, too few for exact
	 # mode's floors), else us_per_step
	 ["us/step", "", (.iterations?.us_per_step? as $u
			  | .iterations?.steps_per_walk_mean? as $s
			  | if $u == null or $s == null or $s == 0 then null
			    elif .latency_ms.mean >= 1 then
				.latency_ms.mean * 1000 / $s
			    else $u end)]]
	| map(select(.[2] | type == "number"));

# every boot's runs: [{file, results}], in input order
def boot_inputs: [inputs | {file: input_filename, results: runs_of}];

# Why the boots of a side cannot be one side ("" when they can): each
# boot of it ran the same kernel release on the same clock (exact or
# wall time).
def boots_unlike($groups):
	def kernel_of: (.results[0].kernel.release // "?");
	def clock_of: ([.results[] | .system.exact_clock? // "wall time"]
		       | unique | join(", "));
	boot_inputs as $boots
	| [$groups | to_entries[] | (.key | run_letter) as $side | .value
	   | [.[] | $boots[.] | {file, kernel: kernel_of, clock: clock_of}]
	   | if (map(.kernel) | unique | length) > 1 then
		"side \($side)'s boots ran different kernels (" +
		(map("\(.file): \(.kernel)") | join("; ")) + ")"
	     elif (map(.clock) | unique | length) > 1 then
		"side \($side)'s boots ran on different clocks (" +
		(map("\(.file): \(.clock)") | join("; ")) + ")"
	     else empty end] | .[0] // "";

# [side][boot] -> the case's figure value, or null
def boot_values($boots; $groups; $n; $c; $f):
	[$groups[] | [.[] | $boots[.].results
		      | map(select(.reproducer == $n)) | .[0]
		      | if . == null then null else
			(.cases | map(select(.name == $c)) | .[0]
			 | if . == null then null else
			   (boot_figures | map(select(.[0] == $f)) | .[0][2])
			   end) end]];

# the figures to compare: [reproducer, case, figure, unit], from A's first
def boot_keys($boots; $groups):
	$boots[$groups[0][0]].results[] as $r | $r.cases[] as $c
	| ($c | boot_figures[]) | [$r.reproducer, $c.name, .[0], .[1]];

# rmap-stat's input: "REPRO:CASE:FIGURE:K n vals.. nA valsA.." per side
# K after the first, where every boot of both sides has the figure
def boot_stat_lines($groups):
	boot_inputs as $boots
	| boot_keys($boots; $groups) as $key
	| boot_values($boots; $groups; $key[0]; $key[1]; $key[2]) as $v
	| range(1; $groups | length) as $k
	| select(($v[0] + $v[$k]) | all(type == "number"))
	| "\($key[0]):\($key[1]):\($key[2]):\($k) \($v[$k] | length) " +
	  ($v[$k] | map(tostring) | join(" ")) + " \($v[0] | length) " +
	  ($v[0] | map(tostring) | join(" "));

def boot_comparison($groups; $tests; $alpha):
	def mean: add / length;
	def spread: if length < 2 then null
		    else (mean) as $m | if $m == 0 then 0
		    else ((max - min) / $m | fabs) end end;
	def kernel_of: (.results[0].kernel.release // "?");
	boot_inputs as $boots
	| [$groups | to_entries[] | .key as $k | .value as $g
	   | {run: ($k | run_letter), boots: ($g | length),
	      files: [$g[] | $boots[.].file],
	      kernel: ($boots[$g[0]] | kernel_of),
	      # a side is exact when every run of every boot is
	      exact: ([$g[] | $boots[.].results[]
		       | .system.exact_clock? != null] | all)}] as $sides
	# the options each reproducer ran with, per side (--out aside):
	# boots that differ compare other patterns, said as a warning
	| ([$groups[] | [.[] | $boots[.].results[]
			 | {r: .reproducer,
			    c: (.command // "" | sub(" --out [^ ]*"; ""))}]]
	   | add | group_by(.r)
	   | map(select((map(.c) | unique | length) > 1)
		 | "\(.[0].r): the boots ran different options (" +
		   (map(.c) | unique | join(" | ")) + ")")) as $warn
	| {schema: "rmap-repro-compare-boots/1", alpha: $alpha,
	   sides: $sides, warnings: $warn,
	   exact: ($sides | all(.exact)),
	   figures: [boot_keys($boots; $groups) as $key
	     | boot_values($boots; $groups; $key[0]; $key[1]; $key[2]) as $v
	     | [$v[] | map(select(type == "number"))] as $nums
	     | [$nums[] | {values: ., mean: (if length > 0 then mean
					     else null end),
			   spread: spread}] as $per
	     | ([$per[] | .spread | select(. != null)] | max) as $floor
	     | {reproducer: $key[0], case: $key[1], figure: $key[2],
		unit: $key[3], sides: $per, floor: $floor,
		floor_from: (if $floor == null then "no side booted twice"
			     else ([$per | to_entries[]
				    | select(.value.spread == $floor)][0].key
				   | "the spread between the boots of " +
				     run_letter) end),
		changes: [range(0; $per | length) as $k
		  | if $k == 0 then null else
		    ($per[0].mean) as $a | ($per[$k].mean) as $b
		    | ($tests["\($key[0]):\($key[1]):\($key[2]):\($k)"] // null) as $t
		    | (if $a == null or $b == null or $a == 0 then null
		       else $b / $a end) as $ratio
		    | {ratio: $ratio,
		       lo: (if $ratio == null or ($nums[0] | min) == 0 then null
			    else ($nums[$k] | min) / ($nums[0] | max) end),
		       hi: (if $ratio == null or ($nums[0] | min) == 0 then null
			    else ($nums[$k] | max) / ($nums[0] | min) end),
		       p: ($t.p // null), p_min: ($t.p_min // null)}
		    | .beyond_floor = (.ratio != null and $floor != null and
				       ((.ratio - 1) | fabs) > $floor)
		    | .significant = (.beyond_floor and .p != null and
				      .p < $alpha)
		    | .word = (if .ratio == null then "not in both sides"
			       elif $floor == null then
				"no floor measured (a side needs two boots)"
			       elif .significant then
				(if .ratio > 1 then "higher" else "lower" end) +
				", significant"
			       elif .beyond_floor and .p_min != null and
				    2 * .p_min >= $alpha then
				"beyond the floor, but too few boots to tell (p cannot go below \(2 * .p_min | tostring | .[:5]))"
			       elif .beyond_floor then
				"beyond the floor, but the rank test does not agree"
			       else "no change (within the floor)" end)
		    end]}]};

# The boots' comparison drawn as text (72 columns) or Markdown ($fmt).
def boot_draw($fmt):
	def rat: if . == null then "-" else fixed(4) + "x" end;
	# exact mode's floors can be a millionth: digits enough to show it
	def pct: if . == null then "-" elif . * 100 < 0.01 and . != 0 then
		 (. * 100 | fixed(5)) + "%" else (. * 100 | fixed(3)) + "%" end;
	def num: if . == null then "-" elif . >= 100 then fixed(3)
		 else fixed(4) end;
	# the cost per step is computed, not kept: two digits more
	def num($f): if $f == "us/step" and . != null and . < 1
		     then fixed(6) else num end;
	def line: if $fmt == "text" then wrap(72; "  ") else . end;
	. as $m
	| ("Boots compared: each figure's value is the mean over a side's" +
	   " boots; its floor is the larger spread between one side's boots" +
	   " ((max - min) / mean), measured, not assumed; a change is" +
	   " significant where the ratio of the means is beyond that floor" +
	   " and Mann-Whitney U on the boots' values gives p < \($m.alpha)." +
	   (if $m.exact then " Exact runs: " +
	    "QEMU icount virtual time, 1 ns per guest instruction: a" +
	    " deterministic cost, not wall time." else
	    " Not all runs are exact (scripts/vm-run --exact): the floor is" +
	    " wall time's." end) | line),
	  "",
	  ($m.sides[] | "  \(.run)  \(.kernel), \(.boots) boot(s)\(if .exact
		then ", exact" else "" end): \(.files[0] | sub("/[^/]*/results.json$"; ""))" | line),
	  "",
	  ($m.warnings[] | "warning: " + . | line),
	  (if ($m.warnings | length) > 0 then "" else empty end),
	  # where steps were counted: the walk's cost split into steps and
	  # the cost of each, so that a reader sees which one moved
	  ([[$m.figures[] | select(.figure == "steps/walk")] as $st
	   | $st[] as $s
	   | ($m.figures | map(select(.reproducer == $s.reproducer and
				     .case == $s.case)) ) as $same
	   | ($same | map(select(.figure == "mean")) | .[0]) as $c
	   | ($same | map(select(.figure == "us/step")) | .[0]) as $u
	   | select($c != null and $u != null)
	   | range(1; $s.sides | length) as $k
	   | ($s.changes[$k]) as $sc | ($c.changes[$k]) as $cc
	   | ($u.changes[$k]) as $uc
	   | "\($s.reproducer) \($s.case), \($k | run_letter) against A: mean walk \($cc.ratio | rat), steps per walk \($sc.ratio | rat), cost per step \($uc.ratio | rat): " +
	     (if $sc.significant then "the steps changed"
	      elif $cc.significant and ($sc.ratio == 1 or ($sc.beyond_floor | not)) then
		"the same steps, each " + (if $cc.ratio < 1 then "cheaper" else "dearer" end)
	      else "no change to call" end) | line] as $lines
	   | $lines[], (if ($lines | length) > 0 then "" else empty end)),
	  ($m.figures[] | . as $f
	   | ([range(1; $f.sides | length) as $k | $f.changes[$k]
	       | "\($k | run_letter) \(.ratio | rat) [\(.lo | rat), \(.hi | rat)], \(.word)"]
	      | join("; ")) as $w
	   | "\($f.reproducer) \($f.case) \($f.figure)\(if $f.unit != "" then " " + $f.unit else "" end): A \($f.sides[0].mean | num($f.figure))" +
	     (if ($f.sides | length) > 1 then "; " + $w else "" end) +
	     "; floor \($f.floor | pct) (\($f.floor_from))" | line);
