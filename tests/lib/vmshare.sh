# SPDX-License-Identifier: GPL-2.0
#
# Guests shared by the vm tier's programs (sourced after integration.sh).
# A program says first what it runs in a guest, then asserts on what
# came back:
#
#   vm_job BOOT NAME [JOB OPTIONS...]  a run in the guest BOOT (a name of
#                      tests/lib/vm-shared-boot: unfixed, fixed, ...): a
#                      line of vm-run --jobs ("--preset quick --only
#                      ksm-fork -- --threshold-ms 50", or "--check --
#                      pressure"); a preset FILE must be made before
#   vm_jobs_run        the jobs are run, or taken from the guests that
#                      tests/run booted for every program at once; a
#                      KTAP result for each guest (did it run them all)
#                      and one for the host (as before the guests)
#   vm_job_dir NAME    the job's directory (results.json, report.txt,
#                      results.ktap or check.log)
#   vm_job_rc NAME     its exit code (run-all's, tests/run's), "none"
#                      when it did not report
#   vm_boot_err BOOT   vm-run's stderr of that guest: the guest's lines
#
# tests/run runs each vm program first with RMAP_REPRO_VM_PLAN set to a
# file: vm_job writes its jobs there and vm_jobs_run ends the program.
# Then it boots each guest once, with every program's jobs, and runs the
# programs with RMAP_REPRO_VM_SHARED set to where those guests wrote.
# Run alone, a program boots its own guests. A job's name in a guest is
# PROGRAM.NAME: the programs' jobs cannot collide.

vm_prog=$(basename "$0" .sh)

# vm_quick_set FILE SECTION OPTION VALUE [SECTION OPTION VALUE...]: the
# quick preset into FILE, with OPTION's value in each SECTION replaced
# (a pattern sized for what is asserted)
vm_quick_set() {
	local out=$1

	shift
	awk 'BEGIN { for (i = 1; i + 2 < ARGC; i += 3) {
			     v["[" ARGV[i] "]" SUBSEP ARGV[i + 1]] = ARGV[i + 2]
			     delete ARGV[i]; delete ARGV[i + 1]; delete ARGV[i + 2] } }
	     /^\[/ { s = $0 }
	     (s SUBSEP $1) in v { $0 = $1 " " v[s, $1] } 1' \
		"$@" "$top/configs/quick.preset" >"$out"
}
# vm_quick_pages FILE SECTION PAGES: the quick preset with --pages
# PAGES in [SECTION]
vm_quick_pages() {
	vm_quick_set "$1" "$2" --pages "$3"
}
vm_jobs=()	# "BOOT NAME OPTIONS..." of this program
declare -A vm_share_base	# where each guest of the program wrote

vm_job() {
	local boot=$1 name=$2

	shift 2
	vm_jobs+=("$boot $vm_prog.$name $*")
}

# the guests this program asked for, one a line
vm_boots() {
	local j

	for j in "${vm_jobs[@]}"; do
		echo "${j%% *}"
	done | sort -u
}

vm_jobs_run() {
	local boot j n got base snaps=${RMAP_REPRO_VM_SHARED:-$work/shared}

	if [ -n "${RMAP_REPRO_VM_PLAN:-}" ]; then
		printf '%s\n' "${vm_jobs[@]}" >>"$RMAP_REPRO_VM_PLAN"
		exit 0
	fi
	for boot in $(vm_boots); do
		base=${RMAP_REPRO_VM_SHARED:-}
		if [ -z "$base" ] || [ ! -d "$base/$boot" ]; then
			# alone: this program's own guest
			base=$work/shared
			mkdir -p "$base"
			snaps=$base
			[ -f "$base/before" ] || snapshot >"$base/before"
			for j in "${vm_jobs[@]}"; do
				[ "${j%% *}" = "$boot" ] && echo "${j#* }"
			done >"$base/$boot.jobs"
			echo "# booting $boot for $(wc -l <"$base/$boot.jobs") job(s) of $vm_prog"
			"$top/tests/lib/vm-shared-boot" "$boot" "$base/$boot.jobs" \
				"$base/$boot" >"$base/$boot.out" 2>"$base/$boot.err"
			snapshot >"$base/after"
		fi
		vm_share_base[$boot]=$base
		n=0 got=0
		for j in "${vm_jobs[@]}"; do
			[ "${j%% *}" = "$boot" ] || continue
			j=${j#* }
			n=$((n + 1))
			[ -f "$base/$boot/${j%% *}/exit" ] && got=$((got + 1))
		done
		if [ $got = $n ]; then
			ok "the $boot guest ran this program's $n job(s)"
		else
			not_ok "the $boot guest ran this program's $n job(s)" \
				"$got reported; vm-run's last words:" \
				"$(grep -v '^guest: ' "$base/$boot.err" 2>/dev/null | tail -5)"
		fi
	done
	# (tests/run takes the shared guests' snapshots)
	assert_same "the host is as before the guests" \
		"$(cat "$snaps/before" 2>/dev/null || echo "no snapshot before")" \
		"$(cat "$snaps/after" 2>/dev/null || echo "no snapshot after")"
}
# the guest a job of this program runs in
vm_job_boot() {
	local j b n

	for j in "${vm_jobs[@]}"; do
		read -r b n _ <<<"$j"
		[ "$n" = "$vm_prog.$1" ] && { echo "$b"; return; }
	done
}

vm_job_dir() {
	local boot

	boot=$(vm_job_boot "$1")
	echo "${vm_share_base[$boot]:-/nonexistent}/$boot/$vm_prog.$1"
}

vm_job_rc() {
	cat "$(vm_job_dir "$1")/exit" 2>/dev/null || echo none
}

vm_boot_err() {
	echo "${vm_share_base[$1]:-/nonexistent}/$1.err"
}
