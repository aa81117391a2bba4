# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the integration tests: KTAP output, state snapshots, and
# waiting for a reproducer's progress line. Sourced, not run.

top=${RMAP_REPRO_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
bin=$top/build/bin
work=${TEST_TMPDIR:-/tmp}/$(basename "$0" .sh)
mkdir -p "$work"
n=0

echo "KTAP version 1"

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok() {
	local desc=$1

	shift
	n=$((n + 1))
	echo "not ok $n $desc"
	for l in "$@"; do
		echo "# $l"
	done
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

# assert_jq DESCRIPTION FILE FILTER: the jq filter must be true.
assert_jq() {
	local desc=$1 file=$2 filter=$3

	if jq -e "$filter" "$file" >/dev/null 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "jq '$filter' on $file gave: $(jq -c "$filter" "$file" 2>&1 | head -c 300)"
	fi
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

finish() {
	echo "1..$n"
}
