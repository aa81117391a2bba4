#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reproducers of the other kinds of rmap walk (file, anon, large
# folios) on the kernel here, each once, small: it runs to a verdict
# that follows from its figures, with the trigger and probe the kernel
# offers; every case's processes and VMAs are counted (summed over
# their /proc/PID/maps) as its pattern says; both cases' walks were
# measured, of the case's page type; the report names the published
# problem; the three formats agree; no member outlives the run; the
# machine is left as found (THP settings included). Then their usage
# errors.
. "$(dirname "$0")/../lib/integration.sh"

trigger=$(expected_trigger)
probe=$(expected_probe auto "$trigger")

# processes whose comm is $1 (15 characters at most)
named() {
	local pids

	read -ra pids <<<"$(procs_named "$1")"
	echo ${#pids[@]}
}

# run NAME WORDS COUNTS OPTIONS...: COUNTS is the JSON list of each
# case's [processes, VMAs]; WORDS a phrase of the Pattern line.
run() {
	local name=$1 words=$2 counts=$3 before after rc j

	shift 3
	before=$(snapshot)
	"$bin/$name" --runs 1 --format json --out "$work/$name" "$@" \
		>"$work/$name.json" 2>"$work/$name.err"
	rc=$?
	after=$(snapshot)
	j=$work/$name.json
	assert_verdict "$name" "$j" $rc
	assert_jq "$name: trigger $trigger and probe $probe, as the kernel offers" \
		"$j" '.trigger.name == $t and (.cases | all(.probe == $p))' \
		--arg t "$trigger" --arg p "$probe"
	assert_jq "$name: each case's processes and VMAs counted: $counts" \
		"$j" "[.cases[].pattern | [.processes, .vmas]] == $counts"
	assert_jq "$name: both cases' walks measured, of their page type" \
		"$j" '.cases | all(.latency_ms.count > 0 and .page_type == $t)' \
		--arg t "${TYPE:-anon}"
	assert "$name: the report names the published problem ($words)" \
		grep -q "$words" <(tr -s ' \n' ' ' <"$work/$name/$name.txt")
	assert_formats "$name: text, KTAP and JSON agree" "$work/$name" "$name"
	assert "$name: no member is left" [ "$(named "${name:0:15}")" = 0 ]
	assert_same "$name: the machine is as before" "$before" "$after"
}

# 8 processes map one memfd of 400 pages, every other page split
TYPE=file run file-many-mappers "i_mmap_rwsem" "[[8,3200],[1,400]]" \
	--procs 8 --pages 400 --identical 32
assert_jq "file-many-mappers: the JSON names --procs" \
	"$work/file-many-mappers.json" '.pattern.procs == 8'

# the same on a disk file's page cache, the victim loading it as a
# library; a skip where no disk-backed filesystem holds /var/tmp or /tmp
disk=""
for d in /var/tmp /tmp; do
	case $(stat -f -c %T "$d" 2>/dev/null) in
	""|tmpfs|ramfs) ;;
	*) disk=$d; break ;;
	esac
done
if [ -n "$disk" ]; then
	TYPE=file run file-many-mappers "i_mmap_rwsem" "[[8,3200],[1,400]]" \
		--procs 8 --pages 400 --identical 32 --backing disk \
		--victim-op load
	assert_jq "file-many-mappers --backing disk: the victim's library loads timed" \
		"$work/file-many-mappers.json" \
		'.pattern.backing == "disk" and .victim.call == "library load" and (.cases | all(.victim_stall_ms.count > 0 and .victim_errors == 0))'
else
	"$bin/file-many-mappers" --backing disk --format json \
		>"$work/nodisk.json" 2>/dev/null
	assert_jq "file-many-mappers --backing disk: a skip here (no disk-backed /var/tmp or /tmp), saying why" \
		"$work/nodisk.json" '.verdict == "skip" and (.reason | test("disk-backed"))'
fi

# 2 children, then 2 each (1 + 2 + 4 processes); a quarter rewritten
run anon-fork-family '"degree"' "[[7,2800],[1,400]]" \
	--procs 2 --depth 2 --cow 25 --pages 400 --identical 32
assert_jq "anon-fork-family: the JSON names the family" \
	"$work/anon-fork-family.json" \
	'.pattern.members == 6 and .pattern.depth == 2 and .pattern.cow_percent == 25'

# 2 THPs split every 8 pages, 2 children: 2 x 1024 / 8 VMAs each
if rr_thp=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null); then
	v=$((2 * 2 * rr_thp / 4096 / 8))
	run large-folio-split "batched large-folio rmap" \
		"[[3,$((3 * v))],[3,$((3 * v))]]" \
		--folios 2 --split-every 8 --procs 2
	assert_jq "large-folio-split: the THP size named" \
		"$work/large-folio-split.json" \
		".pattern.folio_kb == $((rr_thp / 1024))"
else
	ok "large-folio-split # SKIP no THP here"
fi
# an mTHP size (Linux 6.8+): its setting and the larger ones' changed
# through the journal and put back (the snapshot has them all)
if [ -e /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled ]; then
	run large-folio-split "batched large-folio rmap" \
		"[[3,192],[3,192]]" --folio-kb 64 --folios 4 --procs 2
else
	ok "large-folio-split --folio-kb 64 # SKIP no mTHP sizes here (before 6.8)"
fi

"$bin/file-many-mappers" --procs 1 >"$work/u.out" 2>&1
assert "file-many-mappers --procs 1: a usage error (exit 2)" [ $? = 2 ]
"$bin/anon-fork-family" --procs 32 --depth 3 >"$work/u.out" 2>&1
rc=$?
assert "anon-fork-family, a family of more than 1024: exit 2, saying why" \
	bash -c "[ $rc = 2 ] && grep -q 'more than 1024 members' '$work/u.out'"
"$bin/large-folio-split" --folio-kb 12 --format json >"$work/u.json" \
	2>/dev/null
rc=$?
assert "large-folio-split --folio-kb 12: a usage error (exit 2)" [ $rc = 2 ]
finish
