#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Probe choice on this machine's kernel: no rmap tracepoints, no
# function tracer, no kprobes. auto falls back to the stock brackets and
# says why the others are unavailable; asking for one of them is a SKIP
# with that reason (never an EPERM surfacing as an error); nothing is
# left behind (no dynamic event, no tracer, no instance).
. "$(dirname "$0")/../lib/integration.sh"

repro=$bin/ksm-mprotect-split
before=$(snapshot)
"$repro" --runs 1 --format json >"$work/auto.json" 2>/dev/null
rc=$?
assert "auto: the run completes (exit 1, reproduced)" [ $rc = 1 ]
assert_jq "auto: a stock bracket measured every case" "$work/auto.json" \
	'.cases | all(.probe == "memcg-reclaim" or .probe == "migrate-batch")'
assert_jq "auto: the report says why rmap-tp, funcgraph, kprobe were not used" \
	"$work/auto.json" \
	'.cases[0].probe_detail.chosen_because | test("rmap-tp unavailable") and test("funcgraph unavailable") and test("kprobe unavailable")'
assert_jq "auto: figures are named for what they are (not walks)" \
	"$work/auto.json" '.cases | all(.probe_detail.walk_level == false)'

for p in rmap-tp funcgraph kprobe; do
	"$repro" --runs 1 --probe $p --format ktap >"$work/$p.ktap" 2>&1
	rc=$?
	assert "--probe $p: exit 4 (skip), not an error" [ $rc = 4 ]
	assert "--probe $p: KTAP says SKIP with the reason" \
		grep -q "^ok 1 ksm-mprotect-split # SKIP probe $p: " "$work/$p.ktap"
done
"$repro" --runs 1 --probe funcgraph --funcgraph-top --format ktap \
	>"$work/fgtop.ktap" 2>&1
assert "--funcgraph-top without function_graph: skip with the reason" \
	grep -q "# SKIP probe funcgraph: no function_graph tracer" \
	"$work/fgtop.ktap"
"$repro" --runs 1 --iterations --format ktap >"$work/iter.ktap" 2>&1
assert "--iterations without kprobes: skip with the reason" \
	grep -q "# SKIP --iterations: no kprobe_events" "$work/iter.ktap"
"$repro" --runs 1 --cross-check --probe-cost --format json \
	>"$work/cc.json" 2>/dev/null
assert_jq "--cross-check with no walk-level probe here: none added" \
	"$work/cc.json" '.cases | all(.cross_check == [])'
assert_jq "--probe-cost: the trigger was timed with and without the probe" \
	"$work/cc.json" '.cases | all(.probe_cost.trigger_s_without > 0)'
assert_same "nothing was left behind" "$before" "$(snapshot)"
finish
