#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lkp-tests program's parse (ci/lkp/programs/rmap-repro/parse), without
# root: on recorded runs of every reproducer (tests/data/runs/), on a
# report with every optional part (tests/tools/full-result) and on
# run-all's recorded results (docs/sample*-results.json,
# tests/data/run-all/), its stats are lkp's "key: value"
# lines with numbers, each key once, and they say what the KTAP report of
# the same run says: the reproducer's and each case's result, and each
# measured case's max, p50 and interval count. The subject's ratio to the
# controls is checked against the figures the verdict's reason names.
. "$(dirname "$0")/../lib/integration.sh"

parse=$top/ci/lkp/programs/rmap-repro/parse

# lkp's dump-stat takes "KEY: NUMBER" (no blank in KEY) and '#' comments.
well_formed() {
	awk '/^#/ { next }
	     !/^[A-Za-z0-9_.@+-]+: -?[0-9]+(\.[0-9]+)?$/ { bad++ }
	     { n[$1]++; if (n[$1] == 2) dup++ }
	     END { exit (bad || dup || NR == 0) }' "$1"
}

# What the KTAP report of one reproducer says, as the stats would say it:
# "REPRO.RESULT: 1", "REPRO.CASE.RESULT: 1", and for a measured case
# max_ms, p50_ms (3 decimals, as KTAP prints them) and intervals.
from_ktap() {
	awk -v u="$2" '
	function k(s) { gsub(/[^A-Za-z0-9_.@+-]/, "_", s); return s }
	/^    # [^ ]+: error: / { c = $2; sub(/:$/, "", c); err[c] = 1 }
	/^    # [^ ]+: max [0-9.]+ ms, p50 [0-9.]+ ms over [0-9]+ intervals/ {
		c = $2; sub(/:$/, "", c)
		print k(u) "." k(c) ".max_ms: " $4
		print k(u) "." k(c) ".p50_ms: " $7
		print k(u) "." k(c) ".intervals: " $10
	}
	/^    (not )?ok [0-9]+ / {
		c = ($1 == "not") ? $4 : $3
		r = /# SKIP/ ? "skip" : $1 == "not" ? (err[c] ? "error" : "fail") : "pass"
		print k(u) "." k(c) "." r ": 1"
	}
	/^# (reproduced|not-reproduced|inconclusive|error): / {
		v = $2; sub(/:$/, "", v)
	}
	/^(not )?ok 1 / {
		if (/# SKIP inconclusive/) r = "inconclusive"
		else if (/# SKIP/) r = "skip"
		else r = v == "reproduced" ? "fail" : v == "not-reproduced" ? "pass" : "error"
		print k(u) "." r ": 1"
	}' "$1" | sort
}

# The parse's lines that the KTAP report also has.
as_ktap() {
	awk '/^#/ { next }
	     $1 ~ /\.(ratio_to_controls|ratio_of_medians|call_max_ms|call_p50_ms|calls):$/ { next }
	     { print }' "$1" | sort
}

# Same keys, same results and counts; each figure within the KTAP's
# 0.001 ms (JSON keeps 4 decimals of the double, KTAP prints 3: the two
# roundings may part by one in the last place).
agree() {	# KTAP_LINES PARSE_LINES
	awk 'NR == FNR { want[$1] = $2; next }
	     { if (!($1 in want)) { print "not in the KTAP: " $0; bad++; next }
	       d = want[$1] - $2
	       if (d * d > 0.0011 * 0.0011) {
		       print $1 " KTAP " want[$1] ", parse " $2; bad++ }
	       delete want[$1] }
	     END { for (k in want) { print "not in the stats: " k; bad++ }
		   exit bad > 0 }' <(echo "$1") <(echo "$2")
}

pairs=0 ratios=0
check_pair() {	# DESC JSON KTAP NAME
	local desc=$1 json=$2 ktap=$3 name=$4 out

	out=$work/$(echo "$desc" | tr ' /' '__').stats
	"$parse" "$json" >"$out" 2>"$out.err"
	assert "$desc: parse exits 0" [ $? = 0 ]
	assert "$desc: lkp key: value lines, each key once" well_formed "$out"
	assert "$desc: results and figures agree with the KTAP report" \
		agree "$(from_ktap "$ktap" "$name")" "$(as_ktap "$out")"
	pairs=$((pairs + 1))
}

for dir in "$top"/tests/data/runs/*/; do
	for j in "$dir"*.json; do
		name=$(basename "$j" .json)
		check_pair "$(basename "$dir") $name" "$j" "${j%.json}.ktap" \
			"$(jq -r .reproducer "$j")"
	done
done

full=$top/build/tests/tools/full-result
mkdir -p "$work/full"
"$full" ktap >"$work/full/full-result.ktap" &&
	"$full" json >"$work/full/full-result.json"
assert "full-result writes its KTAP and JSON" [ $? = 0 ]
check_pair "full-result" "$work/full/full-result.json" \
	"$work/full/full-result.ktap" \
	"$(jq -r .reproducer "$work/full/full-result.json")"

# run-all's results.json (schema rmap-repro-run/1): every reproducer of
# the run has one verdict stat, and each subject's ratio to the controls
# is the largest figure over the controls' largest, as the reason states
# them ("KSM A[ to B] ms; controls' ... over the runs: anon C ms, ...").
for j in "$top"/docs/sample*-results.json \
	 "$top"/tests/data/run-all/*/results.json; do
	desc=${j#"$top"/}
	out=$work/$(echo "$desc" | tr '/' '_').stats
	"$parse" "$j" >"$out" 2>"$out.err"
	assert "$desc: parse exits 0" [ $? = 0 ]
	assert "$desc: lkp key: value lines, each key once" well_formed "$out"
	want=$(jq -r '.results[] | .reproducer' "$j" | sort)
	got=$(grep -E '^[^.]+(@[^.]+)?\.(pass|fail|skip|inconclusive|error): 1$' \
		"$out" | sed 's/\.[a-z]*: 1$//' | sort)
	assert_same "$desc: one verdict stat per reproducer" "$want" "$got"
	while IFS=$'\t' read -r u reason; do
		[[ $reason =~ \(([A-Z]+)\ ([0-9.,]+)(\ to\ ([0-9.,]+))?\ ms\;\ controls\'[^:]*:\ (.*)\) ]] ||
			continue
		subj=${BASH_REMATCH[4]:-${BASH_REMATCH[2]}}
		cmax=$(echo "${BASH_REMATCH[5]}" | grep -oE '[0-9][0-9.,]* ms' |
			tr -d ', ms' | sort -g | tail -1)
		got=$(awk -v k="$u" -F': ' 'index($1, k ".") == 1 &&
			$1 ~ /\.ratio_to_controls$/ { print $2 }' "$out")
		assert "$desc $u: ratio_to_controls $got is ${subj//,} / $cmax" \
			awk -v g="${got:-x}" -v s="${subj//,}" -v c="$cmax" \
			'BEGIN {
			   # the reason rounds the controls max to 0.001 ms:
			   # a max of a few microseconds (exact mode) leaves
			   # one digit, so the ratio lies in a range
			   lo = s / (c + 0.0005) * (1 - 1e-3)
			   hi = c > 0.0005 ? s / (c - 0.0005) * (1 + 1e-3) : g + 1
			   exit !(g != "x" && g >= lo && g <= hi) }'
		ratios=$((ratios + 1))
	done < <(jq -r '.results[] | select(.verdict == "reproduced") |
		[.reproducer, .reason] | @tsv' "$j")
done

echo "# here: $pairs reports checked against their KTAP, $ratios ratios against their reasons"
assert "recorded reports were read ($pairs)" [ $pairs -ge 10 ]
assert "ratios were checked ($ratios)" [ $ratios -ge 3 ]

# lkp runs parse with RESULT_ROOT set and its capture of run's stdout (the
# text report) as $1: the JSON in RESULT_ROOT comes first.
rr=$work/result_root
mkdir -p "$rr/rmap-repro.out"
cp "$top/docs/sample-results.json" "$rr/rmap-repro.out/results.json"
cp "$top/docs/sample-report.txt" "$rr/rmap-repro"
RESULT_ROOT=$rr "$parse" "$rr/rmap-repro" <"$rr/rmap-repro" >"$work/rr.stats"
assert "with RESULT_ROOT, parse reads rmap-repro.out/results.json" \
	cmp -s "$work/rr.stats" "$work/docs_sample-results.json.stats"
# docs/engines.md's sample is the parse of the recorded run-all results
"$parse" "$top/tests/data/run-all/host-b3bfdee-quick/results.json" |
	cmp -s - "$top/docs/sample-lkp-stats.txt"
assert "docs/sample-lkp-stats.txt is the parse of tests/data/run-all/host-b3bfdee-quick" \
	[ $? = 0 ]
RESULT_ROOT=$work/nowhere "$parse" "$rr/rmap-repro" >/dev/null 2>&1
assert "a text report alone is refused (exit 1), not read as stats" [ $? != 0 ]

# A real `lkp run` (ci/lkp/run): the stats lkp kept of the run, written by
# its sbin/dump-stat from the parse's lines, are the parse's, named
# rmap-repro.KEY, one value each; lkp drops a stat whose values are all 0
# and nothing else.
for run in "$top"/tests/data/lkp/*/; do
	n=$(basename "$run")
	"$parse" "$run/results.json" | awk -F': ' '!/^#/ && $2 != 0 {
		print "rmap-repro." $1 ": " $2 }' | sort >"$work/lkp-$n.want"
	jq -r 'to_entries[] | "\(.key): \(.value | length) \(.value[0])"' \
		"$run/rmap-repro.json" | sort >"$work/lkp-$n.kept"
	assert "lkp's run $n: one value per stat" \
		awk '$(NF - 1) != 1 { exit 1 }' "$work/lkp-$n.kept"
	awk '{ $(NF - 1) = ""; sub(/  /, " "); print }' "$work/lkp-$n.kept" |
		diff "$work/lkp-$n.want" - >"$work/lkp-$n.diff"
	rc=$?
	assert "lkp's run $n kept the parse's stats of its results.json ($(wc -l <"$work/lkp-$n.want") of them)" \
		[ $rc = 0 -a -s "$work/lkp-$n.want" ]
	[ $rc = 0 ] || sed 's/^/# /' "$work/lkp-$n.diff" | head -6
	assert "lkp's run $n: a verdict stat for each of its reproducers" \
		[ "$(grep -cE '^rmap-repro\.[^.]+\.(pass|fail|skip|inconclusive|error): ' "$work/lkp-$n.want")" = \
		  "$(jq '.results | length' "$run/results.json")" ]
done
finish
