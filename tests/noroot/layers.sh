#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# common/ is layered (common/LAYERS, bottom to top): every folder is a
# listed layer, every #include of the suite's own headers names its
# folder, and no file includes a header from a layer above its own.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

layers=$top/common/LAYERS
mapfile -t order < <(awk '!/^#/ && NF { print $1 }' "$layers")
declare -A rank
for i in "${!order[@]}"; do
	rank[${order[$i]}]=$i
done
assert "common/LAYERS lists layers (${#order[@]})" [ ${#order[@]} -ge 5 ]

unlisted=()
for d in "$top"/common/*/; do
	d=$(basename "$d")
	[ -n "${rank[$d]:-}" ] || unlisted+=("$d")
done
assert "every folder of common/ is a layer in common/LAYERS${unlisted:+ (not: ${unlisted[*]})}" \
	[ ${#unlisted[@]} -eq 0 ]
loose=$(find "$top/common" -maxdepth 1 -name '*.[ch]' -printf '%f ')
assert "no source file outside the layers' folders${loose:+ ($loose)}" \
	[ -z "$loose" ]

# check DIR: the includes of DIR/*/*.[ch], one line per fault ("bare:"
# an include without its folder, "up:" one from a lower layer to a
# higher one); the count of includes read last.
check() {
	local file inc from to nr=0

	while read -r file inc; do
		nr=$((nr + 1))
		from=${file%%/*}
		case "$inc" in
		version.h) continue ;;		# generated in build/
		*/*) ;;
		*) echo "bare: $file: $inc"; continue ;;
		esac
		to=${inc%%/*}
		if [ -z "${rank[$to]:-}" ] || [ ! -e "$1/$inc" ]; then
			echo "bare: $file: $inc (no such header)"
		elif [ "${rank[$to]}" -gt "${rank[$from]}" ]; then
			echo "up: $file ($from) includes $inc ($to)"
		fi
	done < <(cd "$1" && grep -H -o '^#include "[^"]*"' */*.[ch] |
		 sed 's/:#include "/ /; s/"$//')
	echo "read: $nr"
}

check "$top/common" >"$work/faults"
nr=$(sed -n 's/^read: //p' "$work/faults")
echo "# here: $nr includes read"
assert "the includes were read ($nr)" [ "$nr" -gt 100 ]
mapfile -t bare < <(sed -n 's/^bare: //p' "$work/faults")
mapfile -t up < <(sed -n 's/^up: //p' "$work/faults")
if [ ${#bare[@]} -eq 0 ]; then
	ok "every include of the suite's own headers names its layer"
else
	not_ok "every include of the suite's own headers names its layer" \
		"${bare[@]}"
fi
if [ ${#up[@]} -eq 0 ]; then
	ok "no include runs from a lower layer to a higher one"
else
	not_ok "no include runs from a lower layer to a higher one" "${up[@]}"
fi

# The check itself: an include pointing upward, and one without its
# folder, are caught.
fake=$work/common
rm -rf "$fake" && mkdir -p "$fake/lib" "$fake/core"
printf '#include "core/x.h"\n#include "x.h"\n' >"$fake/lib/y.c"
touch "$fake/core/x.h"
check "$fake" >"$work/fake"
assert "an include from lib/ to core/ is caught" \
	grep -qx 'up: lib/y.c (lib) includes core/x.h (core)' "$work/fake"
assert "an include without its folder is caught" \
	grep -qx 'bare: lib/y.c: x.h' "$work/fake"
finish
