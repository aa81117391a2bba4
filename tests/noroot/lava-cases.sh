#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/lava/lava-cases, the LAVA test definition's step, on run-all's
# recorded output (tests/data/run-all/), without LAVA: one lava-test-case
# per reproducer line of results.ktap, in its order; pass where the
# verdict is not reproduced, fail where reproduced or an error (or no
# JSON), skip where skipped or inconclusive; the measurement the subject
# case's largest figure of those the verdict compares, in ms. Needs no
# root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

lc=$top/ci/lava/lava-cases
nr=0
for d in "$top"/tests/data/run-all/*/; do
	name=$(basename "$d")
	out=$work/$name.out
	"$lc" --from "$d" >"$out" 2>"$work/$name.err"
	assert "$name: lava-cases exits 0" [ $? = 0 ]
	want=$(sed -n 's/^\(not ok\|ok\) [0-9]* \([^ ]*\).*/\2/p' \
		"$d/results.ktap")
	got=$(awk '$1 == "lava-test-case" { print $2 }' "$out")
	assert_same "$name: one test case per reproducer of results.ktap, in order" \
		"$want" "$got"
	# each line against the JSON, by an independent reading of it
	bad=$(jq -r '.results[] | . as $r
		| (if .verdict_on == "trigger calls" then "trigger_call_ms"
		   else "latency_ms" end) as $f
		| [.reproducer, .verdict,
		   ([.cases[] | select(.role == "subject") | .[$f].max // empty]
		    | max // "")] | @tsv' "$d/results.json" |
	while IFS=$'\t' read -r u v ms; do
		case $v in
		reproduced|error) res=fail ;;
		not-reproduced) res=pass ;;
		*) res=skip ;;
		esac
		line=$(awk -v u="$u" '$1 == "lava-test-case" && $2 == u' "$out")
		[[ "$line" == *"--result $res"* ]] || echo "$u: '$line', want $res"
		if [ -n "$ms" ] && [ "$res" != skip ]; then
			[[ "$line" == *"--measurement $ms --units ms"* ]] ||
				echo "$u: '$line', want $ms ms"
		fi
	done)
	assert "$name: results and measurements follow the verdicts${bad:+ ($bad)}" \
		[ -z "$bad" ]
	grep -q "lava-cases: reported $(echo "$want" | wc -l) test cases" "$out"
	assert "$name: it says how many it reported" [ $? = 0 ]
	nr=$((nr + 1))
done
assert "recorded run-all outputs were read ($nr)" [ $nr -ge 1 ]
finish
