#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Under load: the flagship while stress-ng keeps every CPU busy and
# holds a share of memory (a quarter of MemAvailable, at most 4 GiB).
# The run still reaches a verdict from measured figures (not an error,
# not a skip), and the machine is as before once the load is gone.
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/chaos.sh"

if ! command -v stress-ng >/dev/null; then
	ok "under load # SKIP stress-ng is not installed (scripts/install-deps)"
	finish
	exit 0
fi
mapfile -t opts < <(chaos_opts ksm-mprotect-split)
opts+=(--runs 1 --format json --out "$work/l")
mb=$(awk '$1 == "MemAvailable:" { m = int($2 / 1024 / 4);
	  print (m > 4096 ? 4096 : m) }' /proc/meminfo)
before=$(chaos_snapshot)
# a process group of its own: the workers go with it
setsid stress-ng --cpu 0 --vm 1 --vm-bytes "${mb}m" --vm-keep \
	--timeout 600s >"$work/load.out" 2>&1 &
load=$!
sleep 3
"$bin/ksm-mprotect-split" "${opts[@]}" >"$work/l.json" 2>"$work/l.err"
rc=$?
kill -TERM -- -"$load" 2>/dev/null
wait $load 2>/dev/null
for ((i = 0; i < 300; i++)); do
	grep -l "^stress-ng" /proc/[0-9]*/comm >/dev/null 2>&1 || break
	[ $i = 100 ] && kill -KILL -- -"$load" 2>/dev/null
	sleep 0.1
done
echo "# load: stress-ng --cpu 0 --vm 1 --vm-bytes ${mb}m; the run: exit $rc, $(jq -r '.verdict + ": " + .reason' "$work/l.json" 2>/dev/null | head -c 200)"
assert_verdict "the flagship under load reaches a verdict" "$work/l.json" $rc
assert_jq "from measured figures, not an error or a skip" "$work/l.json" \
	'(.verdict | IN("reproduced", "not-reproduced", "inconclusive")) and (.cases | all(.latency_ms.count > 0))'
same "under load" "$before" && ok "under load: the machine is as before"
finish
