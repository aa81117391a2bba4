# SPDX-License-Identifier: GPL-2.0
#
# The summary a mailing-list thread gets: one line of 72 columns per
# reproducer, from its result JSON (docs/results.md): its verdict, the
# subject's largest judged figure against the largest of its controls
# (ms), the probe, and how many of its runs gave the verdict.
# scripts/run-all (jq -L scripts/lib, include "summary";).
include "text";

# columns: 24 + 1 + 14 + 1 + 14 + 1 + 12 + 1 + 3 ("3/3") = 71, and one
# more for a probe of 13 characters (migrate-batch, memcg-reclaim)
# ms in at most 5 characters where it can be: 1320, 342.7, 2.04, 0.423
def ms: if . == null then "-" elif . >= 100 then fixed(0)
	elif . >= 10 then fixed(1) elif . >= 1 then fixed(2)
	else fixed(3) end;

def judged: if .verdict_on == "trigger calls" then "trigger_call_ms"
	    else "latency_ms" end;

# [subject's max, the controls' largest max] of a result
def figures: judged as $k | (.cases // []) as $c
	| [($c | map(select(.role == "subject")) | .[0][$k].max? // null),
	   ([$c[] | select(.role == "control") | .[$k].max? // empty]
	    | max)];

# a benchmark given no bound: it measured, judged nothing (verdict.h)
def measured: .verdict_policy == "benchmark" and .max_ms_per_gb == null
	and .verdict == "not-reproduced";

def summary_header:
	"reproducer               verdict        subject/ctl ms probe        runs";

# a name longer than its column (a variant's) gets a line of its own
def name_col($name): if ($name | length) > 24 then $name + "\n" + " " * 25
	else ($name | rpad(24)) + " " end;

# one result, or a unit that left no result: $name, $why
def summary_row($name):
	name_col($name) +
	if . == null then "no result"
	elif (.verdict == "skip" or .verdict == "error") then
		(.verdict | rpad(14)) + " " +
		(.reason | if length > 32 then .[:29] + "..." else . end)
	else
		measured as $m |
		(if $m then "measured" else .verdict end | rpad(14)) + " " +
		(figures | "\(.[0] | ms)/\(.[1] | ms)" | rpad(14)) + " " +
		((.cases[0].probe? // "-") | rpad(12)) + " " +
		(if $m then "\(.runs // "-")"
		 elif .runs_agreeing then "\(.runs_agreeing)/\(.runs)"
		 else "-/\(.runs // "-")" end)
	end;
