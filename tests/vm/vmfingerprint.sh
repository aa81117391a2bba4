#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/fingerprint on the shared 6.12 test kernels, the positive and
# negative controls: the unfixed kernel's KSM walk visits every VMA of
# the anon_vma (UNFIXED, exit 1), -ksmfix's only the page's (FIXED, exit
# 0), while both leave memory_failure()'s collect_procs_ksm() unfixed
# (the -ksmfix patch does not touch it); on both, the KSM page moved by
# mremap follows migration and leaves memory whole under reclaim (the
# swap-out oracle, Hugh Dickins' case). Verdicts asserted only on these
# known kernels.
. "$(dirname "$0")/../lib/integration.sh"

if ! vm_possible; then
	ok "fingerprint in the VM # SKIP no test kernels or no QEMU"
	finish
	exit 0
fi
before=$(snapshot)
for which in unfixed fixed; do
	out=$work/$which
	"$top/scripts/fingerprint" --kernel "$(test_kernel $which)" \
		--config "$(test_kernel_config "$(test_kernel unfixed)")" \
		--out "$out" --json >"$out.json" 2>"$out.err"
	rc=$?
	want=unfixed code=1
	[ $which = fixed ] && want=fixed code=0
	assert "$which: exit $code ($want)" [ $rc = $code ]
	assert_jq "$which: the walk $want, memory failure unfixed, both mremap oracles correct" \
		"$out.json" "[.paths[].state] == [\"$want\", \"unfixed\", \"correct\", \"correct\"]"
	spi=$(jq '[.results[] | select(.reproducer == "ksm-mprotect-split")
		| .cases[0].iterations.steps_per_rmap_item_mean][0]' \
		"$out/results.json" 2>/dev/null)
	assert_jq "$which: the walk's steps per rmap_item are the run's ($spi), against its 2000 VMAs" \
		"$out.json" ".paths[0].figures.steps_per_rmap_item == ${spi:-null} and .paths[0].figures.vmas == 2000"
	assert_jq "$which: the swap-out oracle checked every mapping of the KSM page" \
		"$out/results.json" '.results[] | select(.reproducer == "ksm-mremap@swap") | .cases[0].oracle.mappings_checked == 256 and .cases[0].oracle.pages_failed == 0'
done
assert_same "the host is as before" "$before" "$(snapshot)"
finish
