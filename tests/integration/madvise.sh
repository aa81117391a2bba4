#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# madvise-split on the kernel here: it runs to a verdict that follows
# from its figures; every case's VMAs are counted, and the report's
# sentence says what was counted (a case where the kernel ignored the
# advice is named, never assumed split); MADV_DONTNEED churn splits
# nothing; the three formats agree; the machine is left as found.
. "$(dirname "$0")/../lib/integration.sh"

pages=4000
before=$(snapshot)
"$bin/madvise-split" --runs 1 --pages $pages --identical 64 --dontneed \
	--format json --out "$work/m" >"$work/m.json" 2>"$work/m.err"
rc=$?
after=$(snapshot)
j=$work/m.json
assert_verdict "madvise-split (mergeable, dontneed)" "$j" $rc
assert_jq "the JSON pattern names the advice and the churn" "$j" \
	'.pattern.advice == "mergeable" and .pattern.dontneed == 1 and .pattern.split_every == 2'
# The subject must be split (the advice is its KSM opt-in); every
# case's count is between 1 and the count were every advice to split.
assert_jq "the KSM case is split into $pages VMAs, every case counted" \
	"$j" ".pattern.vmas == $pages and (.cases | all(.pattern.vmas >= 1 and .pattern.vmas <= $pages))"
txt=$work/m/madvise-split.txt
para=$(sed -n '/^Pattern/,/^KSM/p' "$txt" | tr -s ' \n' ' ')
why=""
seen=0
for c in $(jq -r '.cases[].page_type' "$j"); do
	seen=$((seen + 1))
	cnt=$(jq -r ".cases[] | select(.page_type == \"$c\") | .pattern.vmas" "$j")
	case "$para" in
	*" $c $cnt (the kernel ignored the advice there)"*)
		[ "$cnt" -lt $pages ] || why="$why; $c: 'ignored' at $cnt" ;;
	*" $c $cnt,"*|*" $c $cnt of"*|*" $c $cnt;"*)
		[ "$cnt" = $pages ] || why="$why; $c: $cnt not called ignored" ;;
	*) why="$why; $c: count $cnt not in '$para'" ;;
	esac
done
# a loop over no case checks nothing: the three cases must be there
[ $seen = 3 ] || why="$why; $seen cases in the JSON, not 3"
if [ -z "$why" ]; then
	ok "the sentence gives each case's count as measured"
else
	not_ok "the sentence gives each case's count as measured" "${why#; }"
fi
assert "the sentence says MADV_DONTNEED added no VMA" \
	grep -q "MADV_DONTNEED: +0 VMAs" <<<"$para"
assert_formats "text, KTAP and JSON agree" "$work/m" madvise-split
assert_same "the machine is as before" "$before" "$after"

# Advice that applies to every mapping kind: each case is split alike.
"$bin/madvise-split" --runs 1 --pages 2000 --identical 32 --advice dontdump \
	--format json >"$work/d.json" 2>"$work/d.err"
rc=$?
v=$(jq -r .verdict "$work/d.json" 2>/dev/null)
assert "--advice dontdump runs to a verdict ($v)" \
	[ "$v" = reproduced -o "$v" = not-reproduced ]
assert_jq "its cases are counted, the KSM case split" "$work/d.json" \
	'.pattern.advice == "dontdump" and .pattern.vmas == 2000 and (.cases | all(.pattern.vmas >= 1))'

"$bin/madvise-split" --advice nosuch >"$work/bad.out" 2>&1
rc=$?
assert "an unknown --advice is a usage error (exit 2)" [ $rc = 2 ]
assert "and the error lists the choices" grep -q "mergeable" "$work/bad.out"
finish
