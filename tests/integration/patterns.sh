#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Pattern sizes beyond vm.max_map_count are raised through the journal
# and put back; the VMA count is verified; the verdict still holds.
. "$(dirname "$0")/../lib/integration.sh"

before=$(snapshot)
limit=$(cat /proc/sys/vm/max_map_count)
pages=$((limit + 4000))
# Two runs: one reclaim pass can back off from the KSM pages (its
# folio_referenced() only trylocks the anon_vma), and the verdict takes
# the largest walk of all runs.
"$bin/ksm-mprotect-split" --runs 2 --pages $pages --format json \
	>"$work/big.json" 2>"$work/big.err"
rc=$?
after=$(snapshot)
if [ $rc = 1 ]; then
	ok "a $pages-VMA pattern runs (exit 1: reproduced)"
else
	not_ok "a $pages-VMA pattern runs (exit 1: reproduced)" \
		"exit $rc: $(jq -r '.verdict + ": " + .reason' "$work/big.json" 2>&1)"
fi
assert_jq "its VMA count was verified in /proc/self/maps" "$work/big.json" \
	".pattern.vmas == $pages"
assert "vm.max_map_count was raised and put back" \
	grep -q "restored /proc/sys/vm/max_map_count: [0-9]* -> $limit" \
	"$work/big.err"
assert_same "the machine is as before" "$before" "$after"
finish
