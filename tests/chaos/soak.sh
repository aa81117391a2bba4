#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak: the flagship's quick run, 100 times in a row (10 in make check's
# subset). Nothing may grow from run to run: the system's open files
# (/proc/sys/fs/file-nr), zram devices, tracefs instances, memory
# cgroups, dynamic events, the journal; nor the suite's own peak memory
# (max RSS of each run, from wait4). Prints its figures: runs, the first
# and last runs' max RSS and open files, and every leak found.
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/chaos.sh"

runs=${CHAOS_SOAK_RUNS:-100}
[ "$quick" = 1 ] && runs=${CHAOS_SOAK_RUNS:-10}
mapfile -t opts < <(chaos_opts ksm-mprotect-split)
opts+=(--runs 1 --format json)

files() {
	awk '{ print $1 - $2 }' /proc/sys/fs/file-nr
}

# what a run may change (zram, swap, cgroups, instances, dynamic
# events, the journal, knobs): as before after each run
before=$(chaos_snapshot)
rss=()
fnr=()
bad=0
for ((i = 1; i <= runs; i++)); do
	# GNU time's %M: the run's max RSS (KiB), its own and its children's
	/usr/bin/time -f '%M' -o "$work/rss" "$bin/ksm-mprotect-split" \
		"${opts[@]}" >"$work/s.json" 2>"$work/s.err"
	rc=$?
	rss+=("$(tail -1 "$work/rss")")
	fnr+=("$(files)")
	now=$(chaos_snapshot)
	if [ $rc -gt 1 ] || [ "$now" != "$before" ]; then
		bad=$((bad + 1))
		echo "# run $i: exit $rc; $(jq -r .reason "$work/s.json" 2>/dev/null | head -c 200)"
		diff <(echo "$before") <(echo "$now") | sed 's/^/# /'
	fi
	[ $((i % 10)) = 0 ] && echo "# soak: $i of $runs runs" >&2
done
n=${#rss[@]}
echo "# here: figures: $n runs; max RSS first ${rss[0]} KiB, last ${rss[n - 1]} KiB, most $(printf '%s\n' "${rss[@]}" | sort -n | tail -1) KiB; open files first ${fnr[0]}, last ${fnr[n - 1]}; $bad runs that left something"
assert "$n runs: every one ended in a verdict and left no object behind" \
	[ $bad = 0 ]
# the suite's memory: the last tenth's peak within 10% of the first's
head_max=$(printf '%s\n' "${rss[@]:0:$(((n + 9) / 10))}" | sort -n | tail -1)
tail_max=$(printf '%s\n' "${rss[@]: -$(((n + 9) / 10))}" | sort -n | tail -1)
assert "the suite's max RSS did not grow (first tenth $head_max KiB, last $tail_max KiB)" \
	[ "$tail_max" -le $((head_max + head_max / 10)) ]
# open files: a leak of one per run shows as runs more; allow the noise
# of the rest of the machine
assert "open files did not grow with the runs (${fnr[0]} -> ${fnr[n - 1]})" \
	[ "${fnr[n - 1]}" -le $((fnr[0] + 64)) ]
same "after $n runs" "$before" && ok "after $n runs the machine is as before"
finish
