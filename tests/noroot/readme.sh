#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README is one page with docs/ behind it: at most 250 lines, every
# page of docs/ linked from it, every link and every path it names
# existing, and its sample report a verbatim excerpt of a sample that
# scripts/samples made from a real run. The docs' links to each other
# resolve too. Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

readme=$top/README.md
lines=$(wc -l <"$readme")
assert "README.md is one page ($lines lines, at most 250)" [ "$lines" -le 250 ]

unlinked=()
for f in "$top"/docs/*.md; do
	grep -q "](docs/$(basename "$f"))" "$readme" ||
		unlinked+=("docs/$(basename "$f")")
done
assert "every page of docs/ is linked from the README${unlinked:+ (not: ${unlinked[*]})}" \
	[ ${#unlinked[@]} -eq 0 ]

# links (DIR is where they are relative to) and `paths` of the tree
missing=()
check_links() {
	local dir=$1 file=$2 l

	for l in $(grep -o '](\([^)#]*\)[)#]' "$file" | sed 's/^](//; s/[)#]$//' |
		   grep -v '^http'); do
		[ -e "$dir/$l" ] || missing+=("$(basename "$file"): $l")
	done
}
check_links "$top" "$readme"
for f in "$top"/docs/*.md; do
	check_links "$top/docs" "$f"
done
for p in $(grep -o '`[^` ]*`' "$readme" | tr -d '`' |
	   grep -E '^(docs|scripts|configs|tests|common|tools|reproducers|\.ci)/'); do
	[ -e "$top/$p" ] || missing+=("README.md: $p")
done
assert "every link resolves and every path the README names exists${missing:+ (not: ${missing[*]})}" \
	[ ${#missing[@]} -eq 0 ]

# the README's report blocks: fenced blocks that are not commands
rm -f "$work"/block.*
awk '/^```/ { if (fence) { fence = 0 } else { fence = 1; plain = ($0 == "```")
		n += plain }; next }
     fence && plain { print > (dir "/block." n) }' dir="$work" "$readme"
blocks=0 copied=0
for b in "$work"/block.*; do
	[ -e "$b" ] || continue
	blocks=$((blocks + 1))
	for s in "$top"/docs/sample-*.txt; do
		# the whole block, a substring of the sample (awk reads
		# each file as one record: no character separates records)
		if awk 'BEGIN { RS = "\001" } NR == FNR { b = $0; next }
			{ found = index($0, b) > 0 } END { exit !found }' \
			"$b" "$s"; then
			copied=$((copied + 1))
			break
		fi
	done
done
assert "the README's sample report blocks ($blocks) are verbatim excerpts of docs/sample-*.txt ($copied)" \
	[ "$blocks" -ge 1 -a "$copied" = "$blocks" ]
finish
