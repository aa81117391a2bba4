# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the integration tests: KTAP output, state snapshots, and
# waiting for a reproducer's progress line. Sourced, not run.

top=${RMAP_REPRO_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
bin=$top/build/bin
# the same binaries with the test hooks (common/lib/hooks.h): for the
# tests that set RMAP_REPRO_TEST_* and the state-directory variables
tbin=$top/build/test/bin
. "$top/scripts/lib/trust.sh"
work=${TEST_TMPDIR:-/tmp}/$(basename "$0" .sh)
mkdir -p "$work"
ktap_n=0	# the KTAP test number: no test may use this name

echo "KTAP version 1"

ok() {
	ktap_n=$((ktap_n + 1))
	rq_put "ok $ktap_n $1"
}

not_ok() {
	local desc=$1 text l

	shift
	ktap_n=$((ktap_n + 1))
	text="not ok $ktap_n $desc"
	for l in "$@"; do
		text+=$'\n'"# $l"
	done
	rq_put "$text"
}

# assert DESCRIPTION COMMAND...: one KTAP test line.
assert() {
	local desc=$1

	shift
	if "$@" >/dev/null 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "failed: $*"
	fi
}

# assert_jq DESCRIPTION FILE FILTER: the jq filter must be true, as
# jq -e judges (an output, the last neither false nor null).
# assert_jq DESCRIPTION FILE FILTER [JQ-ARGS...] (--arg, --argjson)
#
# It is judged later, with every other assertion of the program, by
# one jq (at jq_flush; finish flushes; --arg and --argjson are bound
# for it alone there): a jq takes 0.02 s to start here, and 0.18 s of
# a guest's instructions under TCG, where most of these tests run too. It judges FILE as it was
# when asserted (a copy, taken again only when FILE changed), and keeps
# its line, number and message: once one result waits, every result
# after it waits too and prints in its turn. RR_TEST_JQ_NOW=1 judges
# each at once (tests/noroot/ktaplib.sh compares the two).
rq_n=0		# results waiting, in order
rq_text=()	# a result already judged: its lines
rq_desc=()	# or an assertion to judge: description, number, copy,
rq_num=()	# file name and filter
rq_snap=()
rq_name=()
rq_filter=()
rq_bind=()	# "$rq_aN as $NAME | " for each of its --arg/--argjson
rq_opts=()	# and those options, quoted (to judge it on its own)
rq_args=()	# every --arg/--argjson of the batch, renamed rq_aN
rq_copies=0
declare -A rq_copy	# FILE: its latest copy

# rq_put TEXT: a judged result's lines, now or in their turn
rq_put() {
	if [ $rq_n = 0 ]; then
		echo "$1"
	else
		rq_text[rq_n]=$1
		rq_n=$((rq_n + 1))
	fi
}

assert_jq() {
	local desc=$1 file=$2 filter=$3 snap bind="" opts=() named=() a

	shift 3
	opts=("$@")
	while [ $# -ge 3 ] && { [ "$1" = --arg ] || [ "$1" = --argjson ]; }; do
		a=rq_a$(((${#rq_args[@]} + ${#named[@]}) / 3))
		named+=("$1" "$a" "$3")
		bind+="\$$a as \$$2 | "
		shift 3
	done
	snap=${rq_copy[$file]:-}
	if [ $# = 0 ] && [ "${RR_TEST_JQ_NOW:-0}" != 1 ] && [ -f "$file" ] &&
	   { [ -z "$snap" ] || ! cmp -s -- "$file" "$snap"; }; then
		rq_copies=$((rq_copies + 1))
		snap=$work/.jq-$rq_copies.json
		cp -- "$file" "$snap" 2>/dev/null && rq_copy[$file]=$snap ||
			snap=""
	fi
	# another jq option, each at once asked, or no copy: judged now
	if [ $# -gt 0 ] || [ "${RR_TEST_JQ_NOW:-0}" = 1 ] || [ -z "$snap" ]; then
		judge_jq "$desc" "$file" "$filter" "${opts[@]}"
		return
	fi
	rq_args+=("${named[@]}")
	ktap_n=$((ktap_n + 1))
	rq_text[rq_n]="" rq_desc[rq_n]=$desc rq_num[rq_n]=$ktap_n
	rq_snap[rq_n]=$snap rq_name[rq_n]=$file rq_filter[rq_n]=$filter
	rq_bind[rq_n]=$bind rq_opts[rq_n]=""
	[ ${#opts[@]} = 0 ] || printf -v "rq_opts[rq_n]" '%q ' "${opts[@]}"
	rq_n=$((rq_n + 1))
}

# judge_jq DESCRIPTION FILE FILTER [JQ-ARGS...]: one result now
judge_jq() {
	local desc=$1 why

	shift
	if why=$(jq_why "$1" "$1" "${@:2}"); then
		ok "$desc"
	else
		not_ok "$desc" "$why"
	fi
}

# jq_why FILE NAME FILTER [JQ-ARGS...]: FILTER on FILE (NAME's copy, or
# NAME), as jq -e judges; when false, what it gave, said of NAME and on
# NAME itself when unchanged (jq's errors name it)
jq_why() {
	local file=$1 name=$2 filter=$3

	shift 3
	jq -e "$@" "$filter" "$file" >/dev/null 2>&1 && return 0
	[ "$file" = "$name" ] || ! cmp -s -- "$name" "$file" || file=$name
	echo "jq '$filter' on $name gave: $(jq -c "$@" "$filter" "$file" 2>&1 | head -c 300)"
	return 1
}

# jq_flush: judge the assertions waiting (one jq for them all; one
# each when that one does not parse or says false) and print every
# waiting result in order
jq_flush() {
	local i k=0 n=$rq_n prog="[" res got args=("${rq_args[@]}") v opts
	declare -A var

	[ $n -gt 0 ] || return 0
	rq_n=0
	for ((i = 0; i < n; i++)); do
		[ -n "${rq_text[i]}" ] && continue
		v=${var[${rq_snap[i]}]:-}
		if [ -z "$v" ]; then
			v=rq_f${#var[@]}
			var[${rq_snap[i]}]=$v
			args+=(--slurpfile "$v" "${rq_snap[i]}")
		fi
		prog+="(try ([\$$v[] | ${rq_bind[i]}(
${rq_filter[i]}
)] | length > 0 and (last | . != false and . != null)) catch false),"
		k=$((k + 1))
	done
	got=()
	if [ $k -gt 0 ]; then
		res=$(jq -nc "${args[@]}" "${prog%,}]" 2>/dev/null)
		res=${res#[}
		IFS=, read -ra got <<<"${res%]}"
	fi
	k=0
	for ((i = 0; i < n; i++)); do
		if [ -n "${rq_text[i]}" ]; then
			echo "${rq_text[i]}"
			continue
		fi
		eval "opts=(${rq_opts[i]})"
		# true in the batch, or (it did not parse, or said false)
		# on its own
		if { [ ${#got[@]} -gt 0 ] && [ "${got[k]}" = true ]; } ||
		   v=$(jq_why "${rq_snap[i]}" "${rq_name[i]}" \
			   "${rq_filter[i]}" "${opts[@]}"); then
			echo "ok ${rq_num[i]} ${rq_desc[i]}"
		else
			echo "not ok ${rq_num[i]} ${rq_desc[i]}"
			echo "# $v"
		fi
		k=$((k + 1))
	done
	rq_text=() rq_desc=() rq_num=() rq_snap=() rq_name=() rq_filter=()
	rq_bind=() rq_opts=() rq_args=()
}

snapshot() {
	"$top/tests/lib/snapshot"
}

# assert_same DESCRIPTION BEFORE AFTER
assert_same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		# shellcheck disable=SC2046
		not_ok "$1" $(diff <(echo "$2") <(echo "$3") | head -20 |
			      tr ' ' '_')
	fi
}

# wait_for FILE PATTERN SECONDS: until a line matches, or time is up.
wait_for() {
	local i

	for ((i = 0; i < $3 * 10; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# Wait until no rmap-repro run holds the lock (a killed run's child may
# take a moment to die).
wait_unlocked() {
	local i

	for ((i = 0; i < 300; i++)); do
		flock -n /run/rmap-repro/lock true 2>/dev/null && return 0
		[ -e /run/rmap-repro/lock ] || return 0
		sleep 0.1
	done
	return 1
}

# user_env CMD...: CMD run without the test hooks' variables, which a
# user's binary refuses to run with (a test that exports one still runs
# the user's scripts/restore, rmap-probes, ...)
user_env() {
	(unset "${rr_hook_vars[@]}"; exec "$@")
}

finish() {
	jq_flush
	echo "1..$ktap_n"
}

# ---- What the kernel under test offers, derived, never written down ----

# rmap-probes --json, once per test program.
probes_json() {
	[ -s "$work/probes.json" ] ||
		user_env "$bin/rmap-probes" --json >"$work/probes.json" \
			2>/dev/null
	cat "$work/probes.json"
}

# The facts the helpers below answer from, read by one jq the first
# time one asks (a jq takes 0.18 s of a guest's instructions to start)
pf_read=0
probe_facts() {
	[ $pf_read = 1 ] && return 0
	eval "$(probes_json | jq -r '
		"pf_offered=(\([to_entries[] | select(.value == true) | .key | @sh] | join(" ")))",
		"pf_config=\(.system.config // "" | @sh)",
		"pf_trigger=\(.choice.trigger // "none" | @sh)",
		"pf_reclaim=\(.choice.available.reclaim == true)",
		"pf_soft=\(.choice.available["soft-offline"] == true)",
		"declare -gA pf_probe=(\([.choice.probes // {} | to_entries[] | select(.value != null and .value != false) | "[\(.key | @sh)]=\(.value | tostring | @sh)"] | join(" ")))"' \
		2>/dev/null)" || return 1
	pf_read=1
}

# offers KEY: rmap-probes found it (rmap-tp, function_graph, ...).
offers() {
	local k

	probe_facts
	for k in "${pf_offered[@]}"; do
		[ "$k" = "$1" ] && return 0
	done
	return 1
}

# Is the running kernel at least MAJOR.MINOR?
kernel_at_least() {
	local v=${KERNEL_RELEASE:-$(uname -r)} maj min

	maj=${v%%.*}
	min=${v#*.}
	min=${min%%[!0-9]*}
	[ "$maj" -gt "$1" ] || { [ "$maj" -eq "$1" ] && [ "$min" -ge "$2" ]; }
}

# Is this the suite's own VM (scripts/vm-run puts rmap_repro.vm on the
# kernel's command line)? Its destructive triggers may run, and make
# check sizes some runs for TCG's pace there.
suite_vm() {
	grep -qw rmap_repro.vm /proc/cmdline
}

# procs_named COMM: the pids of the processes whose comm is COMM, on one
# line (/proc, not pgrep: the VM's busybox has none; read, not a cat a
# process: about 4 ms each on the CI's host)
procs_named() {
	local p c list=""

	for p in /proc/[0-9]*; do
		c=""
		IFS= read -r c 2>/dev/null <"$p/comm"
		[ "$c" = "$1" ] && list="$list ${p#/proc/}"
	done
	echo $list
}

# NUMA nodes with memory (move_pages() needs two).
mem_nodes() {
	local f n=0

	for f in /sys/devices/system/node/node[0-9]*/meminfo; do
		[ -r "$f" ] || continue
		awk '/MemTotal/ { exit !($4 > 0) }' "$f" && n=$((n + 1))
	done
	echo $n
}

# Can the reclaim trigger run here (a memory cgroup controller and swap,
# or zram to make some)? The suite's own answer (trigger_reclaim.c).
reclaim_possible() {
	probe_facts
	[ "${pf_reclaim:-}" = true ]
}

# kconfig NAME: the running kernel's CONFIG_NAME value (y, m, ...) among
# the options the reports carry (mm/sysinfo.c); empty when unset or
# unknown.
kconfig() {
	local o opts

	probe_facts
	read -ra opts <<<"${pf_config:-}"
	for o in "${opts[@]}"; do
		[ "${o%%=*}" = "$1" ] && [ "${o#*=}" != n ] && echo "${o#*=}"
	done
	return 0
}

# Soft offline, and a way to give the retired frames back: the suite's
# own answer (trigger_soft_offline.c).
soft_offline_possible() {
	probe_facts
	[ "${pf_soft:-}" = true ]
}

# The trigger --trigger auto must choose on this machine: the suite's C
# answers once (rmap-probes --json), the runs must agree with it.
expected_trigger() {
	probe_facts
	echo "${pf_trigger:-none}"
}

# Is the walk-level probe NAME available on this kernel?
probe_offered() {
	case "$1" in
	rmap-tp) offers rmap-tp || offers rmap-tp-v1 ;;
	funcgraph) offers function_graph && kernel_at_least 6 11 ;;
	kprobe) offers kprobe_events ;;
	brackets) return 0 ;;
	*) return 1 ;;
	esac
}

# The probe id a run with --probe NAME (auto: the first available of
# rmap-tp, funcgraph, kprobe, brackets) reports, for trigger TRIGGER.
expected_probe() {
	local p want=$1 trigger=$2

	# auto: the suite's own choice for the trigger (rmap-probes --json)
	if [ "$want" = auto ]; then
		probe_facts
		[ -n "${pf_probe[$trigger]:-}" ] || return 1
		echo "${pf_probe[$trigger]}"
		return
	fi
	for p in rmap-tp funcgraph kprobe brackets; do
		[ "$want" = auto ] || [ "$want" = "$p" ] || continue
		probe_offered "$p" || continue
		if [ "$p" = brackets ]; then
			case "$trigger" in
			reclaim) echo memcg-reclaim ;;
			pressure) echo lru-batch ;;
			*) echo migrate-batch ;;
			esac
		else
			echo "$p"
		fi
		return 0
	done
	return 1
}

# ---- The suite's own rules, recomputed from its output ----

# jq: the verdict the documented rule gives for a result object
# (docs/results.md): each run judged by the rule against the controls
# of the same run, then the verdict two thirds of the runs give.
run_rule='
	(.cases | map(select(.role == "subject"))[0]) as $s |
	[.cases[] | select(.role == "control")] as $ctl |
	(if .verdict_on == "trigger calls" then "trigger_call_ms"
	 else "latency_ms" end) as $on |
	. as $r |
	[range(0; .runs) as $i |
	 ($s.per_run[$i]) as $sf |
	 ([$ctl[] | .per_run[$i] | select(.count > 0) | .max] | max) as $w |
	 ([$r.cases[] | .per_run[$i].incomplete] | any) as $lost |
	 if $r.verdict_policy == "correctness" or
	    ($r.verdict_policy == "benchmark" and $r.max_ms_per_gb == null)
	 then "unjudged"
	 elif $sf.count == 0 or
	    ($r.verdict_policy != "benchmark" and $w == null) then
		(if $lost then "incomplete" else "unjudged" end)
	 elif (if $r.verdict_policy == "benchmark" then
		$sf.max / ($s.pattern.pages * 4096 / 1073741824) >
		$r.max_ms_per_gb
	       else $sf.max > $r.threshold_ms and
		    $sf.max >= $r.min_ratio * $w end) then "reproduced"
	 elif $lost then "incomplete"
	 else "not-reproduced" end]'
verdict_rule="
	($run_rule) as \$rv |
	(\$rv | length) as \$n |
	([\$rv[] | select(. == \"reproduced\")] | length) as \$k |
	([\$rv[] | select(. == \"not-reproduced\")] | length) as \$m |
	(.cases | map(select(.role == \"subject\"))[0]) as \$s |
	.verdict_policy as \$p |
	def failed: . != null and (.pages_failed + .mappings_missed) > 0;
	if \$p != \"latency\" and
	   any(.cases[] | select(.role == \"control\"); .oracle | failed)
	then \"error\"
	elif \$p != \"latency\" and (\$s.oracle | failed) then \"reproduced\"
	elif \$p == \"benchmark\" and .max_ms_per_gb == null then
		\"not-reproduced\"
	elif \$p == \"correctness\" then
		(if \$s.oracle == null then \"error\" else \"not-reproduced\" end)
	elif \$n > 0 and 3 * \$k >= 2 * \$n then \"reproduced\"
	elif \$n > 0 and 3 * \$m >= 2 * \$n then \"not-reproduced\"
	elif any(\$rv[]; . == \"incomplete\") then \"error\"
	else \"inconclusive\" end"

# assert_verdict WHAT JSON RC: three results: the run WHAT ended in a
# verdict (not skip or error), its exit code RC is that verdict's, and
# the verdict follows from its figures by the documented rule.
assert_verdict() {
	local what=$1 j=$2 rc=$3 v

	v=$(jq -r .verdict "$j" 2>/dev/null)
	# inconclusive is a verdict too: runs that kept disagreeing
	if [ "$v" = reproduced ] || [ "$v" = not-reproduced ] ||
	   [ "$v" = inconclusive ]; then
		ok "$what runs to a verdict ($v)"
	else
		not_ok "$what runs to a verdict" \
			"exit $rc: $(jq -r '.verdict + ": " + .reason' "$j" 2>&1)"
	fi
	assert "$what: its exit code is the verdict's ($(exit_of "$v"))" \
		[ "$rc" = "$(exit_of "$v")" ]
	assert_jq "$what: the verdict follows from the figures by the documented rule" \
		"$j" ".verdict == ($verdict_rule) and .run_verdicts == ($run_rule)"
}

# exit_of VERDICT: the kselftest exit code of a verdict.
exit_of() {
	case "$1" in
	not-reproduced) echo 0 ;;
	reproduced) echo 1 ;;
	inconclusive) echo 3 ;;
	skip) echo 4 ;;
	*) echo 2 ;;
	esac
}

# same_figures "N MAX" "N MAX": the same count, maxima within rounding.
same_figures() {
	[ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		d = x[2] - y[2]
		exit !(x[1] == y[1] && d < 0.0011 && d > -0.0011)
	}'
}

# assert_formats DESC DIR NAME: NAME.txt, NAME.ktap and NAME.json in DIR
# say the same verdict and the same per-case counts and maxima.
assert_formats() {
	local desc=$1 dir=$2 name=$3 j v upper why="" bench kind c cnt max row
	local trow krow

	j=$dir/$name.json
	# one jq for all the JSON says (0.18 s of a guest's instructions
	# each): the verdict, whether a benchmark judged nothing, then a
	# line "probe|waits CASE COUNT MAX" for each case with intervals
	# and each with the victim's lock waits
	{
		read -r v bench
		mapfile -t rows
	} < <(jq -r '"\(.verdict) \(.verdict_policy == "benchmark" and
			    .max_ms_per_gb == null and
			    .verdict == "not-reproduced")",
		     (.cases[] | select(.latency_ms.count > 0) |
		      "probe \(.name) \(.latency_ms.count) \(.latency_ms.max)"),
		     (.cases[] | select(.lock_waits.victim.count > 0) |
		      "waits \(.name) \(.lock_waits.victim.count) \(.lock_waits.victim.max_ms)")' \
		"$j" 2>/dev/null)
	upper=$(echo "$v" | tr a-z A-Z)
	# a benchmark given no bound judged nothing: this build's text says
	# MEASURED (and KTAP's diagnostic), a report made before, its verdict
	if [ "$bench" = true ]; then
		grep -qx "$name: MEASURED" "$dir/$name.txt" ||
			grep -qx "$name: $upper" "$dir/$name.txt" ||
			why="text does not say '$name: MEASURED'"
	else
		grep -qx "$name: $upper" "$dir/$name.txt" ||
			why="text does not say '$name: $upper'"
	fi
	if [ "$v" = not-reproduced ]; then
		grep -qx "ok 1 $name" "$dir/$name.ktap" || why="$why; ktap not ok"
	elif [ "$v" = skip ]; then
		grep -q "^ok 1 $name # SKIP" "$dir/$name.ktap" ||
			why="$why; ktap not a SKIP"
	elif [ "$v" = inconclusive ]; then
		grep -q "^ok 1 $name # SKIP inconclusive: " "$dir/$name.ktap" ||
			why="$why; ktap not an inconclusive SKIP"
	else
		grep -qx "not ok 1 $name" "$dir/$name.ktap" ||
			why="$why; ktap not 'not ok'"
	fi
	# a case fails only under a failing parent
	if grep -q "^ok 1 $name" "$dir/$name.ktap" &&
	   grep -q '^    not ok ' "$dir/$name.ktap"; then
		why="$why; a case is 'not ok' under an 'ok' parent"
	fi
	for row in "${rows[@]}"; do
		read -r kind c cnt max <<<"$row"
		if [ "$kind" = probe ]; then
			# "case n min p50 p90 p99 max lost" in the text table;
			# KTAP's "# case: max M ms, p50 P ms over N
			# intervals"; both print 3 decimals of what JSON gives
			# with 4.
			kind=""
			trow=$(awk -v c="$c" '/^Probe intervals/ { on = 1; next }
					     on && /^$/ { exit }
					     on && $1 == c { print $2, $7; exit }' "$dir/$name.txt")
			krow=$(sed -n "s/^    # $c: max \([0-9.]*\) ms, .* over \([0-9]*\) intervals.*/\2 \1/p" \
			       "$dir/$name.ktap")
		else
			# the victim's lock waits: the text table's row, KTAP's
			# sentence
			kind="waits "
			trow=$(awk -v c="$c" '/^Lock waits/ { on = 1; next }
					     on && /^$/ { exit }
					     on && $1 == c && $2 == "victim" { print $3, $5; exit }' "$dir/$name.txt")
			krow=$(sed -n "s/^    # $c: lock waits: .* in all it waited \([0-9]*\) times\{0,1\} (p50 [0-9.]* ms, max \([0-9.]*\) ms).*/\1 \2/p" \
			       "$dir/$name.ktap")
		fi
		same_figures "$cnt $max" "$trow" ||
			why="$why; $c: json ${kind}n=$cnt max=$max, text '$trow'"
		same_figures "$cnt $max" "$krow" ||
			why="$why; $c: json ${kind}n=$cnt max=$max, ktap '$krow'"
	done
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc" "${why#; }"
	fi
}

# ---- The project's test kernels (../shared/kernels): kernels.sh ----
. "$top/tests/lib/kernels.sh"

