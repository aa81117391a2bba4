#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksm-mremap in the VM, on both shared 6.12 kernels (two nodes): the
# oracle is clean for every case in both mremap modes, on the unfixed
# kernel and on -ksmfix (which keeps each rmap_item's index from merge
# time: mremap keeps vm_pgoff, so the index stays right). Then its
# failure path, for real: --pin-page anon holds a page that migration
# cannot move, and the oracle must report exactly that page, making the
# run an error; --pin-page ksm makes the KSM case fail its oracle, which
# is reproduced as a correctness failure. On one node, the soft-offline
# trigger moves the pages instead: the oracle is clean there too, and
# every frame it retired is given back.
. "$(dirname "$0")/../lib/integration.sh"

if ! vm_possible; then
	ok "ksm-mremap in the VM # SKIP no test kernels or no QEMU"
	finish
	exit 0
fi
before=$(snapshot)
clean='.cases | all(.oracle.pages_failed == 0 and .oracle.mappings_missed == 0 and .oracle.pages_checked > 0)'
for which in unfixed fixed; do
	out=$work/$which
	vm_quick "$(test_kernel $which)" "$out" ksm-mremap
	rc=$?
	j=$out/results.json
	assert "$which: vm-run exits 0 (not reproduced)" [ $rc = 0 ]
	assert_jq "$which: fixed and move modes ran" "$j" \
		'[.results[].reproducer] == ["ksm-mremap", "ksm-mremap@move"]'
	assert_jq "$which: the oracle is clean for every case of both" "$j" \
		".results | all($clean)"
	assert_jq "$which: every mapping of the KSM pages checked (256 after fixed, 512 after move)" \
		"$j" '[.results[].cases[0].oracle.mappings_checked] == [256, 512]'
	assert_jq "$which: each verdict follows the documented rule" "$j" \
		".results | all(.verdict == ($verdict_rule))"
done

out=$work/one-node
vm_quick "$(test_kernel unfixed)" "$out" ksm-mremap --numa-nodes 1
rc=$?
j=$out/results.json
assert "one node: vm-run exits 0 (not reproduced)" [ $rc = 0 ]
assert_jq "one node: auto chose soft-offline for both modes" "$j" \
	'[.results[].trigger.name] == ["soft-offline", "soft-offline"]'
assert_jq "one node: the oracle is clean for every case" "$j" \
	".results | all($clean)"
assert_jq "one node: every retired frame given back (HardwareCorrupted 0 kB after)" \
	"$j" '.results | all(.trigger.how | test("HardwareCorrupted 0 kB before, 0 kB after"))'
assert_jq "one node: each verdict follows the documented rule" "$j" \
	".results | all(.verdict == ($verdict_rule))"

out=$work/pin-anon
vm_quick "$(test_kernel unfixed)" "$out" ksm-mremap -- --pin-page anon
rc=$?
j=$out/results.json
assert "--pin-page anon: vm-run exits 2 (a control failed its oracle)" [ $rc = 2 ]
assert_jq "--pin-page anon: the oracle reports exactly the pinned page" "$j" \
	'.results | all(.cases[1].oracle.pages_failed == 1 and .cases[1].oracle.mappings_missed == 0 and (.cases[1].oracle.reason | test("at \\+0 did not move")))'
assert_jq "--pin-page anon: the other cases stay clean" "$j" \
	'.results | all([.cases[0], .cases[2]] | all(.oracle.pages_failed == 0 and .oracle.mappings_missed == 0))'
assert_jq "--pin-page anon: error, naming the control's oracle" "$j" \
	'.results | all(.verdict == "error" and (.reason | test("anon case \\(control\\): the oracle failed")))'

out=$work/pin-ksm
vm_quick "$(test_kernel unfixed)" "$out" ksm-mremap -- --pin-page ksm
rc=$?
j=$out/results.json
assert "--pin-page ksm: vm-run exits 1 (reproduced)" [ $rc = 1 ]
assert_jq "--pin-page ksm: reproduced as a correctness failure" "$j" \
	'.results | all(.verdict == "reproduced" and (.reason | startswith("correctness: KSM case")) and .cases[0].oracle.pages_failed >= 1)'
assert "--pin-page ksm: KTAP marks the KSM case not ok with the oracle's line" \
	bash -c "grep -q '    # ksm: oracle: [1-9]' '$out/results.ktap' && grep -q '    not ok 1 ksm' '$out/results.ktap'"
assert "the guest said how it pinned" grep -q "pin-page: pinned the first page" "$out.stderr"
assert_same "the host is as before" "$before" "$(snapshot)"
finish
