#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksm-mremap on the kernel here. Its oracle needs move_pages() between
# two NUMA nodes: with one node it must SKIP, saying why, and leave the
# machine as it was; with two it must run to a verdict that follows
# from its figures, with an oracle outcome for every case. A trigger it
# cannot use is a usage error.
. "$(dirname "$0")/../lib/integration.sh"

before=$(snapshot)
"$bin/ksm-mremap" --runs 1 --pages 128 --format json --out "$work/m" \
	>"$work/m.json" 2>"$work/m.err"
rc=$?
after=$(snapshot)
j=$work/m.json
if [ "$(mem_nodes)" -lt 2 ]; then
	echo "# here: $(mem_nodes) NUMA node(s) with memory: a skip is expected"
	assert "one node: exit 4 (skip)" [ $rc = 4 ]
	assert_jq "one node: the reason says it needs the migrate trigger, and why not here" \
		"$j" '.verdict == "skip" and (.reason | test("needs the migrate trigger")) and (.reason | test("migrate: "))'
	assert "one node: KTAP says SKIP with the reason" \
		grep -q "^ok 1 ksm-mremap # SKIP .*migrate trigger" "$work/m/ksm-mremap.ktap"
else
	echo "# here: $(mem_nodes) NUMA nodes with memory: a verdict is expected"
	v=$(jq -r .verdict "$j")
	assert "two nodes: a verdict ($v), exit $(exit_of "$v")" \
		[ "$v" != skip -a "$v" != error -a $rc = "$(exit_of "$v")" ]
	assert_jq "two nodes: the verdict follows from the figures and the oracle" \
		"$j" ".verdict == ($verdict_rule)"
	assert_jq "two nodes: every case has an oracle outcome" "$j" \
		'.cases | all(.oracle.pages_checked > 0 and .oracle.mappings_checked > 0)'
fi
assert_same "the machine is as before" "$before" "$after"

"$bin/ksm-mremap" --trigger reclaim >"$work/bad.out" 2>&1
assert "--trigger reclaim is a usage error (exit 2) that says why" \
	bash -c "[ $? = 2 ] && grep -q 'needs the migrate trigger' '$work/bad.out'"
"$bin/ksm-mremap" --pages 101 >"$work/odd.out" 2>&1
assert "--mremap fixed with an odd --pages is a usage error (exit 2)" [ $? = 2 ]
finish
