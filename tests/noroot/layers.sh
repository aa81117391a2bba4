#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# common/ is layered (common/LAYERS, bottom to top): every folder is a
# listed layer, every #include of the suite's own headers names its
# folder, no file includes a header from a layer above its own, and no
# object file takes a symbol (a function, a table) from a layer above
# its own: nm sees what an extern declaration hides from the includes.
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
# nm_check SRC BUILD: the symbols each object of SRC/*/*.c (built in
# BUILD/) takes from another, one "up:" line per one taken from a higher
# layer; the count of symbols taken read last.
nm_check() {
	local f rel o sym to nr=0
	local -A def=()

	for f in "$1"/*/*.c; do
		rel=${f#"$1"/}
		o=$2/${rel%.c}.o
		[ -e "$o" ] || continue
		while read -r sym; do
			def[$sym]=$rel
		done < <(nm -g --defined-only "$o" | awk '{ print $3 }')
	done
	for f in "$1"/*/*.c; do
		rel=${f#"$1"/}
		o=$2/${rel%.c}.o
		[ -e "$o" ] || continue
		while read -r sym; do
			[ -n "${def[$sym]:-}" ] || continue
			nr=$((nr + 1))
			to=${def[$sym]%%/*}
			[ "${rank[$to]}" -gt "${rank[${rel%%/*}]}" ] &&
				echo "up: $rel (${rel%%/*}) takes $sym from ${def[$sym]} ($to)"
		done < <(nm -u "$o" | awk '{ print $2 }')
	done
	echo "read: $nr"
}

nm_check "$top/common" "$top/build/common" >"$work/nm"
nr=$(sed -n 's/^read: //p' "$work/nm")
echo "# here: $nr symbols taken between the objects of common/"
assert "the objects' symbols were read ($nr)" [ "$nr" -gt 200 ]
mapfile -t up < <(sed -n 's/^up: //p' "$work/nm")
if [ ${#up[@]} -eq 0 ]; then
	ok "no object takes a symbol from a higher layer (nm)"
else
	not_ok "no object takes a symbol from a higher layer (nm)" "${up[@]}"
fi

# The check itself: an upward call through an extern declaration, which
# no include shows, is caught.
fake=$work/nm-fake
rm -rf "$fake" && mkdir -p "$fake/src/lib" "$fake/src/core" \
	"$fake/build/lib" "$fake/build/core"
printf 'extern int core_x(void);\nint lib_y(void) { return core_x(); }\n' \
	>"$fake/src/lib/y.c"
printf 'int core_x(void) { return 1; }\n' >"$fake/src/core/x.c"
cc -c -o "$fake/build/lib/y.o" "$fake/src/lib/y.c" &&
	cc -c -o "$fake/build/core/x.o" "$fake/src/core/x.c"
nm_check "$fake/src" "$fake/build" >"$work/nm-fake-out"
assert "a call from lib/ to core/ through an extern is caught" \
	grep -qx 'up: lib/y.c (lib) takes core_x from core/x.c (core)' \
	"$work/nm-fake-out"
finish
