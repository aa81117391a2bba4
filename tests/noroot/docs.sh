#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The JSON contract and the samples agree with the writer: every key the
# JSON writer can emit (tests/tools/full-result fills every optional
# part) is documented in docs/results.md and appears in a sample that
# scripts/samples made from real runs; and the reverse: every key of the
# samples, and every field the tables of docs/results.md name, is the
# writer's (or run-all's). The new figures are in all three formats.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

full=$top/build/tests/tools/full-result
md=$top/docs/results.md
before=$(snapshot)

# the key names of JSON files, one per line
keys() {
	jq -r '[paths | map(select(type == "string")) | .[-1] |
		select(. != null)] | unique[]' "$@" | sort -u
}

# one report per trigger with figures of its own (each writes its keys)
"$full" json >"$work/full.json"
files=("$work/full.json")
for t in $("$full" --triggers); do
	"$full" json "$t" >"$work/full-$t.json"
	files+=("$work/full-$t.json")
done
assert "full-result writes valid JSON, for each trigger with figures of its own (${#files[@]} reports)" \
	jq -e . "${files[@]}"
assert "more than one trigger keeps figures of its own" [ ${#files[@]} -ge 3 ]
keys "${files[@]}" >"$work/writer"
grep -o '`[a-z_0-9-]*`' "$md" | tr -d '`' | sort -u >"$work/doc"
keys "$top"/docs/sample-*.json >"$work/samples"
# the fields the tables name: their first column
sed -n 's/^| \(`[^|]*\) |.*/\1/p' "$md" | grep -o '`[a-z_0-9-]*`' |
	tr -d '`' | sort -u >"$work/fields"

check() {
	local desc=$1 missing

	missing=$(comm -23 "$2" "$3" | tr '\n' ' ')
	if [ -z "$missing" ]; then
		ok "$desc"
	else
		not_ok "$desc" "missing: $missing"
	fi
}
assert "the writer emits keys ($(wc -l <"$work/writer"))" \
	[ "$(wc -l <"$work/writer")" -gt 150 ]
check "every key the JSON writer emits is in docs/results.md" \
	"$work/writer" "$work/doc"
check "every key the JSON writer emits is in a docs/sample-*.json" \
	"$work/writer" "$work/samples"
check "every key of the samples is in docs/results.md" \
	"$work/samples" "$work/doc"
# run-all's own keys are in the samples, not the reproducers' writer
sort -u "$work/writer" "$work/samples" >"$work/either"
check "every field docs/results.md's tables name is emitted (by a reproducer or run-all)" \
	"$work/fields" "$work/either"

# The figures (common/figure/): each names the JSON members it writes
# in a case, and each is a field of docs/results.md's table of a case
# and is in the full report's cases.
"$full" --figures >"$work/figures"
assert "the figures are listed ($(wc -l <"$work/figures"))" \
	[ "$(wc -l <"$work/figures")" -ge 10 ]
sed -n '/^### A case/,/^## /p' "$md" | sed -n 's/^| \(`[^|]*\) |.*/\1/p' |
	grep -o '`[a-z_0-9-]*`' | tr -d '`' | sort -u >"$work/case-fields"
cut -d' ' -s -f2- "$work/figures" | tr ' ' '\n' | sort -u >"$work/fig-keys"
check "every figure's JSON member is a field of docs/results.md's table of a case" \
	"$work/fig-keys" "$work/case-fields"
jq -r '.cases[0] | keys[]' "$work/full.json" | sort -u >"$work/case-keys"
check "every figure's JSON member is in a case of the full report" \
	"$work/fig-keys" "$work/case-keys"

# every sample was made by scripts/samples from a real run: it names
# the suite that made it and the preset
assert_jq "the samples are run-all runs of the samples presets" \
	<(jq -s . "$top"/docs/sample-*-results.json "$top"/docs/sample-results.json) \
	'all(.[]; .schema == "rmap-repro-run/1" and (.preset | startswith("samples")) and (.results | all(.suite_version != "")))'

# the figures this verdict added, in all three formats
"$full" text >"$work/full.txt"
"$full" ktap >"$work/full.ktap"
assert "text: the runs, the evidence, the cost per step" \
	bash -c "grep -q '^Runs     2 made (--runs 2, --max-runs 6)' '$work/full.txt' &&
		 grep -q '^Evidence ratio of medians' '$work/full.txt' &&
		 tr -s ' \n' ' ' <'$work/full.txt' | grep -q 'us per step'"
assert "KTAP: the runs, the evidence, each case's per-run maxima" \
	bash -c "grep -q '^# runs: 2 made' '$work/full.ktap' &&
		 grep -q '^# evidence: ratio of medians' '$work/full.ktap' &&
		 grep -q '^    # ksm: per run, interval max ms: 1000.000 1000.000' '$work/full.ktap'"
assert_jq "JSON: the runs, the evidence, the per-run figures, the samples, the tests, the cost per step" \
	"$work/full.json" '.runs == 2 and .run_verdicts == ["reproduced", "reproduced"] and .evidence.significant != null and (.cases[0].per_run | length) == 2 and .cases[0].samples_ms.kept == 4 and .cases[1].test.p != null and .cases[0].iterations.us_per_step != null'
# the kernel functions by role: docs/probes.md shows the table the code has
sed -n '/^<!-- rmap-probes --roles -->$/,/^<!-- end -->$/p' \
	"$top/docs/probes.md" | sed '1d;$d' >"$work/roles.doc"
"$top/build/bin/rmap-probes" --roles >"$work/roles.code"
assert "docs/probes.md's table of kernel functions is rmap-probes --roles ($(grep -c '^| `' "$work/roles.code") roles)" \
	bash -c "[ -s '$work/roles.code' ] && cmp -s '$work/roles.doc' '$work/roles.code'"
assert "the step counter's iterators have both namings in the table" \
	bash -c "grep -q 'anon_rmap_tree_iter_first' '$work/roles.code' &&
		 grep -q 'anon_vma_interval_tree_iter_first' '$work/roles.code' &&
		 grep -q 'mapping_rmap_tree_iter_next' '$work/roles.code' &&
		 grep -q '\`vma_interval_tree_iter_next' '$work/roles.code'"
assert_same "the machine is as before" "$before" "$(snapshot)"
finish
