#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Pattern sizes beyond vm.max_map_count are raised through the journal
# and put back; the VMA count is verified; the run ends in a verdict
# that follows from its figures (whichever the kernel gives).
. "$(dirname "$0")/../lib/integration.sh"

before=$(snapshot)
limit=$(cat /proc/sys/vm/max_map_count)
pages=$((limit + 4000))
"$bin/ksm-mprotect-split" --runs 1 --pages $pages --format json \
	--out "$work/big" >"$work/big.json" 2>"$work/big.err"
rc=$?
after=$(snapshot)
assert_verdict "a $pages-VMA pattern" "$work/big.json" $rc
assert_jq "its VMA count was verified in /proc/self/maps" "$work/big.json" \
	".pattern.vmas == $pages and (.cases | all(.pattern.vmas == $pages))"
assert_formats "text, KTAP and JSON agree" "$work/big" ksm-mprotect-split
assert "vm.max_map_count was raised and put back" \
	grep -q "restored /proc/sys/vm/max_map_count: [0-9]* -> $limit" \
	"$work/big.err"
assert_same "the machine is as before" "$before" "$after"
finish
