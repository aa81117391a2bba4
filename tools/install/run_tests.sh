#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_tests.sh of an installed rmap-repro collection (make install), as
# kselftest runners expect: KTAP on stdout, the exit code kselftest's
# (0 pass, 1 fail, 4 skip). Runs scripts/run-all with a preset; the
# human report goes to stderr, every file to an output directory.
#
# Environment: RMAP_REPRO_PRESET (quick), RMAP_REPRO_ONLY (a list of
# reproducers, default all), RMAP_REPRO_OUT (default a new directory
# under ${TMPDIR:-/tmp}), RMAP_REPRO_ARGS (options for every reproducer,
# e.g. "--trigger reclaim").
set -u

here=$(cd "$(dirname "$0")" && pwd)
preset=${RMAP_REPRO_PRESET:-quick}
out=${RMAP_REPRO_OUT:-}
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/rmap-repro.XXXXXX") && [ -d "$out" ] || {
		printf 'KTAP version 1\n1..1\n# cannot create a directory in %s\nnot ok 1 rmap-repro\n' \
			"${TMPDIR:-/tmp}"
		exit 1
	}
fi
args=(--preset "$preset" --out "$out")
[ -n "${RMAP_REPRO_ONLY:-}" ] && args+=(--only "$RMAP_REPRO_ONLY")
# split on blanks, never globbed: "--trigger reclaim" is two words, and
# a * stays a *
if [ -n "${RMAP_REPRO_ARGS:-}" ]; then
	read -r -a words <<<"$RMAP_REPRO_ARGS"
	args+=(-- "${words[@]}")
fi

"$here/scripts/run-all" "${args[@]}" >&2
rc=$?
if [ -s "$out/results.ktap" ]; then
	cat "$out/results.ktap"
else
	printf 'KTAP version 1\n1..1\n# run-all wrote no results (exit %s)\nnot ok 1 rmap-repro\n' "$rc"
fi
echo "# rmap-repro: files in $out" >&2
# run-all: 0 not reproduced, 1 reproduced, 4 all skipped, 2 error, 3
# inconclusive (runs that kept disagreeing: not judged, as a skip)
case $rc in
0|1|4) exit "$rc" ;;
3) exit 4 ;;
*) exit 1 ;;
esac
