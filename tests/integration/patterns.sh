#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Pattern sizes beyond vm.max_map_count are raised through the journal
# and put back; the VMA count is verified; the verdict still holds.
. "$(dirname "$0")/../lib/integration.sh"

before=$(snapshot)
limit=$(cat /proc/sys/vm/max_map_count)
pages=$((limit + 4000))
"$bin/ksm-mprotect-split" --runs 1 --pages $pages --format json \
	>"$work/big.json" 2>"$work/big.err"
rc=$?
after=$(snapshot)
assert "a $pages-VMA pattern runs (exit 1: reproduced)" [ $rc = 1 ]
assert_jq "its VMA count was verified in /proc/self/maps" "$work/big.json" \
	".pattern.vmas == $pages"
assert "vm.max_map_count was raised and put back" \
	grep -q "restored /proc/sys/vm/max_map_count: [0-9]* -> $limit" \
	"$work/big.err"
assert_same "the machine is as before" "$before" "$after"
finish
