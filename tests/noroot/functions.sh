#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Functions of one screen: no function of common/ or reproducers/ is
# longer than 100 lines (from its name to its closing brace, kernel
# style: both braces of a function in column 0). Needs no root and
# changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

max=100
# FILE:NAME LINES for every function of the files given
lengths() {
	awk 'FNR == 1 { start = 0 }
	     /^[a-z].*\(/ && !start { head = FNR; name = $0 }
	     /^\{/ && !start { start = head ? head : FNR }
	     /^\}/ && start {
		sub(/\(.*/, "", name); n = split(name, w, /[ *]+/)
		print FILENAME ":" w[n], FNR - start + 1
		start = 0; head = 0 }' "$@"
}
cd "$top" || exit 1
lengths common/*/*.c reproducers/*.c >"$work/lengths"
count=$(wc -l <"$work/lengths")
echo "# here: $count functions, the longest $(sort -k2 -n "$work/lengths" | tail -1)"
assert "the functions were found ($count)" [ "$count" -gt 300 ]
mapfile -t long < <(awk -v m=$max '$2 > m' "$work/lengths")
if [ ${#long[@]} -eq 0 ]; then
	ok "no function in common/ or reproducers/ is longer than $max lines"
else
	not_ok "no function in common/ or reproducers/ is longer than $max lines" \
		"${long[@]}"
fi
# the check itself, on a function of 101 lines
{ echo "static int f(void)"; echo "{"; for i in $(seq 98); do
	echo "	i++;"; done; echo "}"; } >"$work/long.c"
assert "a function of 101 lines is caught" \
	[ "$(lengths "$work/long.c" | awk '{ print $2 }')" = 101 ]
finish
