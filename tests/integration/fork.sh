#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksm-fork on the kernel here, in both orders: it runs to a verdict that
# follows from its figures; every case's family is counted (processes,
# and VMAs summed over their /proc/PID/maps); KSM merged across the
# family; the three formats agree; no child outlives the run, SIGKILL of
# the reproducer included; the machine is left as found.
. "$(dirname "$0")/../lib/integration.sh"

pages=1000
kids=4
procs=$((kids + 1))
# every other page split: $pages VMAs in each process of the family
vmas=$((pages * procs))

children_of() {
	# processes named ksm-fork other than the ones given
	local p list=""

	for p in $(procs_named ksm-fork); do
		case " $* " in *" $p "*) ;; *) list="$list $p" ;; esac
	done
	echo $list
}

for order in fork-then-merge merge-then-fork; do
	before=$(snapshot)
	"$bin/ksm-fork" --runs 1 --pages $pages --identical 64 \
		--children $kids --order $order --format json \
		--out "$work/$order" >"$work/$order.json" 2>"$work/$order.err"
	rc=$?
	after=$(snapshot)
	j=$work/$order.json
	assert_verdict "$order" "$j" $rc
	assert_jq "$order: JSON names the family" "$j" \
		".pattern.children == $kids and .pattern.order == \"$order\""
	assert_jq "$order: every case's family counted: $procs processes, $vmas VMAs" \
		"$j" "[.cases[] | .pattern.vmas] | all(. == $vmas)"
	assert "$order: the report gives each case's processes and VMAs" \
		grep -q "ksm $procs processes, $vmas VMAs" \
		<(sed -n '/^Pattern/,/^KSM/p' "$work/$order/ksm-fork.txt" | tr -s ' \n' ' ')
	# ksm_merging_pages summed over the family: pages ksmd merged in
	# each process. After fork-then-merge, more than the parent's 64;
	# after merge-then-fork the children inherited theirs: the parent's.
	if [ $order = fork-then-merge ]; then
		want="> 64 and .pattern.ksm_merging_pages <= $((64 * procs))"
	else
		want="== 64"
	fi
	assert_jq "$order: KSM merging pages summed over the family" "$j" \
		".pattern.ksm_merging_pages $want"
	# The frames oracle judges migration only: every member's mapping
	# of every filled page, each case.
	# After merge-then-fork the children never touch the memfd's pages,
	# and fork copies no PTE of a shared file mapping: the file case's
	# only mappings are the parent's.
	if [ $order = fork-then-merge ]; then
		file_maps=$((64 * procs))
	else
		file_maps=64
	fi
	if [ "$(expected_trigger)" = migrate ]; then
		assert_jq "$order: oracle clean, over every member's mapping of every page" \
			"$j" ".cases | all(.oracle.pages_failed == 0 and .oracle.mappings_missed == 0)"
		assert_jq "$order: mappings checked: $((64 * procs)) (ksm, anon), $file_maps (file)" \
			"$j" "[.cases[].oracle.mappings_checked] == [$((64 * procs)), $((64 * procs)), $file_maps]"
	else
		assert_jq "$order: no oracle with $(expected_trigger), which moves nothing" \
			"$j" '.cases | all(.oracle == null)'
	fi
	assert_formats "$order: text, KTAP and JSON agree" "$work/$order" ksm-fork
	assert "$order: no child is left" [ -z "$(children_of)" ]
	assert_same "$order: the machine is as before" "$before" "$after"
done

# A tree (--depth 2, 2 children per member): 1 + 2 + 4 processes.
"$bin/ksm-fork" --runs 1 --pages $pages --identical 64 --children 2 \
	--depth 2 --order merge-then-fork --format json >"$work/tree.json" \
	2>"$work/tree.err"
rc=$?
assert_jq "a tree of depth 2: 7 processes and their VMAs counted per case (exit $rc)" \
	"$work/tree.json" ".pattern.depth == 2 and (.cases | all(.pattern.processes == 7 and .pattern.vmas == $((pages * 7))))"
assert "a tree: no member is left" [ -z "$(children_of)" ]
"$bin/ksm-fork" --children 8 --depth 4 >"$work/big.out" 2>&1
assert "a tree of more than 1024 members is a usage error (exit 2)" [ $? = 2 ]

# SIGKILL of the reproducer inside its trigger: the measuring process
# and the family die with it; scripts/restore puts the machine back.
set -m
before=$(snapshot)
RMAP_REPRO_TEST_HOLD_MS=8000 "$tbin/ksm-fork" --runs 1 --pages $pages \
	--identical 64 --children $kids --format json \
	>/dev/null 2>"$work/kill.err" &
pid=$!
trigger=$(expected_trigger)
if wait_for "$work/kill.err" "case ksm: trigger $trigger (probe pass)" 120; then
	reached=1
	family=$(children_of $pid)
else
	reached=0
	family=""
fi
kill -KILL $pid
wait $pid 2>/dev/null
for ((i = 0; i < 100; i++)); do
	[ -z "$(children_of)" ] && break
	sleep 0.1
done
left=$(children_of)
"$top/scripts/restore" --quiet >"$work/restore.out" 2>&1
rrc=$?
after=$(snapshot)
assert "SIGKILL: the run reached its trigger with its family alive ($(echo $family | wc -w) processes)" \
	[ $reached = 1 -a "$(echo $family | wc -w)" -gt $kids ]
assert "SIGKILL: no process of the family outlives it" [ -z "$left" ]
assert "SIGKILL: scripts/restore replays the journal (exit $rrc)" [ $rrc = 0 ]
assert_same "SIGKILL: the machine is as before after scripts/restore" \
	"$before" "$after"

"$bin/ksm-fork" --order sideways >"$work/bad.out" 2>&1
assert "an unknown --order is a usage error (exit 2)" [ $? = 2 ]
finish
