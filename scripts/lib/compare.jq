# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare's model and drawing (jq -L scripts/lib,
# include "compare";): the samples rmap-stat tests, its answers read
# back, the comparison of two or more runs as JSON, and its text and
# Markdown tables. Tested on the samples in docs/ by tests/noroot/jq.sh.
include "text";

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
	| to_entries | map(.value + {run: ([65 + .key] | implode)}) as $runs
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
			 | "not in run \([65 + .key] | implode)"] +
			([$rs[] | select(.) | .cases[].name] | first_seen) as $all
			| [$rs | to_entries[] | select(.value) | .key as $k
			   | ([.value.cases[].name]) as $have
			   | $all[] | select(. as $c | $have | index([$c]) | not)
			   | "case \(.) not in run \([65 + $k] | implode)"]),
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
