# SPDX-License-Identifier: GPL-2.0
#
# "Is this kernel fixed?", from the results.json of a run of the
# fingerprint preset (configs/fingerprint.preset; scripts/fingerprint).
# The interval-tree steps are the fingerprint: an unfixed KSM walk
# visits every VMA of the anon_vma for each rmap_item, a fixed one only
# the VMAs that map the page (iter_first and the iter_next that ends
# it: 2 steps). Each path gives {path, function, state, figures, why}:
# state "fixed", "unfixed", "unclear" (between the two) or "unknown"
# (cannot tell here: why says what would be needed).

# At most this many steps per rmap_item: only the page's VMAs.
def few: 8;
# At least this many VMAs on the pattern's anon_vma for the rule to
# tell: an unfixed walk then makes at least vmas / 4 = 32 steps per
# rmap_item, four times the fixed walk's most. With 6 VMAs an unfixed
# walk makes 6 to 12: no more than a fixed one could.
def min_vmas: 16 * few;

def result($name): [.results[]? | select(.reproducer == $name)] | .[0];
def ksm_case: [.cases[]? | select(.page_type == "ksm")] | .[0];

# steps of one caller role in a case: {function, first, steps, per}
def caller($role): [.iterations.by_caller[]? | select(.role == $role)]
	| .[0];

def judge($per; $vmas):
	if $per <= few then "fixed"
	elif $per >= ($vmas / 4) then "unfixed"
	else "unclear" end;

def state_words($s):
	{fixed: "only the VMAs that map the page are visited",
	 unfixed: "every VMA of the anon_vma is visited",
	 unclear: "between the two: neither the page's VMAs alone nor all of them"}[$s];

def unknown($path; $fn; $why):
	{path: $path, function: $fn, state: "unknown", figures: null,
	 why: $why};

# a reproducer that did not count: why, and what would be needed
def not_counted($r):
	if $r == null then "it did not run"
	elif ($r.verdict == "skip" or $r.verdict == "error")
	then "\($r.reproducer) \($r.verdict): \($r.reason)"
	else "no steps were counted (\($r.reproducer): \($r.reason))" end;

def needs: " (the count needs CONFIG_KPROBE_EVENTS, CONFIG_HIST_TRIGGERS and the tree iterators in kallsyms; boot the kernel under QEMU to look: scripts/fingerprint --kernel BZIMAGE)";
def needs_if($why): if ($why | test("--iterations")) then $why + needs
	else $why end;

def too_few($v): "\($v) VMAs cannot tell fixed from unfixed: an unfixed walk would make about as few steps as a fixed one (the rule needs \(min_vmas) or more; the fingerprint preset has 2,000)";

def walk_path:
	result("ksm-mprotect-split") as $r
	| ($r | ksm_case) as $c
	| ($c | caller("walk_ksm")) as $k
	| if $c.iterations == null or $c.iterations.steps_per_rmap_item_mean == null
	  then unknown("KSM walk"; "rmap_walk_ksm"; needs_if(not_counted($r)))
	  elif (($r.pattern.vmas // 0) | type != "number" or . < min_vmas)
	  then unknown("KSM walk"; "rmap_walk_ksm"; too_few($r.pattern.vmas // 0))
	  else ($r.pattern.vmas) as $v
	  | (if $k != null and $k.steps_per_first_call != null
	     then $k.steps_per_first_call
	     else $c.iterations.steps_per_rmap_item_mean end) as $per
	  | {path: "KSM walk", function: ($k.function // "rmap_walk_ksm"),
	     state: judge($per; $v),
	     figures: {steps_per_rmap_item: $per,
		       steps_per_walk: $c.iterations.steps_per_walk_mean,
		       walks: $c.iterations.walks, vmas: $v,
		       counted_on: $c.iterations.counted_on},
	     why: "\($per) steps per rmap_item (\($c.iterations.steps_per_walk_mean) per walk, \($c.iterations.walks) walks) against the \($v) VMAs of the pattern's anon_vma: \(state_words(judge($per; $v)))"}
	  end;

def memfail_path:
	result("ksm-memory-failure") as $r
	| ($r | ksm_case) as $c
	| ($c | caller("collect_ksm")) as $k
	| if $c.iterations == null
	  then unknown("memory failure"; "collect_procs_ksm";
		       needs_if(not_counted($r)))
	  elif $c.iterations.by_caller == null
	  then unknown("memory failure"; "collect_procs_ksm";
		       "the steps were counted but not split by caller: this kernel's hist triggers refused a stacktrace key")
	  elif $k == null
	  then unknown("memory failure"; "collect_procs_ksm";
		       "no step was made inside collect_procs_ksm (it may be inlined here, or memory_failure() did not look for the processes)")
	  elif (($r.pattern.vmas // 0) | type != "number" or . < min_vmas)
	  then unknown("memory failure"; "collect_procs_ksm";
		       too_few($r.pattern.vmas // 0))
	  else ($r.pattern.vmas) as $v
	  | $k.steps_per_first_call as $per
	  | {path: "memory failure", function: $k.function,
	     state: judge($per; $v),
	     figures: {steps_per_first_call: $per, steps: $k.steps,
		       iter_first_calls: $k.iter_first_calls, vmas: $v},
	     why: "\($per) steps per tree lookup in \($k.function) (\($k.steps) steps, \($k.iter_first_calls) lookups) against the \($v) VMAs of the pattern: \(state_words(judge($per; $v)))"}
	  end;

# an oracle's path: ksm-mremap (migration) or ksm-mremap@swap (reclaim)
def oracle_path($name; $path; $good; $bad):
	result($name) as $r
	| [$r.cases[]? | select(.oracle != null) | .oracle] as $o
	| [$r.cases[]? | select(.page_type == "ksm") | .oracle] | .[0] as $k
	| if $r == null or $r.verdict == "skip" or $r.verdict == "error"
	     or ($o | length) == 0 or $k == null
	  then unknown($path; "oracle"; not_counted($r))
	  else ($k.pages_failed + $k.mappings_missed) as $bad_n
	  | {path: $path, function: "oracle",
	     state: (if $bad_n == 0 then "correct" else "broken" end),
	     figures: {pages_checked: $k.pages_checked,
		       mappings_checked: $k.mappings_checked,
		       failed: $bad_n},
	     why: (if $bad_n == 0
		   then "\($good) (\($k.mappings_checked) mappings checked)"
		   else "\($bad): \($k.reason)" end)}
	  end;

def mremap_path: oracle_path("ksm-mremap"; "mremap, then migration";
	"every mapping of the moved KSM pages followed its page";
	"pages or mappings were left behind after mremap: the walk lost them");

def swap_path: oracle_path("ksm-mremap@swap"; "mremap, then swap-out";
	"reclaim swapped the moved KSM page out with every mapping of it, and it came back intact";
	"the moved KSM page was not swapped out whole: the walk lost mappings");

def fingerprint:
	(.system.kernel.release // .results[0].kernel.release // "unknown")
		as $k
	# the reproducers' own reading of the release (model/kline.c)
	| {kernel: $k,
	   release_has_walk_fix: ([.results[]?.release_has_walk_fix] | .[0]),
	   paths: [walk_path, memfail_path, mremap_path, swap_path]}
	| .answer = ([.paths[] | select(.path == "KSM walk")] | .[0].state);

def line_words: if .release_has_walk_fix == true
	then "7.3 or later: mainline has had the walk fix since 7.3-rc1, so an unfixed walk here is a regression"
	elif .release_has_walk_fix == false
	then "before 7.3: a fixed walk here is a backport"
	else "the release gives no version" end;

def fingerprint_text:
	fingerprint as $f
	| "fingerprint of Linux \($f.kernel) (\($f | line_words))",
	  ($f.paths[] | "  \(.path) (\(.function)): \(.state | ascii_upcase)",
		       "    \(.why)"),
	  "answer: the KSM walk is \({fixed: "FIXED", unfixed: "UNFIXED",
		unclear: "UNCLEAR", unknown: "not known here"}[$f.answer])";
