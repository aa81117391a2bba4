#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own KTAP parser (tools/testing/kunit/kunit.py parse, of
# Linux 6.1 and 6.12, through ci/kunit/kunit-parse) reads every KTAP file
# the suite writes: the recorded reports of every reproducer
# (tests/data/runs/: skips, errors of a run and of a case, a benchmark
# among them) and run-all's results.ktap (tests/data/run-all/) and a report with every optional part (tests/tools/full-result).
# It reads each without a crash or an error, and what it parsed (its
# JSON) has every test and case with the result the KTAP lines give.
# Needs no root and changes nothing; a parser that is not installed
# (scripts/install-deps --ci) is a SKIP.
. "$(dirname "$0")/../lib/integration.sh"

kp=$top/ci/kunit/kunit-parse

files=()
for f in "$top"/tests/data/runs/*/*.ktap "$top"/tests/data/run-all/*/*.ktap; do
	files+=("$f")
done
full=$top/build/tests/tools/full-result
mkdir -p "$work/full"
"$full" ktap >"$work/full/full-result.ktap"
assert "full-result writes its KTAP" [ $? = 0 ]
files+=("$work/full/full-result.ktap")

# The leaves the KTAP gives, "TEST STATUS" or "TEST/CASE STATUS", in
# kunit.py's words (PASS, FAIL, SKIP). A case comes before its test's
# result line.
leaves_ktap() {
	awk 'function st(l) { return l ~ /# SKIP/ ? "SKIP" : l ~ /^ *not ok/ ? "FAIL" : "PASS" }
	     /^    (not )?ok [0-9]+ / {
		     c = $1 == "not" ? $4 : $3; cases[++n] = c " " st($0); next }
	     /^(not )?ok [0-9]+ / {
		     t = $1 == "not" ? $4 : $3
		     if (!n) print t " " st($0)
		     for (i = 1; i <= n; i++) print t "/" cases[i]
		     n = 0 }' "$1" | sort
}

# The leaves kunit.py parsed, from its JSON.
leaves_json() {
	sed -n '/^{/,$p' "$1" | jq -r '
		def walk_leaves($p): (.test_cases[] |
			"\($p)\(.name) \(.status)"),
			(.sub_groups[] | walk_leaves("\($p)\(.name)/"));
		walk_leaves("")' | sort
}

for ver in 6.1 6.12; do
	"$kp" "$ver" /dev/null >/dev/null 2>"$work/probe.err"
	if [ $? = 4 ]; then
		echo "ok $((ktap_n += 1)) kunit.py $ver reads the suite's KTAP # SKIP $(tail -1 "$work/probe.err")"
		continue
	fi
	# every file in one Python (kunit.py's main() for each in turn:
	# make check's time), each one's output and verdict apart
	d=$work/kunit-$ver
	rm -rf "$d"
	mkdir -p "$d"
	"$kp" "$ver" --json --outdir "$d" "${files[@]}" 2>"$d/stderr"
	nr=0
	for f in "${files[@]}"; do
		nr=$((nr + 1))
		rel=${f#"$top"/}
		rel=${rel#"$work"/}
		assert "kunit.py $ver reads $rel without a crash or an error" \
			[ "$(cat "$d/$nr.rc" 2>/dev/null)" = 0 ]
		assert_same "kunit.py $ver: every test of $rel, with its result" \
			"$(leaves_ktap "$f")" "$(leaves_json "$d/$nr.out")"
	done
	echo "# here: kunit.py $ver read $nr files"
done
finish
