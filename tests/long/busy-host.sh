#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# busy-host: does a busy host change a verdict under QEMU? The suite's
# own default preset loops on the host (scripts/run-all, as root) while
# scripts/vm-run boots the shared -ksmfix kernel and the unfixed one
# TIMES times each, alternating, with the quick preset's ksm-mprotect-
# split, ksm-fork in both orders and madvise-split (the reproducers a
# busy host once turned "reproduced" on the fixed kernel). Prints a line
# per boot (the host's CPU pressure before it, how long QEMU's threads
# waited for a CPU, the clock vm-run judged on and why, each verdict)
# and asserts, in KTAP, that no -ksmfix boot reproduced anything and
# every unfixed boot reproduced each reproducer. Not part of make check
# (12 boots beside a loaded host: about an hour here); docs/testing.md
# and the README name it. --idle: the same boots without the load.
#
# Usage: tests/long/busy-host.sh [--times N] [--idle] [--kernels DIR]
#                                [--out DIR]
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
kernels=$top/../shared/kernels
times=6
idle=0
out=""
only=ksm-mprotect-split,ksm-fork,madvise-split

while [ $# -gt 0 ]; do
	case "$1" in
	--times) times=${2:?}; shift 2 ;;
	--idle) idle=1; shift ;;
	--kernels) kernels=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	-h|--help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "busy-host: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[[ "$times" =~ ^[1-9][0-9]*$ ]] || { echo "busy-host: --times N" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "busy-host: as root (the host's runs)" >&2; exit 4; }
[ -n "$out" ] || out=$(mktemp -d /tmp/rmap-repro-busy.XXXXXX)
mkdir -p "$out" || exit 2
stop=$out/stop
rm -f "$stop"

loop=""
if [ $idle = 0 ]; then
	# the host's load: the suite's own default preset, again and again
	( while [ ! -e "$stop" ]; do
		"$top/scripts/run-all" --preset default --out "$out/host" \
			>/dev/null 2>&1
	  done ) &
	loop=$!
	sleep 30
fi
trap 'touch "$stop"; [ -z "$loop" ] || wait $loop' EXIT

echo "KTAP version 1"
echo "1..2"
false_pos=()
missed=()
for ((i = 1; i <= times; i++)); do
	for which in fixed unfixed; do
		k=$kernels/linux-6.12-rmap-tp.bzImage
		[ $which = fixed ] && k=$kernels/linux-6.12-rmap-tp-ksmfix.bzImage
		o=$out/$which-$i
		t0=$SECONDS
		"$top/scripts/vm-run" --kernel "$k" --preset quick --only "$only" \
			--out "$o" >"$o.out" 2>"$o.err"
		rc=$?
		v=$(jq -r '[.results[] | "\(.reproducer)=\(.verdict)"] | join(" ")' \
		    "$o/results.json" 2>/dev/null)
		h=$(jq -r '"pressure before \(.cpu_pressure_before_pct.avg10)/\(.cpu_pressure_before_pct.avg60)% (10/60 s), \(.cpu_pressure_before_pct.last_second // "-")% (the last second), QEMU waited \(.qemu_wait_pct)%: \(.clock); \(.decided)"' \
		    "$o/host.json" 2>/dev/null)
		echo "# $which $i: exit $rc, $((SECONDS - t0)) s; $h; $v"
		if [ $which = fixed ]; then
			[[ " $v" == *=reproduced* ]] && false_pos+=("$which-$i")
		else
			n=$(jq '[.results[] | select(.verdict != "reproduced")] | length' \
			    "$o/results.json" 2>/dev/null)
			[ "${n:-1}" = 0 ] || missed+=("$which-$i")
		fi
	done
done
if [ ${#false_pos[@]} = 0 ]; then
	echo "ok 1 no -ksmfix boot reproduced anything ($times boots)"
else
	echo "not ok 1 no -ksmfix boot reproduced anything: ${false_pos[*]}"
fi
if [ ${#missed[@]} = 0 ]; then
	echo "ok 2 every unfixed boot reproduced each reproducer ($times boots)"
else
	echo "not ok 2 every unfixed boot reproduced each reproducer: not ${missed[*]}"
fi
echo "# boots in $out"
[ ${#false_pos[@]} = 0 ] && [ ${#missed[@]} = 0 ]
