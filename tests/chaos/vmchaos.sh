#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fault and kill matrices where this machine's kernel lacks the
# trigger: the shared unfixed 6.12 test kernel under QEMU (vm-run
# --check), where migrate, page-idle, hwpoison and soft-offline run
# (tests/lib/chaos.sh: chaos_pairs in a guest). The guest's own results
# are this test's: its figures lines are repeated here, and its lines
# shown as they come ("# guest: faults: ... ok 3 ...", with
# tests/run --stream).
. "$(dirname "$0")/../lib/integration.sh"

if ! command -v qemu-system-x86_64 >/dev/null ||
   [ -z "$(test_kernel unfixed 2>/dev/null)" ]; then
	ok "chaos in the unfixed test kernel's guest # SKIP no QEMU or no shared test kernel"
	finish
	exit 0
fi
kernel=$(test_kernel unfixed)
"$top/scripts/vm-run" --kernel "$kernel" \
	--config "$(test_kernel_config "$kernel")" --check \
	--out "$work/vm" --timeout 5400 -- --stream --chaos faults kills \
	2> >(tee "$work/vm.err" | while IFS= read -r l; do
		[[ "$l" =~ ^guest:\ (faults|kills):\ \.\.\.\  ]] && echo "# $l"
	done) >"$work/vm.out"
rc=$?
wait
last=$(tail -1 "$work/vm/check.log" 2>/dev/null)
grep -E '^(faults|kills): # here: figures' "$work/vm/check.log" |
	sed 's/^\([a-z]*\): # here: /# here: \1 in the guest: /'
if [ $rc = 0 ] && [[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] &&
   [ "${BASH_REMATCH[1]}" -gt 0 ]; then
	ok "the matrices pass in the guest ($last)"
else
	not_ok "the matrices pass in the guest" "vm-run exit $rc, last line '$last'" \
		"$(grep -E '^(faults|kills): (not ok|#)' "$work/vm/check.log" 2>/dev/null | head -20)"
fi
finish
