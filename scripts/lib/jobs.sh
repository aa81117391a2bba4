# SPDX-License-Identifier: GPL-2.0
#
# vm-run --jobs FILE: several runs in one boot (sourced by vm-run).
#
# FILE holds one job a line, blank lines and "#" comments aside:
#   NAME [--preset NAME|FILE] [--only NAMES] [--probe NAME] [--bisect]
#        [--check] [-- OPTIONS FOR EVERY REPRODUCER | TEST NAMES]
# the options of a vm-run of one kernel, words split at blanks (no
# quoting: the file is data, never run). NAME is the job's directory
# under OUT: its report.txt, results.json, results.ktap (or check.log
# with --check) and exit, the code its run-all (tests/run) returned.
#
#   jobs_read FILE [ROOT] check every line; with ROOT, write the guest's
#                        job list to ROOT/etc/jobs and each preset FILE
#                        into ROOT/suite/configs; job_names gets the names,
#                        jobs_need_tests 1 when a job has --check; on a
#                        bad line, says why and returns 1
#   unframe LOG NAME DEST  the file framed as NAME on the console LOG into
#                        DEST, its sha256 checked: 0, 1 when it is not
#                        there, 2 (said, DEST removed) when it is damaged
#   jobs_unframe LOG OUT each job's files and exit code from the console
#                        LOG into OUT/NAME/; the number of jobs that
#                        reported on stdout
#   jobs_report OUT      each job's line, "NAME: exit CODE" or "NAME: did
#                        not report", on stdout and into OUT/jobs.txt
#   jobs_times MARKS     each job's seconds, from the marks vm-run took as
#                        the guest's lines came ("SECONDS job NAME", then
#                        "SECONDS exit"), as a JSON object

job_names=()
jobs_need_tests=0

jobs_read() {
	local file=$1 root=${2:-} line w name n=0 i preset only probe bisect
	local check extra args

	job_names=()
	jobs_need_tests=0
	[ -z "$root" ] || : >"$root/etc/jobs" || return 1
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		read -ra w <<<"$line"
		[ ${#w[@]} -gt 0 ] || continue
		name=${w[0]}
		if ! [[ "$name" =~ ^[a-z0-9][a-z0-9_.-]{0,62}$ ]]; then
			echo "$file:$n: a job's name is a-z, 0-9, '.', '_' and '-', first a letter or digit: '$name'"
			return 1
		fi
		for i in "${job_names[@]}"; do
			[ "$i" = "$name" ] &&
				{ echo "$file:$n: job $name twice"; return 1; }
		done
		preset=default only="" probe="" bisect=0 check=0 extra=()
		for ((i = 1; i < ${#w[@]}; i++)); do
			case ${w[$i]} in
			--preset|--only|--probe)
				[ $((i + 1)) -lt ${#w[@]} ] || {
					echo "$file:$n: ${w[$i]} needs a value"
					return 1; } ;;
			esac
			case ${w[$i]} in
			--preset) preset=${w[$((i + 1))]}; i=$((i + 1)) ;;
			--only) only=${w[$((i + 1))]}; i=$((i + 1)) ;;
			--probe) probe=${w[$((i + 1))]}; i=$((i + 1)) ;;
			--bisect) bisect=1 ;;
			--check) check=1 ;;
			--) extra=("${w[@]:$((i + 1))}"); break ;;
			*) echo "$file:$n: job $name: unknown option '${w[$i]}'"
			   return 1 ;;
			esac
		done
		case $preset in
		*/*)	[ -f "$preset" ] && [ -r "$preset" ] ||
				{ echo "$file:$n: no preset file $preset"; return 1; }
			[ -z "$root" ] ||
				cp "$preset" "$root/suite/configs/job-$name.preset" ||
				return 1
			preset=job-$name ;;
		*)	[ -r "$top/configs/$preset.preset" ] || {
				echo "$file:$n: no preset configs/$preset.preset"
				return 1; } ;;
		esac
		if [ $check = 1 ]; then
			[ -z "$only$probe" ] && [ $bisect = 0 ] || {
				echo "$file:$n: job $name: --check runs the tests, with no --only, --probe or --bisect"
				return 1; }
			jobs_need_tests=1
			args=(check)
			[ ${#extra[@]} -gt 0 ] && args+=("${extra[@]}")
		else
			args=(run-all --preset "$preset")
			[ -n "$only" ] && args+=(--only "$only")
			[ -n "$probe" ] && args+=(--probe "$probe")
			args+=(--out "/out/$name")
			[ $bisect = 1 ] && args+=(--bisect)
			[ ${#extra[@]} -gt 0 ] && args+=(-- "${extra[@]}")
		fi
		# the guest's init sources this: every word quoted here
		[ -z "$root" ] || {
			printf 'job %q' "$name"; printf ' %q' "${args[@]}"; echo
		} >>"$root/etc/jobs"
		job_names+=("$name")
	done <"$file"
	[ ${#job_names[@]} -gt 0 ] || { echo "$file: no job in it"; return 1; }
}

unframe() {
	local log=$1 name=$2 dest=$3 sum

	sum=$(awk -v f="$name" '$1 == "===RMAP-REPRO-FILE" && $2 == f { print $3 }' \
	      "$log")
	[ -n "$sum" ] || return 1
	awk -v f="$name" '$1 == "===RMAP-REPRO-FILE" && $2 == f { on = 1; next }
			  $1 == "===RMAP-REPRO-END" && $2 == f { on = 0 }
			  on' "$log" | base64 -d >"$dest" 2>/dev/null
	[ "$(sha256sum <"$dest" | cut -d' ' -f1)" = "$sum" ] && return 0
	echo "vm-run: $name arrived damaged (sha256 mismatch); see $log" >&2
	rm -f "$dest"
	return 2
}

jobs_unframe() {
	local log=$1 out=$2 name f rc got=0

	for name in "${job_names[@]}"; do
		rm -rf -- "${out:?}/$name"
		mkdir -p "$out/$name" || return 1
		for f in report.txt results.json results.ktap check.log; do
			unframe "$log" "$name/$f" "$out/$name/$f"
		done
		rc=$(awk -v j="$name" '$1 == "===RMAP-REPRO-JOBEXIT" &&
			$2 == j { print $3 }' "$log" | tail -1)
		if [[ "$rc" =~ ^[0-9]{1,3}$ ]]; then
			echo "$rc" >"$out/$name/exit"
			got=$((got + 1))
		fi
	done
	echo $got
}

jobs_report() {
	local out=$1 name

	for name in "${job_names[@]}"; do
		if [ -f "$out/$name/exit" ]; then
			echo "$name: exit $(cat "$out/$name/exit")"
		else
			echo "$name: did not report"
		fi
	done | tee "$out/jobs.txt"
}

jobs_times() {
	[ -r "$1" ] || { echo "{}"; return; }
	awk 'BEGIN { printf "{" }
	     $2 == "job" || $2 == "exit" {
		if (name != "") {
			printf "%s\"%s\": %.1f", sep, name, $1 - t
			sep = ", "
		}
		name = $2 == "job" ? $3 : ""
		t = $1 }
	     END { print "}" }' "$1" 2>/dev/null
}
