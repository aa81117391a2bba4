#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksm-memory-failure on the kernel here. Without memory failure, or
# outside a VM that scripts/vm-run booted, it must SKIP with the reason
# and change nothing. Where it runs (the suite's VM, with memory failure
# and the hwpoison injector): a verdict that follows from its figures;
# every case's sacrificial child killed by SIGBUS (the oracle); each
# memory_failure() call timed, and no shorter than the longest walk
# inside it; the kernel's memory failure lines in the report; the same
# with the other injector (--injector madvise: the member poisons its
# own page, and the probes follow it); the machine as before.
. "$(dirname "$0")/../lib/integration.sh"

hwc() { awk '/^HardwareCorrupted:/ { print $2 }' /proc/meminfo; }
before=$(snapshot)
hwc0=$(hwc)
"$bin/ksm-memory-failure" --runs 1 --pages 4000 --identical 256 \
	--format json --out "$work/m" >"$work/m.json" 2>"$work/m.err"
rc=$?
after=$(snapshot)
hwc1=$(hwc)
j=$work/m.json
if [ "$(kconfig MEMORY_FAILURE)" != y ]; then
	echo "# here: no CONFIG_MEMORY_FAILURE: a skip is expected"
	assert "exit 4 (skip)" [ $rc = 4 ]
	assert_jq "the reason names the missing option" "$j" \
		'.verdict == "skip" and .reason == "CONFIG_MEMORY_FAILURE is not set in this kernel"'
elif ! suite_vm; then
	echo "# here: not the suite's VM: a refusal (skip) is expected"
	assert "exit 4 (skip)" [ $rc = 4 ]
	assert_jq "the reason says why it refuses, and how to consent" "$j" \
		'.verdict == "skip" and (.reason | test("refused outside a VM that scripts/vm-run booted")) and (.reason | test("--allow-hwpoison"))'
else
	echo "# here: the suite's VM with memory failure: a run is expected"
	assert_verdict "ksm-memory-failure" "$j" $rc
	assert_jq "hwpoison triggered every case" "$j" \
		'.trigger.name == "hwpoison" and (.cases | all(.reach.pages_moved == 1))'
	assert_jq "every case's sacrificial child died of SIGBUS (oracle clean)" \
		"$j" '.cases | all(.oracle.mappings_checked == 1 and .oracle.mappings_missed == 0 and .oracle.pages_failed == 0)'
	assert_jq "each memory_failure() call timed, no shorter than the longest walk in it" \
		"$j" '.cases | all(.trigger_call_ms.count == 1 and .trigger_call_ms.max >= .latency_ms.max)'
	# part (finding the processes) and walks are disjoint inside the
	# call; 1 ms for the two clocks
	assert_jq "the split adds up: part, walks and rest make the calls" \
		"$j" '.cases | all(.trigger_call_split | (.part_ms // 0) + .walks_ms <= .calls_ms + 1 and ((.part_ms // 0) + .walks_ms + .rest_ms - .calls_ms | fabs) < 1)'
	assert_jq "each case's part is timed, or the split says why not" \
		"$j" '.cases | all(.trigger_call_split | (.part_ms != null) != (.part_not_timed != null))'
	# what the kernel offers decides whether the KSM case's part is timed
	if [ -e /sys/kernel/tracing/kprobe_events ] &&
	   grep -q ' collect_procs_ksm$' /proc/kallsyms; then
		assert_jq "kprobes and collect_procs_ksm here: the KSM case's part is timed on it" \
			"$j" '.trigger.part.timed and .cases[0].trigger_call_split.part_function == "collect_procs_ksm"'
	else
		assert_jq "no kprobes or no collect_procs_ksm here: the KSM case says why its part is not timed" \
			"$j" '.cases[0].trigger_call_split.part_not_timed | length > 0'
	fi
	assert_jq "the kernel's memory failure line is in each case's log" \
		"$j" '.cases | all(.kernel_log | any(test("Memory failure")))'
	assert "every poisoned frame given back (HardwareCorrupted $hwc0 kB before, $hwc1 kB after)" \
		[ "$hwc0" = "$hwc1" ]
	# the other injector: MADV_HWPOISON by the member that maps the page
	hwc2=$(hwc)
	"$bin/ksm-memory-failure" --runs 1 --pages 4000 --identical 256 \
		--injector madvise --format json >"$work/mad.json" \
		2>"$work/mad.err"
	rc2=$?
	jm=$work/mad.json
	assert_verdict "--injector madvise" "$jm" $rc2
	assert_jq "--injector madvise: each member poisoned its own page and died of it" \
		"$jm" '(.trigger.how | test("by madvise\\(MADV_HWPOISON\\) in pid [0-9]+.*1 call\\(s\\) ended by the caller.s SIGBUS")) and (.cases | all(.reach.pages_moved == 1 and .oracle.mappings_missed == 0 and .oracle.pages_failed == 0))'
	# the walks ran in the member: traced only because it is an actor
	assert_jq "--injector madvise: the walks in the member were traced and fit in its calls" \
		"$jm" '.cases | all(.latency_ms.count >= 1 and .trigger_call_ms.count == 1 and .trigger_call_ms.max >= .latency_ms.max)'
	assert "--injector madvise: every poisoned frame given back (HardwareCorrupted $hwc2 kB before, $(hwc) kB after)" \
		[ "$hwc2" = "$(hwc)" ]
	assert_same "--injector madvise: the machine is as before" "$before" \
		"$(snapshot)"
	assert "the text report shows the calls, the part, the split and the kernel log" \
		bash -c "grep -q '^Trigger calls (hwpoison)' '$work/m/ksm-memory-failure.txt' && grep -q '^Part     finding the processes' '$work/m/ksm-memory-failure.txt' && grep -q '^Split    ksm: ' '$work/m/ksm-memory-failure.txt' && grep -q '^Kernel   log, ksm: .*Memory failure' '$work/m/ksm-memory-failure.txt'"
fi
assert_same "the machine is as before" "$before" "$after"
finish
