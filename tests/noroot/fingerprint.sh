#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/fingerprint on recorded runs of the fingerprint preset
# (tests/data/fingerprint/: the shared unfixed and -ksmfix 6.12 kernels
# under QEMU, and this machine, whose kernel cannot count steps): each
# path's state follows from the step figures by the documented rule
# (at most 8 steps per rmap_item: fixed; at least a quarter of the
# pattern's VMAs: unfixed; between: unclear), the exit code from the
# KSM walk's, the text and JSON agree, and what this kernel cannot tell
# is said with the reason. Then synthetic edits of a run: a count in
# between, a kernel past 7.3, a received file that names a path.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

fp=$top/scripts/fingerprint
d=$top/tests/data/fingerprint
before=$(snapshot)

run() {	# FILE: text in $work/t, JSON in $work/j, exit codes in rc, rcj
	"$fp" --results "$1" >"$work/t" 2>&1
	rc=$?
	"$fp" --results "$1" --json >"$work/j" 2>/dev/null
	rcj=$?
}

run "$d/unfixed-results.json"
assert "unfixed kernel: exit 1 in both formats" [ "$rc/$rcj" = 1/1 ]
assert_jq "unfixed kernel: the walk and memory failure unfixed, mremap correct" \
	"$work/j" '[.paths[].state] == ["unfixed", "unfixed", "correct", "correct"] and .answer == "unfixed" and .kernel == "6.12.117" and .release_has_walk_fix == false'
want=$(jq '[.results[] | select(.reproducer == "ksm-mprotect-split")
	| .cases[] | select(.page_type == "ksm")
	| .iterations.steps_per_rmap_item_mean][0]' "$d/unfixed-results.json")
assert_jq "unfixed kernel: the walk's figure is the run's KSM steps per rmap_item ($want)" \
	"$work/j" ".paths[0].figures.steps_per_rmap_item == $want and $want >= (.paths[0].figures.vmas / 4)"
assert "unfixed kernel: the text says the same, with the figures" \
	bash -c "grep -q '^  KSM walk (rmap_walk_ksm): UNFIXED' '$work/t' &&
		 grep -q '^  mremap, then swap-out (oracle): CORRECT' '$work/t' &&
		 grep -q '^    $want steps per rmap_item' '$work/t' &&
		 grep -q 'memory failure (collect_procs_ksm): UNFIXED' '$work/t' &&
		 grep -q '^answer: the KSM walk is UNFIXED' '$work/t'"

run "$d/fixed-results.json"
assert "-ksmfix kernel: exit 0" [ "$rc/$rcj" = 0/0 ]
assert_jq "-ksmfix kernel: the walk fixed (at most 8 steps per rmap_item), memory failure not (as built)" \
	"$work/j" '[.paths[].state] == ["fixed", "unfixed", "correct", "correct"] and .paths[0].figures.steps_per_rmap_item <= 8'
assert "-ksmfix kernel: a fixed walk before 7.3 is a backport" \
	bash -c "grep -q 'before 7.3: a fixed walk here is a backport' '$work/t' &&
		 grep -q '^answer: the KSM walk is FIXED' '$work/t'"

run "$d/host-results.json"
assert "this machine: exit 4, cannot tell" [ "$rc/$rcj" = 4/4 ]
assert_jq "this machine: every counted path unknown, with the reason and what is needed; the swap-out oracle ran" \
	"$work/j" '[.paths[].state] == ["unknown", "unknown", "unknown", "correct"] and (.paths[0].why | test("no kprobe_events") and test("scripts/fingerprint --kernel"))'

# in between: neither the page's VMAs nor all of them
jq '(.results[] | select(.reproducer == "ksm-mprotect-split") | .cases[0]
	.iterations.steps_per_rmap_item_mean) = 300' \
	"$d/unfixed-results.json" >"$work/mid.json"
run "$work/mid.json"
assert_jq "300 steps per rmap_item of 2000 VMAs: unclear, exit 4" "$work/j" \
	'.paths[0].state == "unclear"'
assert "...exit 4" [ "$rc" = 4 ]

# a walk split by caller (as memory failure's are): rmap_walk_ksm's own
# steps per iter_first call, not the task's
jq '(.results[] | select(.reproducer == "ksm-mprotect-split") | .cases[0]
	.iterations) |= (.by_caller = [{function: "rmap_walk_ksm", role: "walk_ksm", iter_first_calls: 192, steps: 384, steps_per_first_call: 2}])' \
	"$d/unfixed-results.json" >"$work/split.json"
run "$work/split.json"
assert_jq "a walk with by_caller: judged by rmap_walk_ksm's steps per iter_first call" "$work/j" \
	'.paths[0].state == "fixed" and .paths[0].figures.steps_per_rmap_item == 2'

# Hugh Dickins' case: the walk lost a mapping of the moved KSM page
jq '(.results[] | select(.reproducer == "ksm-mremap@swap") | .cases[0].oracle)
	|= (.mappings_missed = 1 | .reason = "1 of 256 mappings of the page at +0 kept it in memory (first: +4096): the walk did not unmap them")' \
	"$d/unfixed-results.json" >"$work/lost.json"
run "$work/lost.json"
assert_jq "a mapping kept the moved KSM page in memory: the swap-out path BROKEN, with the oracle's words" \
	"$work/j" '.paths[3].state == "broken" and (.paths[3].why | test("kept it in memory"))'

# past 7.3: an unfixed walk is a regression
jq '.system.kernel.release = "7.4.0-rc2" | .results[].release_has_walk_fix = true' \
	"$d/unfixed-results.json" \
	>"$work/74.json"
run "$work/74.json"
assert "7.4: an unfixed walk there is a regression" \
	bash -c "grep -q '7.3 or later: .* a regression' '$work/t' && [ $rc = 1 ]"

# received data: names are checked, other files refused
jq '.results[0].reproducer = "../../etc/x"' "$d/unfixed-results.json" \
	>"$work/bad.json"
"$fp" --results "$work/bad.json" >/dev/null 2>"$work/bad.err"
assert "a results.json that names a path: refused (exit 2)" \
	bash -c "[ $? = 2 ] && grep -q \"'../../etc/x' is not a name of this suite's\" '$work/bad.err'"
# a pattern too small for the rule: 6 VMAs cannot tell, whatever it says
jq '(.results[] | select(.reproducer == "ksm-mprotect-split" or
	.reproducer == "ksm-memory-failure") | .pattern.vmas) = 6' \
	"$d/fixed-results.json" >"$work/six.json"
run "$work/six.json"
assert_jq "a 6-VMA pattern: UNKNOWN, '6 VMAs cannot tell fixed from unfixed', exit 4 (not FIXED, 0)" \
	"$work/j" '.answer == "unknown" and (.paths[0].why | test("^6 VMAs cannot tell fixed from unfixed")) and .paths[1].state == "unknown"'
assert "...exit 4 in both formats, and the text says it" \
	bash -c "[ $rc/$rcj = 4/4 ] && grep -q 'answer: the KSM walk is not known here' '$work/t' &&
		 grep -q '6 VMAs cannot tell' '$work/t'"
# control characters in the release: refused before anything is printed
jq '.system.kernel.release = "6.12\u001b]0;fixed\u0007\u001b[2J"' \
	"$d/unfixed-results.json" >"$work/esc.json"
"$fp" --results "$work/esc.json" >"$work/esc.out" 2>"$work/esc.err"
rc=$?
assert "a release with escape sequences: refused (exit $rc), nothing printed raw" \
	bash -c "[ $rc = 2 ] && [ ! -s '$work/esc.out' ] &&
		 ! grep -q \$'\\x1b' '$work/esc.err' && grep -q 'control character (U+001B)' '$work/esc.err'"
echo '{"schema": "rmap-repro-result/1"}' >"$work/one.json"
"$fp" --results "$work/one.json" >/dev/null 2>&1
assert "a reproducer's own JSON, not a run's: refused (exit 2)" [ $? = 2 ]
"$fp" --results "$d/host-results.json" --kernel x >/dev/null 2>&1
assert "--results with --kernel: a usage error (exit 2)" [ $? = 2 ]
"$fp" --help | grep -q '^Usage: scripts/fingerprint'
assert "--help prints the usage" [ $? = 0 ]
assert_same "the machine is as before" "$before" "$(snapshot)"
finish
