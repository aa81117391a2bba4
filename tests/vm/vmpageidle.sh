#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The page-idle trigger on the shared 6.12 test kernels: marking the
# pattern's frames idle through /sys/kernel/mm/page_idle/bitmap walks
# each KSM page as migration does, with an rmap walk that never backs
# off. In one boot per kernel, ksm-mprotect-split runs under migrate
# and under page-idle: on the unfixed kernel page-idle reproduces, with
# KSM walks of the same order as migration's (within 4x either way); on
# -ksmfix it does not. The victim's lock waits (lock:contention_begin/end)
# fill most of its longest stall on the unfixed kernel, and stay under
# the threshold on -ksmfix, under both triggers; under reclaim, the
# kretprobe on folio_referenced counts its give-ups. Every frame is reached (but those in the bitmap's
# last, partial word, walked but reported as 0 bytes written), the calls
# hold the walks (a frame of that word's call too), and the text report
# and KTAP say the verdict JSON gives. -ksmfix runs 4,000 VMAs in the vm
# tier's shared guest (tests/lib/vmshare.sh); the unfixed kernel 20,000
# in a boot of its own on wall time with two vCPUs, for its victim's
# lock waits (below): the walk drops the lock between rmap_items, and
# at 4,000 VMAs one hold was 8.4 ms, under the 10 ms threshold.
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

if ! vm_possible; then
	ok "page-idle on the test kernels # SKIP no test kernels or no QEMU"
	finish
	exit 0
fi
preset=$work/page-idle.preset
printf -- '--runs 1\n[run-all]\n--only ksm-mprotect-split\n[ksm-mprotect-split]\n--pages 4000\n--split-every 2\n--identical 512\n[ksm-mprotect-split@page-idle]\n--trigger page-idle\n[ksm-mprotect-split@reclaim]\n--trigger reclaim\n' \
	>"$preset"
# the reproducer's name in a jq selection: for the assertions' names
rname() {
	echo "$1" | sed 's/.*== "\(.*\)")/\1/'
}

vm_job fixed fixed --preset "$preset"
vm_jobs_run
# The unfixed kernel in a boot of its own, on wall time with two vCPUs:
# with one (the shared guests'), the victim waits for the CPU the walk
# holds, not for its lock, and its stall is not the lock's to show.
unfixed=$(test_kernel unfixed)
before=$(snapshot)
"$top/scripts/vm-run" --kernel "$unfixed" --wall-clock \
	--config "$(test_kernel_config "$unfixed")" --preset "$preset" \
	--out "$work/unfixed" --timeout 900 -- --pages 20000 \
	>"$work/unfixed.stdout" 2>"$work/unfixed.stderr"
urc=$?
assert_same "unfixed: the host is as before its boot" "$before" "$(snapshot)"
for which in unfixed fixed; do
	if [ $which = unfixed ]; then
		out=$work/unfixed rc=$urc
	else
		out=$(vm_job_dir $which) rc=$(vm_job_rc $which)
	fi
	j=$out/results.json
	pi='.results[] | select(.reproducer == "ksm-mprotect-split@page-idle")'
	mg='.results[] | select(.reproducer == "ksm-mprotect-split")'
	if [ $which = unfixed ]; then
		want=reproduced code=1
	else
		want=not-reproduced code=0
	fi
	assert "$which: exit $code ($want)" [ "$rc" = $code ]
	assert_jq "$which: page-idle is $want, by the documented rule" "$j" \
		"$pi | .verdict == \"$want\" and .trigger.name == \"page-idle\" and .verdict == ($verdict_rule)"
	# a frame in the bitmap's last word (it ends at max_pfn, not at a
	# multiple of 64) is walked but not written whole: at most 63 of them
	assert_jq "$which: page-idle marked the present frames of every case" \
		"$j" "$pi | .cases | all(.reach.pages_moved > 0 and .reach.pages_move_failed < 64 and (.reach.text | test(\"marked idle\")))"
	assert_jq "$which: rmap-tp timed the walks, and the calls hold them (split)" \
		"$j" "$pi | .cases | all(.probe == \"rmap-tp\" and .latency_ms.count > 0 and .trigger_call_split.walks_ms <= .trigger_call_split.calls_ms * 1.01)"
	# what the split was, for a failure's reader
	jq -r "$pi | .cases[] | \"# \\(.name): \\(.latency_ms.count) walks, \\(.trigger_call_split.text // \"no split\")\"" \
		"$j" 2>/dev/null
	upper=$(echo $want | tr a-z A-Z)
	assert "$which: the text report and KTAP say $want too" \
		bash -c "grep -qx 'ksm-mprotect-split@page-idle: $upper' '$out/report.txt' &&
			 grep -Eqx '$([ $code = 1 ] && echo 'not ')ok [0-9]+ ksm-mprotect-split@page-idle' '$out/results.ktap'"
	# the waiters: lock:contention_begin/end on this 6.12 kernel
	for r in "$pi" "$mg"; do
		assert_jq "$which: the victim's lock waits recorded in every case ($(rname "$r"))" \
			"$j" "$r | .lock_waits.recorded and (.cases | all(.lock_waits.victim != null and (.lock_waits.text | test(\"stalled up to\"))))"
	done
	rc='.results[] | select(.reproducer == "ksm-mprotect-split@reclaim")'
	assert_jq "$which: reclaim's give-ups counted in every case, with the victim and without (kretprobe on folio_referenced)" \
		"$j" "$rc | .lock_waits.giveups_counted and (.cases | all(.lock_waits.reclaim_giveups.calls_without_victim > 0 and .lock_waits.reclaim_giveups.calls_with_victim > 0 and .lock_waits.reclaim_giveups.gave_up_with_victim <= .lock_waits.reclaim_giveups.calls_with_victim))"
	if [ $which = unfixed ]; then
		assert_jq "unfixed: reclaim gave up KSM walks on the lock the victim waits for" \
			"$j" "$rc | .cases[0].lock_waits.reclaim_giveups.gave_up_with_victim > 0"
		assert_jq "unfixed: page-idle's KSM walks are of migration's order (within 4x), over 5x the threshold" \
			"$j" "[($pi | .cases[0].latency_ms.max), ($mg | .cases[0].latency_ms.max), ($pi | .threshold_ms)] as [\$p, \$m, \$t] | \$p >= 5 * \$t and \$p <= 4 * \$m and \$m <= 4 * \$p"
		# the victim's stall is waiting: most of its longest call, and
		# in all of the order of the walk (the walk drops the lock
		# between rmap_items: many waits, each one hold long)
		for r in "$pi" "$mg"; do
			assert_jq "unfixed: KSM victim's longest stall mostly lock waits, its waits over the threshold and of the walk's order ($(rname "$r"))" \
				"$j" "$r | .threshold_ms as \$t | .cases[0] | .lock_waits.waited_in_longest_stall_ms >= 0.5 * .lock_waits.victim_longest_stall_ms and .lock_waits.victim.max_ms > \$t and .lock_waits.victim.total_ms >= 0.25 * .latency_ms.max and .lock_waits.victim.write > 0"
		done
		assert_jq "unfixed: where the KSM victim's waits began, from a hist trigger keyed by stack (an anon_vma or VMA function)" \
			"$j" "[($pi), ($mg)] | all(.lock_waits.stacks_kept and (.cases[0].lock_waits.victim_wait_caller | .hits > 0 and .hits <= .all_hits and (.stack | test(\"anon_vma|vma_\"))))"
		assert "unfixed: the text report's Waits line says how much of the stall was waiting" \
			bash -c "tr -s ' \n' ' ' <'$out/report.txt' | grep -q 'Waits ksm: mprotect() stalled up to [0-9.]* ms in user space, of which [0-9.]* ms waiting for a write lock'"
	else
		assert_jq "fixed: page-idle's KSM walks under the threshold" \
			"$j" "$pi | .cases[0].latency_ms.max < .threshold_ms"
		assert_jq "fixed: the KSM victim's lock waits under the threshold, both triggers" \
			"$j" "[($pi), ($mg)] | all(.threshold_ms as \$t | .cases[0].lock_waits.victim.max_ms < \$t)"
	fi
done
finish
