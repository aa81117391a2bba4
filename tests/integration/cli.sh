#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The command line: --help, usage errors (exit 2, nothing changed), a
# second concurrent run refused by the lock, prerequisites as SKIP;
# --bisect's exit codes for those.
. "$(dirname "$0")/../lib/integration.sh"

repro=$bin/ksm-mprotect-split
before=$(snapshot)

"$repro" --help >"$work/help" 2>&1
assert "--help exits 0" [ $? = 0 ]
for o in --runs --trigger --threshold-ms --min-ratio --format --out \
	 --timeout --swap-mb --min-free-mb --pages --split-every \
	 --identical --max-page-sharing --pages-to-scan --attempts --victim; do
	grep -q -- "$o" "$work/help" || missing="${missing:-} $o"
done
assert "--help describes every option${missing:+ (missing$missing)}" \
	[ -z "${missing:-}" ]
for b in rmap-restore rmap-probes; do
	"$bin/$b" --help >/dev/null 2>&1
	assert "$b --help exits 0" [ $? = 0 ]
done

usage() {
	local desc=$1 want=$2

	shift 2
	"$repro" "$@" >"$work/usage.out" 2>"$work/usage.err"
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" "$work/usage.err" &&
	   [ ! -s "$work/usage.out" ]; then
		ok "usage error, exit 2: $desc"
	else
		not_ok "usage error, exit 2: $desc" "rc=$rc" \
			"$(head -c 200 "$work/usage.err")"
	fi
}
usage "unknown option" "unknown option '--bogus'" --bogus
usage "--runs 0 is out of range" "out of range" --runs 0
usage "--pages not a number" "not a decimal number" --pages 20k
usage "--trigger not a trigger" "not one of auto|compact|reclaim|migrate" --trigger magic
usage "--identical more than --pages" "more than --pages" --pages 100 --identical 200
usage "--compact-node not a node" "not a node number" --compact-node x
usage "a stray argument" "unexpected argument" extra
usage "--swappiness above 200" "not a number from 0 to 200" --swappiness 300
usage "--contents more than the filled pages" "more than the 512 filled pages" --contents 600
usage "--parse-only refuses what a run would" "not a decimal number" --parse-only --pages banana
# --parse-only with valid options: exit 0, no report, no --out made
"$repro" --parse-only --pages 3000 --trigger reclaim --out "$work/po" \
	>"$work/po.out" 2>"$work/po.err"
assert "--parse-only: valid options exit 0, print nothing, make no --out" \
	bash -c "[ $? = 0 ] && [ ! -s '$work/po.out' ] && [ ! -s '$work/po.err' ] && [ ! -e '$work/po' ]"
# --bisect: git bisect run's codes (a usage error aborts the bisection,
# a kernel that cannot be judged is skipped), asked for even after the
# error
"$repro" --runs 0 --bisect >/dev/null 2>&1
assert "--bisect: a usage error exits 128 (aborts git bisect run)" [ $? = 128 ]
"$repro" --bisect --min-free-mb 1048576 --format json >"$work/bs.json" 2>/dev/null
rc=$?
assert_jq "--bisect: a skip exits 125 (git bisect skips the kernel)" \
	"$work/bs.json" ".verdict == \"skip\" and $rc == 125"
assert_same "usage errors changed nothing" "$before" "$(snapshot)"

# A second run while the lock is held is refused, changing nothing.
mkdir -p /run/rmap-repro
exec {lockfd}>>/run/rmap-repro/lock
flock "$lockfd"
"$repro" --runs 1 --format json >"$work/locked.json" 2>"$work/locked.err"
rc=$?
exec {lockfd}>&-
assert "a concurrent run exits 2" [ $rc = 2 ]
assert "and says another run holds the lock" \
	grep -q "another rmap-repro run holds" "$work/locked.err"
assert_jq "and reports verdict error in JSON" "$work/locked.json" \
	'.verdict == "error" and (.reason | test("lock"))'
assert_same "the refused run changed nothing" "$before" "$(snapshot)"

# A missing prerequisite is a SKIP (exit 4, KTAP "# SKIP"), never a pass.
(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$repro" --format ktap) >"$work/skip.ktap" 2>&1
rc=$?
assert "without root: exit 4 (skip)" [ $rc = 4 ]
(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$repro" --bisect --format ktap) >/dev/null 2>&1
assert "without root, --bisect: exit 125" [ $? = 125 ]
assert "without root: KTAP says ok with a SKIP directive and the reason" \
	grep -qx "ok 1 ksm-mprotect-split # SKIP needs root" "$work/skip.ktap"

# A step that fails in the middle of a run is an error with its reason,
# and restores: ksmd scanning one page every 10 s cannot merge in 1 s.
"$repro" --runs 1 --pages-to-scan 1 --sleep-ms 10000 --merge-timeout 1 \
	--format json >"$work/fail.json" 2>"$work/fail.err"
rc=$?
assert "a failing step: exit 2 (error)" [ $rc = 2 ]
assert_jq "a failing step: the reason says what failed, where" \
	"$work/fail.json" \
	'.verdict == "error" and (.reason | test("ksm case: run 1: KSM merged [0-9]+ of 512 pages in 1 s"))'
assert_same "a failing step: the machine is as before" "$before" \
	"$(snapshot)"

"$bin/rmap-restore" >"$work/restore.out" 2>&1
rc=$?
assert "rmap-restore with no journal: exit 0, nothing to restore" \
	bash -c "[ $rc = 0 ] && grep -q 'nothing to restore' '$work/restore.out'"
"$top/scripts/run-all" --only no-such-thing >/dev/null 2>"$work/ra.err"
assert "run-all --only with an unknown name exits 2" [ $? = 2 ]
finish
