#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exact-calibration: does compare in exact mode find a 1% change, and
# only that? On the shared unfixed test kernel, ksm-mprotect-split of the
# quick preset, scripts/vm-run --exact --boots N three times:
#   A   --pages 20000, seeds 1..N
#   A'  --pages 20000, seeds N+1..2N (the same kernel and pattern, other
#       random layouts: an A/A)
#   B   --pages 19800, seeds 1..N (1% fewer VMAs on the anon_vma, so each
#       KSM walk visits 1% fewer: its cost should be 0.99x)
# and asserts, in KTAP: compare A B calls the KSM walk's mean, p50 and
# max lower and significant, the mean's ratio within 0.2% of 0.99; compare
# A A' calls no figure of any case. Not part of make check (3N boots,
# about 45 s each under TCG with icount: 9 minutes for N=4); the README
# and docs/testing.md name it.
#
# Usage: tests/long/exact-calibration.sh [--boots N] [--kernel BZIMAGE]
#                                        [--out DIR]
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/integration.sh"
boots=4
kernel=$(test_kernel unfixed)
out=$work

while [ $# -gt 0 ]; do
	case "$1" in
	--boots|--kernel|--out)
		[ $# -ge 2 ] && [ -n "$2" ] ||
			{ echo "exact-calibration: $1 needs a value" >&2; exit 2; }
		eval "${1#--}=\$2"; shift 2 ;;
	-h|--help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "exact-calibration: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[[ "$boots" =~ ^[1-9][0-9]*$ ]] ||
	{ echo "exact-calibration: --boots needs a number" >&2; exit 2; }
if [ -z "$kernel" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	ok "exact calibration # SKIP no shared test kernel or no QEMU"
	finish
	exit 0
fi
mkdir -p "$out" || { echo "exact-calibration: cannot create $out" >&2; exit 2; }
run=(--kernel "$kernel" --config "$(test_kernel_config "$kernel")" --exact
     --boots "$boots" --preset quick --only ksm-mprotect-split --timeout 900)
t0=$SECONDS
"$top/scripts/vm-run" "${run[@]}" --out "$out/A" >"$out/A.log" 2>&1
"$top/scripts/vm-run" "${run[@]}" --seed $((boots + 1)) --out "$out/AA" \
	>"$out/AA.log" 2>&1
"$top/scripts/vm-run" "${run[@]}" --out "$out/B" -- --pages 19800 \
	>"$out/B.log" 2>&1
echo "# here: $((3 * boots)) boots in $((SECONDS - t0)) s"
for s in A AA B; do
	[ -s "$out/$s/compare.json" ] ||
		echo "# vm-run of $s reported nothing: $(tail -1 "$out/$s.log")"
done
"$top/scripts/compare" --format json "$out/A/A" "$out/B/A" >"$out/ab.json"
"$top/scripts/compare" "$out/A/A" "$out/B/A" >"$out/ab.txt"
"$top/scripts/compare" --format json "$out/A/A" "$out/AA/A" >"$out/aa.json"
"$top/scripts/compare" "$out/A/A" "$out/AA/A" >"$out/aa.txt"
sed -n '/^ksm-mprotect-split ksm mean/,/^ksm-mprotect-split ksm p50/p' \
	"$out/ab.txt" | sed 's/^/# /'

k='.figures[] | select(.reproducer == "ksm-mprotect-split" and .case == "ksm")'
assert_jq "the 1% pattern: the KSM walk's mean, p50 and max lower, significant" \
	"$out/ab.json" \
	"[$k | select(.figure == \"mean\" or .figure == \"p50\" or .figure == \"max\") | .changes[1] | .significant and .ratio < 1] | length == 3 and all"
ratio=$(jq -r "$k | select(.figure == \"mean\") | .changes[1].ratio" \
	"$out/ab.json")
assert "the mean's ratio is 0.99 within 0.2% ($ratio)" \
	jq -en "($ratio - 0.99 | fabs) < 0.0099 * 0.2"
floor=$(jq -r "$k | select(.figure == \"mean\") | .floor" "$out/ab.json")
echo "# here: the KSM walk mean's floor: $(jq -n "$floor * 100") % (the spread over $boots seeds)"
assert_jq "A/A (seeds 1..$boots against $((boots + 1))..$((2 * boots))): no figure of any case significant" \
	"$out/aa.json" '[.figures[].changes[1] | .significant] | any | not'
assert_jq "every side booted $boots times, in exact mode" "$out/ab.json" \
	".exact and ([.sides[].boots] | all(. == $boots))"
finish
