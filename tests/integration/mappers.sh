#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# file-many-mappers on the kernel here: it runs to a verdict that follows
# from its figures, with the trigger and probe the kernel offers; the
# subject's family is counted (processes, and VMAs summed over their
# /proc/PID/maps) against the one-process control's; both cases' walks
# were measured; the three formats agree; no member outlives the run;
# the machine is left as found.
. "$(dirname "$0")/../lib/integration.sh"

procs=8
pages=400
# every other page split: $pages VMAs in each process
members() {
	local p n=0

	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = file-many-mappe ] && n=$((n + 1))
	done
	echo $n
}

trigger=$(expected_trigger)
probe=$(expected_probe auto "$trigger")
before=$(snapshot)
"$bin/file-many-mappers" --runs 1 --procs $procs --pages $pages \
	--identical 32 --format json --out "$work/m" >"$work/m.json" \
	2>"$work/m.err"
rc=$?
after=$(snapshot)
j=$work/m.json
assert_verdict "file-many-mappers" "$j" $rc
assert_jq "trigger $trigger and probe $probe, as the kernel offers" "$j" \
	'.trigger.name == $t and (.cases | all(.probe == $p))' \
	--arg t "$trigger" --arg p "$probe"
assert_jq "the family counted: $procs processes, $((procs * pages)) VMAs; the control 1, $pages" \
	"$j" "[.cases[].pattern | [.processes, .vmas]] == [[$procs, $((procs * pages))], [1, $pages]]"
assert_jq "both cases' walks measured, of file pages" "$j" \
	'.cases | all(.latency_ms.count > 0 and .page_type == "file")'
assert_jq "the JSON names --procs" "$j" ".pattern.procs == $procs"
assert "the report says which published problem it reproduces" \
	grep -q "i_mmap_rwsem" <(tr -s ' \n' ' ' <"$work/m/file-many-mappers.txt")
assert_formats "text, KTAP and JSON agree" "$work/m" file-many-mappers
assert "no member is left" [ "$(members)" = 0 ]
assert_same "the machine is as before" "$before" "$after"

"$bin/file-many-mappers" --procs 1 >"$work/u.out" 2>&1
rc=$?
assert "--procs 1: a usage error (exit 2)" [ $rc = 2 ]
finish
