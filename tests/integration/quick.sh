#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all with the quick preset runs ksm-mprotect-split on this kernel:
# it must measure a KSM-case latency well above both controls, say
# "reproduced" in all three formats, and leave the machine as it was.
. "$(dirname "$0")/../lib/integration.sh"

out=$work/run
before=$(snapshot)
"$top/scripts/run-all" --preset quick --only ksm-mprotect-split \
	--out "$out" >"$work/stdout" 2>"$work/stderr"
rc=$?
after=$(snapshot)
j=$out/results.json
r='.results[0]'

assert "run-all exits 1: the latency bug reproduced" [ $rc = 1 ]
assert_jq "results.json: verdict reproduced" "$j" "$r.verdict == \"reproduced\""
assert_jq "the pattern has 20000 VMAs, counted in /proc/self/maps" "$j" \
	"$r.pattern.vmas == 20000 and ($r.cases | all(.pattern.vmas == 20000))"
assert_jq "KSM merged the identical pages" "$j" \
	"$r.pattern.ksm_pages_shared >= 1 and $r.pattern.ksm_pages_sharing >= 500 and $r.pattern.ksm_merging_pages >= 500"
assert_jq "three cases: ksm and the anon and file controls" "$j" \
	"[$r.cases[].page_type] == [\"ksm\", \"anon\", \"file\"]"
assert_jq "every case measured intervals with a named probe" "$j" \
	"$r.cases | all(.latency_ms.count > 0 and .probe == \"memcg-reclaim\" and (.probe_detail.events | test(\"mm_vmscan_memcg_reclaim_begin\")))"
assert_jq "KSM case max exceeds the 10 ms threshold" "$j" \
	"($r.cases[0].latency_ms.max) > $r.threshold_ms"
assert_jq "KSM case max is at least 5x each control's max" "$j" \
	"$r.cases[0].latency_ms.max >= 5 * ([$r.cases[1:][].latency_ms.max] | max)"
assert_jq "controls stay in the low milliseconds (< 50 ms)" "$j" \
	"[$r.cases[1:][].latency_ms.max] | all(. < 50)"
assert_jq "the reclaim reached the controls' pages (pagemap)" "$j" \
	"$r.cases[1:] | all(.reach.pages_unmapped > 0)"
# (victim_errors is not asserted: under the lowered memcg limit an
# mprotect() may legitimately fail with ENOMEM; the report counts them.)
assert_jq "the victim measured mprotect() latencies in every case" "$j" \
	"$r.cases | all(.victim_stall_ms.count > 0)"
assert_jq "no trace events were lost" "$j" "$r.cases | all(.lost_events == 0)"
assert_jq "the OOM killer did not run" "$j" \
	"$r.safety.oom_kill_before == $r.safety.oom_kill_after"
assert_jq "the journal was replayed without failure" "$j" \
	"$r.safety.restore_ran and $r.safety.restore_failures == 0 and $r.safety.restored_changes > 0"
assert_jq "results.json carries the system facts" "$j" \
	".system.kernel.release == \"$(uname -r)\" and .system.probes[\"memcg-reclaim\"] == true"
assert "results.ktap: the reproducer is not ok (bug reproduced)" \
	grep -qx "not ok 1 ksm-mprotect-split" "$out/results.ktap"
assert "results.ktap: the KSM subtest is not ok, controls ok" \
	grep -Pzq '    not ok 1 ksm\n(.*\n)*    ok 2 anon\n(.*\n)*    ok 3 file\n' "$out/results.ktap"
assert "report.txt: header, verdict, probe and victim explained" \
	bash -c "grep -q 'what this kernel offers (rmap-probes)' '$out/report.txt' &&
		 grep -q 'ksm-mprotect-split: REPRODUCED' '$out/report.txt' &&
		 grep -q 'It bounds:' '$out/report.txt' &&
		 grep -q '^Victim' '$out/report.txt'"
assert "run-all printed the report" grep -q REPRODUCED "$work/stdout"
assert "progress lines went to stderr" grep -q "case ksm: trigger" "$work/stderr"
assert_same "the machine is as before (knobs, swap, zram, cgroups, tracefs)" \
	"$before" "$after"
finish
