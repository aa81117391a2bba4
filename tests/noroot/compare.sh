#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare on real results: this machine's sample run (memcg-reclaim
# brackets) against the shared 6.12 kernel's VM run (rmap-tp walks), both
# kept in docs/. Its ratios must be those of the two JSON files, it must
# warn that the probes differ, mark a verdict that changed, fit 72
# columns, and say the same in its three formats; a reproducer or a case
# missing from a run is said so. Then on synthetic runs: a change is
# significant only where the rank test and the noise floor agree, with
# rmap-stat's arithmetic, and the ratio of steps stands beside it.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

cmp=$top/scripts/compare
a=$top/docs/sample-results.json
b=$top/docs/sample-vm-results.json
before=$(snapshot)

"$cmp" "$a" "$b" >"$work/t.txt" 2>"$work/t.err"
assert "text: exit 0" [ $? = 0 ]
"$cmp" --format json "$a" "$b" >"$work/c.json"
assert "json: exit 0" [ $? = 0 ]
"$cmp" --format markdown "$a" "$b" >"$work/m.md"
assert "markdown: exit 0" [ $? = 0 ]

# every case's max, p50, p99 and mean: the ratio of the two files' figures
for f in max p50 p99 mean; do
	want=$(jq -n --slurpfile a "$a" --slurpfile b "$b" --arg f $f \
		'[$a[0].results[0].cases, $b[0].results[0].cases] | transpose
		 | map(.[1].latency_ms[$f] / .[0].latency_ms[$f])')
	got=$(jq --arg f $f '[.reproducers[0].cases[].rows[]
		| select(.figure == $f) | .ratios[1]]' "$work/c.json")
	assert "json: the $f ratio of each case is B/A of the two files" \
		jq -n --argjson w "$want" --argjson g "$got" -e \
		'($w | length) == 3 and ([$w, $g] | transpose
		 | all((.[0] - .[1] | fabs) < 1e-9))'
done
max_b=$(jq -r '.results[0].cases[0].latency_ms.max' "$b")
ratio=$(jq -n --slurpfile a "$a" --slurpfile b "$b" -r \
	'$b[0].results[0].cases[0].latency_ms.max /
	 $a[0].results[0].cases[0].latency_ms.max | . * 100 | round / 100')
# the ratio as compare prints it: three significant digits
row=$(grep -m1 -E "^ksm +max ms +[0-9.]+ +$(printf %.3f "$max_b") +[0-9.,]+x$" \
	"$work/t.txt" | awk '{ print $NF }' | tr -d 'x,')
assert "text: the KSM row gives B's max ($max_b ms) and its ratio (${ratio}x; printed ${row:-none}x)" \
	awk -v r="$ratio" -v p="${row:-0}" 'BEGIN { exit !(p > 0 && (p - r) / r < 0.01 && (r - p) / r < 0.01) }'
assert "text: warns that the probes differ, naming them" \
	grep -q "warning: probes differ (A memcg-reclaim, B rmap-tp): a bracket" \
	"$work/t.txt"
assert_jq "json: the same warning, the two probes, no verdict change" \
	"$work/c.json" '.reproducers[0] | (.warnings[0] | test("^probes differ")) and .probes == ["memcg-reclaim", "rmap-tp"] and .verdict_changed == [false, false]'
assert "text: no line wider than 72 columns" \
	bash -c "! awk 'length > 72' '$work/t.txt' | grep -q ."
assert "markdown: a table per reproducer, the warning quoted" \
	bash -c "grep -qx '| case | figure | A | B | ratio |' '$work/m.md' &&
		 grep -q '^> \*\*warning:\*\* probes differ' '$work/m.md' &&
		 grep -Eq '^\| ksm \| max ms \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|$' '$work/m.md'"

# a changed verdict is marked; a directory holding results.json will do
mkdir -p "$work/patched"
jq '.results[0].verdict = "not-reproduced"' "$b" \
	>"$work/patched/results.json"
"$cmp" "$b" "$work/patched" >"$work/v.txt"
assert "a changed verdict is marked with *" \
	grep -q "verdict: A reproduced, B not-reproduced \*$" "$work/v.txt"
"$cmp" --format json "$b" "$work/patched" >"$work/v.json"
assert_jq "json: verdict_changed says which run" "$work/v.json" \
	'.reproducers[0].verdict_changed == [false, true] and .reproducers[0].warnings == []'

# a reproducer missing from a run, and a fourth run: tables wrap
jq '.results[0].reproducer = "other"' "$b" >"$work/other.json"
"$cmp" "$a" "$b" "$work/other.json" "$b" >"$work/w.txt"
assert "a reproducer missing from a run is said so" \
	grep -q "warning: not in run C" "$work/w.txt"
assert "four runs: still 72 columns, the baseline in every table" \
	bash -c "! awk 'length > 72' '$work/w.txt' | grep -q . &&
		 [ \$(grep -Ec '^case +figure +A +B +C\$' '$work/w.txt') -ge 1 ] &&
		 [ \$(grep -Ec '^case +figure +A +D\$' '$work/w.txt') -ge 1 ]"

# a case missing from a run: said so, its figures "-", no ratio
jq 'del(.results[0].cases[2])' "$b" >"$work/nofile.json"
"$cmp" --format json "$b" "$work/nofile.json" >"$work/nf.json"
assert_jq "a case missing from a run is said so, its figures null" \
	"$work/nf.json" '.reproducers[0] | (.warnings == ["case file not in run B"]) and (.cases[2] | .name == "file" and (.rows[0].values[1] == null) and (.rows[0].ratios[1] == null))'
"$cmp" "$b" "$work/nofile.json" >"$work/nf.txt"
assert "text: the missing case's row shows - for B" \
	grep -Eq '^file +max ms +[0-9.]+ +-$' "$work/nf.txt"

# --- significance: synthetic runs whose samples are known ---------------
# a result with a subject and a control; its samples are VALUES x SCALE
synth() {
	jq -n --argjson k "$1" --argjson c "$2" --arg v "$3" '
		def case($n; $r; $s): {name: $n, role: $r, page_type: "anon",
		  probe: "rmap-tp",
		  latency_ms: {count: 200, max: ($s * 2), p50: $s},
		  samples_ms: {of: "latency_ms", count: 200, kept: 200,
			       cap: 1000,
			       values: [range(200) | $s * (0.5 + . / 200)]}};
		{schema: "rmap-repro-result/1", reproducer: "syn", verdict: $v,
		 kernel: {release: "test"}, runs: 3,
		 cases: [case("ksm"; "subject"; $k), case("anon"; "control"; $c)]}'
}
synth 700 0.4 reproduced >"$work/s-a.json"
synth 0.7 0.4 not-reproduced >"$work/s-b.json"
synth 910 0.4 reproduced >"$work/s-c.json"	# 1.3x: beyond p, within noise
"$cmp" --format json "$work/s-a.json" "$work/s-b.json" "$work/s-c.json" \
	>"$work/s.json"
assert_jq "a 1000x fall is faster and significant; an unchanged control within noise" \
	"$work/s.json" '.reproducers[0].cases | (.[0].changes[1] | .significant and .word == "faster, significant" and (.ratio - 0.001 | fabs) < 1e-9 and .p < 1e-12) and (.[1].changes[1] | (.significant | not) and .word == "within noise" and .ratio == 1)'
assert_jq "a 1.3x change with p far below 0.01 is within the 50% noise floor" \
	"$work/s.json" '.noise_pct == 50 and (.reproducers[0].cases[0].changes[2] | .p < 1e-6 and (.ratio - 1.3 | fabs) < 1e-9 and (.significant | not) and .word == "within noise")'
"$cmp" --format json --noise 10 "$work/s-a.json" "$work/s-c.json" \
	>"$work/s10.json"
assert_jq "--noise 10: the same 1.3x is slower and significant" \
	"$work/s10.json" '.reproducers[0].cases[0].changes[1] | .significant and .word == "slower, significant"'
# the same arithmetic as the reproducers: rmap-stat on the same samples
want=$(jq -r '"x \(.cases[0].samples_ms.kept) " + (.cases[0].samples_ms.values | map(tostring) | join(" ")) + " \(.cases[0].samples_ms.kept) " + (.cases[0].samples_ms.values | map(tostring) | join(" "))' "$work/s-c.json" |
	"$top/build/bin/rmap-stat" | awk '{ print $2 }')
assert "the p-value is rmap-stat's on the same samples (p = $want for equal samples)" \
	[ "$want" = 1 ]
"$cmp" "$work/s-a.json" "$work/s-b.json" >"$work/s.txt"
# the text, its wrapped lines joined
joined() {
	sed 's/^  / /' "$1" | tr '\n' '\t' | sed 's/\t / /g' | tr '\t' '\n'
}
joined "$work/s.txt" >"$work/s.joined"
assert "text: the summary comes first, a line per case, the verdict change on the subject's" \
	bash -c "head -1 '$work/s.txt' | grep -q '^Summary: the ratio of each run' &&
		 grep -q '^syn ksm: B 0.0010x \[0.0009x, 0.0011x\] faster, significant, max 0.0010x; verdict reproduced -> not-reproduced\$' '$work/s.joined' &&
		 grep -q '^syn anon: B 1.00x \[0.91x, 1.11x\] within noise, max 1.00x\$' '$work/s.joined'"
# steps beside time: --iterations in both runs
jq '.cases[0].iterations = {steps_per_walk_mean: 4000}' "$work/s-a.json" \
	>"$work/i-a.json"
jq '.cases[0].iterations = {steps_per_walk_mean: 3}' "$work/s-b.json" \
	>"$work/i-b.json"
"$cmp" "$work/i-a.json" "$work/i-b.json" >"$work/i.txt"
assert "the ratio of steps per walk stands beside the ratio of times" \
	grep -q '^syn ksm: B 0.0010x .* faster, significant, max 0.0010x, steps 0.0008x;' \
	<(joined "$work/i.txt")
# three calls against three cannot reach p < 0.01: said so, not "noise"
jq '.cases |= map(.samples_ms.values |= .[:3] | .samples_ms.kept = 3)' \
	"$work/s-a.json" >"$work/f-a.json"
jq '.cases |= map(.samples_ms.values |= .[:3] | .samples_ms.kept = 3)' \
	"$work/s-b.json" >"$work/f-b.json"
"$cmp" --format json "$work/f-a.json" "$work/f-b.json" >"$work/f.json"
assert_jq "3 samples against 3: too few to tell, whatever the ratio" \
	"$work/f.json" '.reproducers[0].cases[0].changes[1] | (.significant | not) and (.word | test("^too few samples to tell \\(p cannot go below 0.1"))'
"$cmp" --noise x "$work/s-a.json" "$work/s-b.json" >/dev/null 2>&1
assert "--noise that is not a whole percentage: exit 2" [ $? = 2 ]

# usage errors
"$cmp" "$a" >/dev/null 2>"$work/e1"
assert "one run: exit 2, says it needs two" \
	bash -c "[ $? = 2 ] && grep -q 'needs two runs' '$work/e1'"
echo '[1]' >"$work/bad.json"
"$cmp" "$a" "$work/bad.json" >/dev/null 2>"$work/e2"
assert "not a results file: exit 2, naming it" \
	bash -c "[ $? = 2 ] && grep -q 'bad.json: refused: an array, not a results file' '$work/e2'"
"$cmp" --format xml "$a" "$b" >/dev/null 2>&1
assert "an unknown format: exit 2" [ $? = 2 ]
assert_same "nothing changed" "$before" "$(snapshot)"
finish
