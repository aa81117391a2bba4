#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The damon trigger, whatever the kernel offers. Where DAMON's sysfs
# interface is missing or in use (this development machine runs a
# kdamond of its own), the run is a SKIP that says why, and that
# kdamond is left exactly as it was. Where the interface is free and a
# walk-level probe exists (Debian's stock kernels, in vmdamon.sh's
# guest), the trigger's kdamond does the walks of every case, the
# victim's lock waits are recorded, and the kdamond is removed with
# all its settings: the machine is as before.
. "$(dirname "$0")/../lib/integration.sh"

d=/sys/kernel/mm/damon/admin/kdamonds
name=ksm-mprotect-split
before=$(snapshot)
"$bin/$name" --trigger damon --runs 1 --pages 4000 --split-every 2 \
	--identical 256 --damon-ms 1000 --format json --out "$work/d" \
	>"$work/d.json" 2>"$work/d.err"
rc=$?
after=$(snapshot)
walk_probe=no
for p in rmap-tp funcgraph kprobe; do
	probe_offered $p && walk_probe=yes
done
if [ ! -r $d/nr_kdamonds ] || [ "$(cat $d/nr_kdamonds)" != 0 ] ||
   [ $walk_probe = no ]; then
	if [ ! -r $d/nr_kdamonds ]; then
		why=DAMON
	elif [ "$(cat $d/nr_kdamonds)" != 0 ]; then
		why="DAMON's sysfs interface is in use"
	else
		why='walk-level probe'
	fi
	echo "# here: the damon trigger cannot run ($why)"
	assert "a SKIP: exit 4" [ $rc = 4 ]
	assert_jq "the SKIP says why: $why" "$work/d.json" \
		".verdict == \"skip\" and (.reason | contains(\"$why\"))"
	assert_same "DAMON and the rest of the machine are as before" \
		"$before" "$after"
	finish
	exit 0
fi
echo "# here: the damon trigger runs (nr_kdamonds 0, a walk-level probe)"
# who walked each case, and what was measured: read when one fails
jq -r '.cases[] | "# \(.name): walkers \(.walkers | tostring), count \(.latency_ms.count), reach \(.reach.text // "")"' \
	"$work/d.json" 2>/dev/null | cut -c1-300
assert_verdict "a verdict from measured figures" "$work/d.json" $rc
# Another walker may come by in the window (kswapd in a small guest):
# counted apart, it may not outnumber kdamond.
assert_jq "the trigger was damon, and kdamond did most walks of every case" \
	"$work/d.json" ".trigger.name == \"damon\" and (.cases | all(.latency_ms.count > 0 and (.walkers | .kdamond > 0 and .kdamond >= .kswapd + .load + .ksmd + .other)))"
assert_jq "every case's present frames were monitored (reach)" \
	"$work/d.json" ".cases | all(.reach.pages_moved > 0 and (.reach.text | test(\"kdamond\")))"
assert_jq "the victim's lock waits were recorded in every case" \
	"$work/d.json" ".lock_waits.recorded and (.cases | all(.lock_waits.victim != null))"
assert "the kdamond of the run was removed on the way out" \
	grep -q "removed the DAMON kdamond of the run" "$work/d.err"
assert_formats "text, KTAP and JSON agree" "$work/d" $name
assert_same "DAMON and the rest of the machine are as before" \
	"$before" "$after"
finish
