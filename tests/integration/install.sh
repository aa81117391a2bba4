#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install INSTALL_PATH=DIR lays out a kselftest-style collection
# that runs from any directory without the source tree: run_tests.sh
# prints KTAP and exits with kselftest's codes, settings holds the
# timeout, the rmap-repro runner reaches every reproducer. make dist
# makes a tarball that says its version.
. "$(dirname "$0")/../lib/integration.sh"

# a blank in the path: make install quotes its destination
inst="$work/in st"
# a guest of vm-run --check has the suite's binaries, not its build
if ! command -v make >/dev/null || [ ! -r "$top/Makefile" ]; then
	ok "make install and dist # SKIP no make or no source tree here"
	finish
	exit 0
fi
before=$(snapshot)
make -C "$top" -s install INSTALL_PATH="$inst" >"$work/install.out" 2>&1
assert "make install exits 0" [ $? = 0 ]
assert "the collection: run_tests.sh, settings, the runner, binaries, presets" \
	bash -c "[ -x '$inst/run_tests.sh' ] && [ -x '$inst/rmap-repro' ] &&
		 grep -qx 'timeout=[0-9]*' '$inst/settings' &&
		 [ -r '$inst/configs/quick.preset' ] && [ -s '$inst/VERSION' ]"
want=$(cd "$top/reproducers" && ls *.c | sed 's/\.c$//' | sort)
got=$(cd / && "$inst/rmap-repro" list | sort)
assert "rmap-repro list: every reproducer, from any directory" \
	[ "$want" = "$got" ]
(cd / && "$inst/rmap-repro" ksm-mremap --help) >/dev/null 2>&1
assert "rmap-repro NAME runs the reproducer" [ $? = 0 ]

# run_tests.sh as a kselftest runner calls it: from elsewhere, KTAP out
(cd / && RMAP_REPRO_ONLY=ksm-mremap RMAP_REPRO_OUT=$work/kt \
	"$inst/run_tests.sh") >"$work/kt.ktap" 2>"$work/kt.err"
rc=$?
# kselftest's code from the verdicts: an error or a reproduction
# fails, all skipped skips (kselftest has no code for an error)
want=$(jq -r '[.results[].verdict] as $v
	| if any($v[]; . == "error" or . == "reproduced") then 1
	  elif all($v[]; . == "skip") then 4 else 0 end' \
	"$work/kt/results.json" 2>/dev/null)
nres=$(jq '.results | length' "$work/kt/results.json" 2>/dev/null)
assert "run_tests.sh: KTAP on stdout, a result for each of ksm-mremap's $nres runs" \
	bash -c "head -1 '$work/kt.ktap' | grep -qx 'KTAP version 1' &&
		 grep -qx '1..$nres' '$work/kt.ktap' &&
		 grep -Eq '^(not )?ok 1 ksm-mremap( |\$)' '$work/kt.ktap' &&
		 [ \$(grep -Ec '^(not )?ok [0-9]+ ' '$work/kt.ktap') = $nres ]"
assert "run_tests.sh: kselftest's exit code for the verdicts (want $want, exit $rc)" \
	[ "$rc" = "$want" ]
assert "run_tests.sh: the human report went to stderr" \
	grep -q "^ksm-mremap: " "$work/kt.err"
# RMAP_REPRO_ARGS is split on blanks and never globbed: a * in it stays
# a * (the reproducer refuses it) however the directory's files are named
mkdir -p "$work/glob"
touch "$work/glob/--from-a-glob"
(cd "$work/glob" && RMAP_REPRO_ONLY=ksm-mremap RMAP_REPRO_ARGS='*' \
	RMAP_REPRO_OUT=$work/kg "$inst/run_tests.sh") >"$work/kg.ktap" \
	2>"$work/kg.err"
rc=$?
# a usage error is no verdict: kselftest's fail code (1) for a not ok
fail_rc=$(grep -q '^not ok ' "$work/kg.ktap" && echo 1 || echo 0)
assert "run_tests.sh: RMAP_REPRO_ARGS='*' reaches the reproducer as *, not globbed (exit $rc)" \
	bash -c "[ $rc = $fail_rc ] && grep -q \"unexpected argument '\\*'\" '$work/kg.err' &&
		 ! grep -q 'from-a-glob' '$work/kg.err' &&
		 grep -q '^not ok 1 rmap-repro' '$work/kg.ktap'"

# make dist: a tarball that names and carries its version
ver=$(git -C "$top" describe --always --dirty --tags 2>/dev/null)
if [ -n "$ver" ]; then
	make -C "$top" -s dist >"$work/dist.out" 2>&1
	tgz=$top/build/rmap-repro-$ver.tar.gz
	assert "make dist: build/rmap-repro-$ver.tar.gz" [ -s "$tgz" ]
	assert "the tarball holds the sources and VERSION $ver" \
		bash -c "tar xzf '$tgz' -C '$work' &&
			 [ \"\$(cat '$work/rmap-repro-$ver/VERSION')\" = '$ver' ] &&
			 [ -r '$work/rmap-repro-$ver/Makefile' ] &&
			 [ -r '$work/rmap-repro-$ver/common/core/runner.c' ]"
	rm -f "$tgz"
else
	ok "make dist # SKIP not a git checkout"
fi
assert_same "the machine is as before" "$before" "$(snapshot)"
finish
