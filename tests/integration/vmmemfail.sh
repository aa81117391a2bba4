#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksm-memory-failure in the VM on both shared 6.12 kernels. On the
# unfixed one the KSM walk inside memory_failure() takes hundreds of ms;
# on -ksmfix the walk is short, but the call is still long: the rest of
# it (finding the processes that map the page) is not fixed. The verdict
# judges the whole call, so both reproduce; the split says where the
# time went. Verdicts are asserted because the kernels are known.
. "$(dirname "$0")/../lib/integration.sh"

if ! vm_possible; then
	ok "ksm-memory-failure in the VM # SKIP no test kernels or no QEMU"
	finish
	exit 0
fi
before=$(snapshot)
for which in unfixed fixed; do
	out=$work/$which
	vm_quick "$(test_kernel $which)" "$out" ksm-memory-failure
	rc=$?
	j=$out/results.json
	r='.results[0]'
	assert "$which: vm-run exits 1 (reproduced)" [ $rc = 1 ]
	assert_jq "$which: reproduced, by the documented rule, on the calls" \
		"$j" "$r | .verdict == \"reproduced\" and .verdict_on == \"trigger calls\" and .verdict == ($verdict_rule)"
	assert_jq "$which: hwpoison and rmap-tp measured every case" "$j" \
		"$r | .trigger.name == \"hwpoison\" and (.cases | all(.probe == \"rmap-tp\" and .trigger_call_ms.count >= 1))"
	assert_jq "$which: every sacrificial child killed by SIGBUS" "$j" \
		"$r.cases | all(.oracle.mappings_missed == 0 and .oracle.pages_failed == 0)"
	assert_jq "$which: the split adds up to the calls" "$j" \
		"$r.cases | all(.trigger_call_split | .walks_ms <= .calls_ms + 0.001 and (.walks_ms + .rest_ms - .calls_ms | fabs) < 0.01)"
	assert_jq "$which: the controls' calls stay under 20 ms" "$j" \
		"$r.cases[1:] | all(.trigger_call_ms.max < 20)"
	assert_jq "$which: the guest's memory failure lines are reported" \
		"$j" "$r.cases | all(.kernel_log | any(test(\"Memory failure: .*recovery action\")))"
	if [ $which = unfixed ]; then
		assert_jq "unfixed: the KSM walk itself takes 100 ms and more" \
			"$j" "$r.cases[0].latency_ms.max >= 100"
	else
		assert_jq "fixed: the KSM walk is short, the rest of the call is not (100 ms and more)" \
			"$j" "$r.cases[0] | .latency_ms.max < 20 and .trigger_call_split.rest_ms >= 100"
	fi
done
assert_same "the host is as before" "$before" "$(snapshot)"
finish
