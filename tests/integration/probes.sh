#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Probe choice on the running kernel, derived from what it offers
# (rmap-probes --json, the kernel version): auto takes the first probe
# available and says why each better one was not; a probe asked for by
# name measures every case when the kernel offers it and is a SKIP with
# the reason when not (never an EPERM surfacing as an error); the
# cross-check adds exactly the other walk-level probes available;
# --funcgraph-top and --iterations run or skip with their reason;
# nothing is left behind (no dynamic event, no tracer, no instance).
# A small pattern keeps this quick under QEMU too.
. "$(dirname "$0")/../lib/integration.sh"

repro=$bin/ksm-mprotect-split
small=(--runs 1 --pages 2000 --identical 64)
trigger=$(expected_trigger)
walk_probes=()
for p in rmap-tp funcgraph kprobe; do
	probe_offered $p && walk_probes+=("$p")
done
echo "# here: trigger $trigger; walk-level probes: ${walk_probes[*]:-none}"
before=$(snapshot)

# A run that measured: a verdict, and the exit code that goes with it.
measured() {
	local j=$1 rc=$2 v

	v=$(jq -r .verdict "$j" 2>/dev/null)
	{ [ "$v" = reproduced ] || [ "$v" = not-reproduced ]; } &&
		[ "$rc" = "$(exit_of "$v")" ]
}

auto=$(expected_probe auto "$trigger")
"$repro" "${small[@]}" --out "$work/auto" --format json \
	>"$work/auto.json" 2>"$work/auto.err"
rc=$?
assert "auto: the run measured (a verdict, exit $rc)" measured "$work/auto.json" $rc
assert_jq "auto: the first probe available measured every case ($auto)" \
	"$work/auto.json" ".cases | all(.probe == \"$auto\" and .latency_ms.count > 0)"
better=()
for p in rmap-tp funcgraph kprobe; do
	[ "$p" = "$auto" ] && break
	better+=("$p")
done
filter=true
for p in "${better[@]}"; do
	filter="$filter and test(\"$p unavailable\")"
done
assert_jq "auto: the report says why ${better[*]:-no better probe} was not used" \
	"$work/auto.json" ".cases[0].probe_detail.chosen_because | $filter"
if [ "$auto" = memcg-reclaim ] || [ "$auto" = migrate-batch ]; then
	wl=false
else
	wl=true
fi
assert_jq "auto: figures are named for what they are (walk_level $wl)" \
	"$work/auto.json" ".cases | all(.probe_detail.walk_level == $wl)"
assert_formats "auto: text, KTAP and JSON agree" "$work/auto" ksm-mprotect-split

for p in rmap-tp funcgraph kprobe brackets; do
	"$repro" "${small[@]}" --probe $p --out "$work/$p" --format json \
		>"$work/$p.json" 2>"$work/$p.err"
	rc=$?
	if want=$(expected_probe $p "$trigger"); then
		assert "--probe $p: offered here, it measured (exit $rc)" \
			measured "$work/$p.json" $rc
		assert_jq "--probe $p: every case measured by $want" \
			"$work/$p.json" ".cases | all(.probe == \"$want\" and .latency_ms.count > 0)"
	else
		assert "--probe $p: not offered here: exit 4 (skip), not an error" \
			[ $rc = 4 ]
		assert "--probe $p: KTAP says SKIP with the reason" \
			grep -q "^ok 1 ksm-mprotect-split # SKIP probe $p: " \
			"$work/$p/ksm-mprotect-split.ktap"
	fi
done

# function_graph in the top-level buffer: only where the tracer exists.
"$repro" "${small[@]}" --probe funcgraph --funcgraph-top --format json \
	>"$work/fgtop.json" 2>"$work/fgtop.err"
rc=$?
if offers function_graph; then
	want=funcgraph	# the tracer exists: the top level may take it
	assert "--funcgraph-top: function_graph offered, it measured (exit $rc)" \
		measured "$work/fgtop.json" $rc
	assert_jq "--funcgraph-top: in the top-level buffer" "$work/fgtop.json" \
		".cases | all(.probe == \"$want\" and .probe_detail.buffer == \"top-level\")"
else
	assert_jq "--funcgraph-top without function_graph: skip with the reason" \
		"$work/fgtop.json" \
		'.verdict == "skip" and (.reason | test("probe funcgraph: no function_graph tracer"))'
fi

# Step counting needs kprobes.
"$repro" "${small[@]}" --iterations --format json >"$work/iter.json" \
	2>"$work/iter.err"
rc=$?
if offers kprobe_events; then
	assert "--iterations: kprobes offered, it measured (exit $rc)" \
		measured "$work/iter.json" $rc
	assert_jq "--iterations: steps counted for the anon_vma walks" \
		"$work/iter.json" \
		'[.cases[] | select(.page_type != "file") | .iterations.iter_first_calls > 0] | all'
else
	assert_jq "--iterations without kprobes: skip with the reason" \
		"$work/iter.json" \
		'.verdict == "skip" and (.reason | test("--iterations: no kprobe_events"))'
fi

"$repro" "${small[@]}" --cross-check --probe-cost --format json \
	>"$work/cc.json" 2>/dev/null
others=$(for p in "${walk_probes[@]}"; do
		 [ "$p" = "$auto" ] || echo "$p"
	 done | jq -R . | jq -sc .)
assert_jq "--cross-check: exactly the other walk-level probes offered ($others)" \
	"$work/cc.json" ".cases | all([.cross_check[].probe] == $others)"
assert_jq "--probe-cost: the trigger was timed with and without the probe" \
	"$work/cc.json" '.cases | all(.probe_cost.trigger_s_without > 0)'
assert_same "nothing was left behind" "$before" "$(snapshot)"
finish
