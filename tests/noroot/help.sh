#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --help on every binary and script: exit 0, nothing on stderr; every
# reproducer's help fits 80 columns, lists its cases in the words its
# report gives them, and ends with the exit codes, the same for all (3
# inconclusive included), from the runner. Needs no root and changes
# nothing.
. "$(dirname "$0")/../lib/integration.sh"

nb=0 bad=()
for b in "$top"/build/bin/* "$top"/scripts/run-all "$top"/scripts/compare \
	 "$top"/scripts/sweep "$top"/scripts/vm-run "$top"/scripts/restore \
	 "$top"/scripts/fingerprint \
	 "$top"/ci/lava/run "$top"/ci/lava/lava-cases "$top"/ci/lava/lava-log \
	 "$top"/ci/kunit/kunit-parse "$top"/ci/lkp/programs/rmap-repro/parse \
	 "$top"/ci/lkp/run; do
	nb=$((nb + 1))
	"$b" --help >"$work/help" 2>"$work/err" && [ ! -s "$work/err" ] ||
		bad+=("$(basename "$b")")
done
assert "--help exits 0 with nothing on stderr, on each of $nb programs${bad:+ (not: ${bad[*]})}" \
	[ ${#bad[@]} -eq 0 -a $nb -ge 10 ]

wide=() noexit=() nocases=()
for src in "$top"/reproducers/*.c; do
	r=$(basename "$src" .c)
	"$top/build/bin/$r" --help >"$work/$r.help" 2>&1
	awk 'length > 80 { bad = 1 } END { exit bad }' "$work/$r.help" ||
		wide+=("$r")
	tr -s ' \n' ' ' <"$work/$r.help" |
		grep -q 'Exit: 0 .* 1 .* 2 error, 3 inconclusive .* 4 skip' ||
		noexit+=("$r")
	# the cases, a subject and at least one other, in the report's words
	[ "$(sed -n '/^Cases (the subject first/,/^Options:/p' "$work/$r.help" |
	     grep -c '^  [a-z]')" -ge 2 ] || nocases+=("$r")
done
assert "every reproducer's --help fits 80 columns${wide:+ (not: ${wide[*]})}" \
	[ ${#wide[@]} -eq 0 ]
assert "every reproducer's --help gives the exit codes, 3 inconclusive included${noexit:+ (not: ${noexit[*]})}" \
	[ ${#noexit[@]} -eq 0 ]
assert "every reproducer's --help lists its cases${nocases:+ (not: ${nocases[*]})}" \
	[ ${#nocases[@]} -eq 0 ]
finish
