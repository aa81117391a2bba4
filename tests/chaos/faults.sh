#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fail the Nth change: for each reproducer (its quick options) and each
# trigger it takes, a counting run lists the journaled changes it makes
# (RMAP_REPRO_TEST_FAIL_CHANGE=0), then one run per change N fails the
# Nth as the kernel would refuse it. Each must end in an error (exit 2,
# verdict error) whose reason names what failed, leave no journal, and
# leave the machine and the user's own state (tests/lib/chaos.sh) as
# before. A kind of change repeated (the same op and path, numbers
# aside) is tried at its first two and its last. Prints its figures:
# pairs, fault points tried and left out, diffs.
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/chaos.sh"

user_setup
trap user_teardown EXIT
tried=0
left_out=0
pairs=0
skipped=0
errors=()
while read -r r t; do
	mapfile -t opts < <(chaos_opts "$r")
	opts+=(--runs 1 --format json)
	[ "$t" = auto ] || opts+=(--trigger "$t")
	before=$(chaos_snapshot)
	RMAP_REPRO_TEST_FAIL_CHANGE=0 "$bin/$r" "${opts[@]}" \
		>"$work/count.json" 2>"$work/count.err"
	rc=$?
	if [ $rc = 4 ] || [ $rc = 2 ]; then
		# this kernel cannot run it (a skip), or the run failed
		# without a refusal (an error, counted apart and named):
		# still nothing may be left
		if [ $rc = 4 ]; then
			skipped=$((skipped + 1))
		else
			errors+=("$r --trigger $t")
		fi
		echo "# $r --trigger $t: exit $rc, $(jq -r .reason "$work/count.json" 2>/dev/null | head -c 150)"
		same "$r --trigger $t (exit $rc)" "$before" "$work/count.err" &&
			ok "$r --trigger $t: exit $rc, nothing left"
		continue
	fi
	pairs=$((pairs + 1))
	m=$(wc -l <"$state/test-changes" 2>/dev/null || echo 0)
	same "$r --trigger $t: the counting run" "$before" "$work/count.err" &&
		ok "$r --trigger $t: $m journaled changes, all undone"
	[ -n "${CHAOS_MAX_N:-}" ] && [ "$m" -gt "$CHAOS_MAX_N" ] &&
		m=$CHAOS_MAX_N
	cp "$state/test-changes" "$work/changes"
	# A kind of change made over and over (an unpoison per frame, a
	# knob per phase: the same op on the same path, numbers aside) is
	# the same code each time: its first two and its last are tried,
	# and the figures count the rest as left out (CHAOS_ALL_N=1: all).
	mapfile -t picked < <(awk -F'\t' -v m=$m -v all="${CHAOS_ALL_N:-0}" '
		$1 > m { next }
		{ k = $2 " " $3; gsub(/[0-9]+/, "N", k); n[k]++
		  if (all == 1 || n[k] <= 2) print $1; else last[k] = $1 }
		END { for (k in last) print last[k] }' "$work/changes" |
		sort -n)
	left_out=$((left_out + m - ${#picked[@]}))
	for n in "${picked[@]}"; do
		what=$(awk -F'\t' -v n=$n '$1 == n { print $2 " " $3 }' \
			"$work/changes")
		RMAP_REPRO_TEST_FAIL_CHANGE=$n "$bin/$r" "${opts[@]}" \
			>"$work/f.json" 2>"$work/f.err"
		rc=$?
		tried=$((tried + 1))
		reason=$(jq -r '.reason // ""' "$work/f.json" 2>/dev/null)
		desc="$r --trigger $t, change $n ($what) refused"
		if ! grep -q "RMAP_REPRO_TEST_FAIL_CHANGE=$n: change $n" \
		   "$work/f.err"; then
			# the run went another way and made fewer changes:
			# nothing refused, a run as any other
			desc="$desc: never reached"
		fi
		# named: its kind and path, numbers aside (a pid, a frame)
		name=$(echo "$what" | sed 's/[0-9][0-9]*/N/g')
		named=$(echo "$reason" | sed 's/[0-9][0-9]*/N/g')
		# an optional figure's change (the give-ups' kretprobe): the
		# run goes on without that figure and its report says why
		optional=$(jq -r '[.. | objects | to_entries[] |
			select(.key | endswith("why_not")) | .value |
			strings] | join("\n")' "$work/f.json" 2>/dev/null |
			sed 's/[0-9][0-9]*/N/g')
		path=${name#* }
		if same "$desc" "$before" "$work/f.err"; then
			if [ $rc = 2 ] && [[ "$named" == *"$name"* ]] &&
			   [ ! -e "$state/journal" ]; then
				ok "$desc: exit 2 naming it, the machine as before"
			elif [[ "$desc" != *"never reached" ]] &&
			     { [ $rc = 0 ] || [ $rc = 1 ]; } &&
			     [[ "$optional" == *"${path#*/sys/kernel/tracing/}"* ]] &&
			     [ ! -e "$state/journal" ]; then
				ok "$desc: an optional figure, left out with the reason (exit $rc), the machine as before"
			elif [[ "$desc" == *"never reached" ]] &&
			     [ $rc != 2 ]; then
				ok "$desc: exit $rc, the machine as before"
			else
				not_ok "$desc: exit 2 with a reason" \
					"rc=$rc reason='$reason'" \
					"$(grep -v '^  ' "$work/f.err" | tail -3)"
			fi
		fi
		echo "# $r $t $n: rc=$rc $what: $(echo "$reason" | head -c 160)"
	done
done < <(chaos_pairs)
figures "$pairs pairs run, $skipped skipped here, ${#errors[@]} ended in an error without a fault${errors:+ (${errors[*]})}, $tried fault points tried ($left_out more repeated a kind already tried)"
assert "fault points were tried" [ $tried -gt 0 ]
finish
