#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The three formats, without root: on recorded runs of every reproducer
# (tests/data/runs/), and on a report with every optional part that
# this build writes (tests/tools/full-result), the text, KTAP and JSON
# say the same verdict and the same per-case counts and maxima, and each
# recorded verdict follows from its figures by the documented rule.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

nr=0
for dir in "$top"/tests/data/runs/*/; do
	for j in "$dir"*.json; do
		name=$(basename "$j" .json)
		nr=$((nr + 1))
		assert_formats "$(basename "$dir") $name: three formats agree" \
			"$dir" "$name"
		assert_jq "$(basename "$dir") $name: the verdict follows by the documented rule" \
			"$j" "if (.verdict == \"skip\" or .verdict == \"error\") then true else .verdict == ($verdict_rule) and .run_verdicts == ($run_rule) end"
	done
done
echo "# here: $nr recorded reports"
assert "recorded reports were read ($nr)" [ $nr -ge 10 ]

# This build's writers, on made-up figures with every part filled in.
full=$top/build/tests/tools/full-result
mkdir -p "$work/full"
"$full" text >"$work/full/full-result.txt" &&
	"$full" ktap >"$work/full/full-result.ktap" &&
	"$full" json >"$work/full/full-result.json"
assert "full-result writes its three formats" [ $? = 0 ]
assert_formats "full-result: three formats agree" "$work/full" full-result

# Byte for byte what was recorded (tests/data/full-result/TRIGGER.FORMAT):
# a change that should not alter a report does not. One that should
# remakes them (tests/data/README) and says why in its commit.
nr=0
for f in "$top"/tests/data/full-result/*.*; do
	b=$(basename "$f")
	nr=$((nr + 1))
	"$full" "${b##*.}" "${b%.*}" >"$work/full/recorded-$b"
	if cmp -s "$f" "$work/full/recorded-$b"; then
		ok "full-result ${b%.*} ${b##*.}: as recorded"
	else
		not_ok "full-result ${b%.*} ${b##*.}: as recorded" \
			"$(diff "$f" "$work/full/recorded-$b" | head -20)"
	fi
done
assert "every trigger's full-result is recorded in three formats ($nr)" \
	[ "$nr" -ge 27 ]
finish
