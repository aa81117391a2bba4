#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksm-mremap on the kernel here. Its oracle needs pages moved: by
# move_pages() between two NUMA nodes, or on one node by soft offline
# (with memory failure, and the hwpoison injector to give the frames
# back). With neither it must SKIP, saying why, and leave the machine as
# it was; with either it must run to a verdict that follows from its
# figures, with an oracle outcome for every case. A trigger it cannot
# use is a usage error.
. "$(dirname "$0")/../lib/integration.sh"

before=$(snapshot)
"$bin/ksm-mremap" --runs 1 --pages 128 --format json --out "$work/m" \
	>"$work/m.json" 2>"$work/m.err"
rc=$?
after=$(snapshot)
j=$work/m.json
if [ "$(mem_nodes)" -ge 2 ]; then
	want=migrate
elif soft_offline_possible; then
	want=soft-offline
else
	want=
fi
if [ -z "$want" ]; then
	echo "# here: $(mem_nodes) NUMA node(s) with memory, no soft offline: a skip is expected"
	assert "one node: exit 4 (skip)" [ $rc = 4 ]
	assert_jq "one node: the reason says it needs a trigger that moves pages, and why neither is here" \
		"$j" '.verdict == "skip" and (.reason | test("needs the migrate trigger")) and (.reason | test("migrate: .*; soft-offline: "))'
	assert "one node: KTAP says SKIP with the reason" \
		grep -q "^ok 1 ksm-mremap # SKIP .*migrate trigger" "$work/m/ksm-mremap.ktap"
else
	echo "# here: $(mem_nodes) NUMA node(s) with memory: $want and a verdict are expected"
	v=$(jq -r .verdict "$j")
	assert "a verdict ($v), exit $(exit_of "$v")" \
		[ "$v" != skip -a "$v" != error -a $rc = "$(exit_of "$v")" ]
	assert_jq "auto chose $want" "$j" ".trigger.name == \"$want\""
	assert_jq "the verdict follows from the figures and the oracle" \
		"$j" ".verdict == ($verdict_rule)"
	assert_jq "every case has an oracle outcome" "$j" \
		'.cases | all(.oracle.pages_checked > 0 and .oracle.mappings_checked > 0)'
	if [ $want = soft-offline ]; then
		assert_jq "soft-offline gave every retired frame back (HardwareCorrupted as before)" \
			"$j" '.trigger.how | capture("HardwareCorrupted (?<a>[0-9]+) kB before, (?<b>[0-9]+) kB after") | .a == .b'
	fi
fi
assert_same "the machine is as before" "$before" "$after"

# a trigger it cannot use: pressure (reclaim became the swap-out path)
"$bin/ksm-mremap" --trigger pressure >"$work/bad.out" 2>&1
assert "--trigger pressure is a usage error (exit 2) that says why" \
	bash -c "[ $? = 2 ] && grep -q 'needs the migrate trigger' '$work/bad.out'"

# the swap-out path, asked for: reclaim of its memory cgroup on any
# kernel with memcg and swap; every page out with every mapping of it
before=$(snapshot)
"$bin/ksm-mremap" --runs 1 --pages 128 --trigger reclaim --format json \
	--out "$work/s" >"$work/s.json" 2>"$work/s.err"
rc=$?
after=$(snapshot)
j=$work/s.json
if jq -e '.verdict == "skip"' "$j" >/dev/null 2>&1; then
	assert_jq "--trigger reclaim skipped: the reason names what is missing" \
		"$j" '.reason | test("memcg|swap|MEMCG|SWAP")'
else
	v=$(jq -r .verdict "$j")
	assert "--trigger reclaim: a verdict ($v), exit $(exit_of "$v")" \
		[ "$v" != error -a $rc = "$(exit_of "$v")" ]
	assert_jq "--trigger reclaim: the swap-out oracle judged every case, and the verdict follows" \
		"$j" '.trigger.name == "reclaim" and (.cases | all(.oracle.pages_checked > 0 and (.oracle.reason | test("out of memory|stayed in memory|kept it in memory|pswpout|content")))) and .verdict == ('"$verdict_rule"')'
fi
assert_same "--trigger reclaim: the machine is as before" "$before" "$after"
"$bin/ksm-mremap" --pages 101 >"$work/odd.out" 2>&1
assert "--mremap fixed with an odd --pages is a usage error (exit 2)" [ $? = 2 ]
finish
