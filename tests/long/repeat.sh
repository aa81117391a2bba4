#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repeat: boot the shared test kernels TIMES times each and run a preset
# in each boot, then tabulate every reproducer's verdict per boot, with
# its runs agreeing and the subject's figure against its controls': how
# repeatable the verdict is under QEMU TCG, where the same probe on the
# same kernel moves p50 by up to half between boots. Not part of make
# check (a boot and a preset each, minutes under TCG); docs/testing.md
# names it.
#
# Usage: tests/long/repeat.sh [--times N] [--preset NAME] [--only NAMES]
#                             [--kernels DIR] [--out DIR]
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
kernels=$top/../shared/kernels
times=5
preset=quick
only=""
out=""

while [ $# -gt 0 ]; do
	case "$1" in
	--times) times=${2:?}; shift 2 ;;
	--preset) preset=${2:?}; shift 2 ;;
	--only) only=${2:?}; shift 2 ;;
	--kernels) kernels=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	-h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "repeat: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || out=$(mktemp -d /tmp/rmap-repro-repeat.XXXXXX)
mkdir -p "$out" || exit 2

for ((i = 1; i <= times; i++)); do
	for which in unfixed fixed; do
		k=$kernels/linux-6.12-rmap-tp.bzImage
		[ $which = fixed ] && k=$kernels/linux-6.12-rmap-tp-ksmfix.bzImage
		"$top/scripts/vm-run" --kernel "$k" \
			--config "$kernels/linux-6.12-rmap-tp.config" \
			--preset "$preset" ${only:+--only "$only"} \
			--out "$out/$which-$i" --timeout 3600 \
			>"$out/$which-$i.out" 2>"$out/$which-$i.err"
		echo "boot $i, $which kernel: vm-run exit $?" >&2
	done
done
for which in unfixed fixed; do
	echo "$which kernel, $times boots, preset $preset:"
	for ((i = 1; i <= times; i++)); do
		jq -r --arg b "$i" '.results[] | "\(.reproducer)\t\($b)\t\(.verdict)\t\(.runs_agreeing // "-")/\(.runs)\t" +
			([.cases[] | select(.role == "subject") | (.trigger_call_ms // .latency_ms).max? // null] | .[0] | tostring | .[:8]) + "\t" +
			([.cases[] | select(.role == "control") | (.trigger_call_ms // .latency_ms).max? // empty] | max | tostring | .[:8])' \
			"$out/$which-$i/results.json" 2>/dev/null
	done | sort -s -k1,1 | awk -F'\t' '
		$1 != last { if (last != "") print ""; printf "  %-26s", $1; last = $1 }
		{ printf " %s %s (%s vs %s);", $3, $4, $5, $6 }
		END { print "" }'
done
echo "(per boot: verdict, runs agreeing, the subject's max against the controls' largest, ms)"
echo "results in $out"
