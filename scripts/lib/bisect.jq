# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm-run --bisect --baseline FILE --max-change PCT: the kernel
# judged on its cost against a good kernel's run (jq -L scripts/lib,
# include "bisect";). Never "good" on a failure: a code of git bisect
# run's and the lines that say why.
#
#   like_baseline($b; $n)  why the run $n was not made as the baseline
#                          $b was (another command line or clock), or ""
#   cost($b; $n; $x)       {code, lines}: 1 (bad) when a subject case's
#                          mean walk rose by more than $x percent; 125
#                          (skip) when a reproducer of the baseline has
#                          no subject mean here, or said error or skip;
#                          0 (good) otherwise

include "text";

# each reproducer's subject mean: {NAME: mean or null}
def subject_means: [.results[] | {key: .reproducer,
	value: ((.cases // []) | map(select(.role == "subject"))
		| .[0].latency_ms.mean // null)}] | from_entries;

# a reproducer's options, --out aside (its path is the run's own)
def options_of: .command // "" | sub(" --out [^ ]*"; "");
def clock_of: ([.results[] | .system.exact_clock? // "wall time"] | unique);

def like_baseline($b; $n):
	if ($b | clock_of) != ($n | clock_of) then
		"the baseline ran on \($b | clock_of | join(", ")), this run on \($n | clock_of | join(", "))"
	else
		([$b.results[] | {key: .reproducer, value: options_of}]
		 | from_entries) as $bo
		| [$n.results[] | select(($bo[.reproducer] // null) != null and
					 $bo[.reproducer] != options_of)
		   | "\(.reproducer) ran '\(options_of)', the baseline '\($bo[.reproducer])'"]
		| .[0] // ""
	end;

def cost($b; $n; $x):
	($b | subject_means) as $base
	| ($n | subject_means) as $now
	| ([$n.results[] | {key: .reproducer, value: .verdict}] | from_entries)
		as $verdict
	| [$base | to_entries[] | select(.value != null and .value > 0)
	   | .key as $k
	   | if ($verdict[$k] // null) == "error" or
		($verdict[$k] // null) == "skip" then
		{code: 125, line: "\($k): \($verdict[$k]) here: cannot be judged (skip)"}
	     elif ($now[$k] // null) == null then
		{code: 125, line: "\($k): no subject mean here, where the baseline has one: cannot be judged (skip)"}
	     else (($now[$k] / .value) as $r
		   | (($r - 1) * 100) as $pct
		   | {code: (if $pct > $x then 1 else 0 end),
		      line: "\($k): mean walk \($r | fixed(4))x the baseline's (\(if $pct >= 0 then "+" else "" end)\($pct | fixed(3))%, at most +\($x)%): \(if $pct > $x then "bad" else "good" end)"})
	     end] as $per
	| if ($per | length) == 0 then
		{code: 125, lines: ["no reproducer of the baseline has a subject mean: nothing to judge (skip)"]}
	  else
		{code: (if any($per[]; .code == 125) then 125
			elif any($per[]; .code == 1) then 1 else 0 end),
		 lines: [$per[].line]}
	  end;
