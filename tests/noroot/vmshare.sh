#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The vm tier's shared guests (tests/lib/vmshare.sh, tests/run), on a
# tree of stand-in vm programs and a stand-in QEMU (tests/lib/fake-qemu):
# three programs ask for jobs in two guests; tests/run --vm boots each
# guest once with every program's jobs of it, each program reads its own
# job's files and code, and the closing table names both guests and
# their boots. A program run alone boots its own guest. A job the guest
# never reported fails only its program, which says so. The guests run
# at nice 19 beside the host tiers, after the integration programs
# marked alone, and a vm program marked beside-guests beside them. Needs root (the vm tier's); changes
# nothing of the machine's.
. "$(dirname "$0")/../lib/integration.sh"

good=$top/tests/data/trust/received-good.json
rm -rf "${work:?}"/*
if [ "$(id -u)" != 0 ] || ! [ -x /bin/busybox ] ||
   ! command -v cpio >/dev/null; then
	for t in once table alone silent beside; do
		ok "shared guests: $t # SKIP needs root, busybox and cpio"
	done
	finish
	exit 0
fi
# a tree whose tests/vm holds the stand-ins, the rest the suite's own
t=$work/top
mkdir -p "$t/tests/vm"
for d in build scripts configs reproducers docs; do
	ln -s "$top/$d" "$t/$d"
done
ln -s "$top/tests/lib" "$t/tests/lib"
ln -s "$top/tests/run" "$t/tests/run"
# prog NAME BOOT JOB-OPTIONS: a vm program of one job, asserting what
# the stand-in QEMU sends back (FAKE_QEMU_RESULTS, FAKE_QEMU_JOB_RC)
prog() {
	cat >"$t/tests/vm/$1.sh" <<EOF
. "\$(dirname "\$0")/../lib/integration.sh"
. "\$top/tests/lib/vmshare.sh"
vm_job $2 j $3
vm_jobs_run
assert "$1: its job's results came back" \\
	cmp -s "\$(vm_job_dir j)/results.json" "$good"
assert "$1: its job's code (\$(vm_job_rc j))" [ "\$(vm_job_rc j)" = "${4:-0}" ]
finish
EOF
}
prog a unfixed "--preset quick --only ksm-fork"
prog b unfixed "--preset quick --only madvise-split -- --threshold-ms 50" 1
prog c fixed "--check -- quick"
touch "$t/k.bzImage" "$t/k.config"
export PATH=$top/tests/lib/fake-qemu:$PATH FAKE_QEMU_LOG=$work/qemu.log
export FAKE_QEMU_RESULTS=$good RMAP_REPRO_TEST_KERNEL=$t/k.bzImage
export RMAP_REPRO_TEST_KERNEL_FIXED=$t/k.bzImage
: >"$FAKE_QEMU_LOG"
env -u RMAP_REPRO_TOP -u TEST_TMPDIR -u RMAP_REPRO_VM_SHARED \
	FAKE_QEMU_JOB_RC="b.j=1" \
	"$t/tests/run" --vm >"$work/run.out" 2>&1
rc=$?
assert "tests/run --vm: exit 0 (exit $rc), every stand-in's results passed" \
	bash -c "[ $rc = 0 ] && tail -1 '$work/run.out' | grep -qx '12 passed, 0 failed'"
assert "one boot per guest: two QEMUs for three programs" \
	[ "$(wc -l <"$FAKE_QEMU_LOG")" = 2 ]
assert "the unfixed guest ran a's and b's jobs, the fixed one c's" \
	bash -c "grep -c '^job' '$FAKE_QEMU_LOG.jobs' | grep -qx 1 &&
		 grep -q '^job c.j check quick' '$FAKE_QEMU_LOG.jobs' &&
		 grep -q 'guest unfixed: 2 jobs' '$work/run.out' &&
		 grep -q 'guest fixed: 1 jobs' '$work/run.out'"
assert "the closing table: both guests' seconds, their boots' parts and their jobs' seconds" \
	bash -c "grep -Eq '^  guest unfixed +[0-9]+\$' '$work/run.out' &&
		 grep -q '^Jobs: 3 ' '$work/run.out' &&
		 grep -Eq '^  guest-unfixed +b\.j +[0-9]+\.[0-9]\$' '$work/run.out' &&
		 grep -Eq '^  guest-fixed +c\.j +[0-9]+\.[0-9]\$' '$work/run.out' &&
		 grep -Eq '^  guest fixed +[0-9]+\$' '$work/run.out' &&
		 grep -q '^Boots: 2 ' '$work/run.out' &&
		 grep -Eq '^  guest-unfixed +\\. +k.bzImage +exact +[0-9.]+ ' '$work/run.out' &&
		 grep -Eq '^  guest-fixed +\\. +k.bzImage +exact +[0-9.]+ ' '$work/run.out'"

# alone: the program boots its own guest
: >"$FAKE_QEMU_LOG"
env -u RMAP_REPRO_VM_SHARED TEST_TMPDIR=$work/alone RMAP_REPRO_TOP=$t \
	bash "$t/tests/vm/a.sh" >"$work/a.out" 2>&1
assert "a program run alone boots its own guest, and passes" \
	bash -c "[ \"\$(wc -l <'$FAKE_QEMU_LOG')\" = 1 ] &&
		 ! grep -q '^not ok' '$work/a.out' && grep -q '^ok 3 a: its job' '$work/a.out' &&
		 grep -q '^job a.j run-all' '$FAKE_QEMU_LOG.jobs'"

# a guest that hung in b's job: b fails and says so, a passes
: >"$FAKE_QEMU_LOG"
env -u RMAP_REPRO_TOP -u TEST_TMPDIR -u RMAP_REPRO_VM_SHARED \
	FAKE_QEMU_JOB_SILENT=b.j \
	"$t/tests/run" --vm >"$work/hang.out" 2>&1
rc=$?
assert "a job the guest never reported fails its program alone (exit $rc)" \
	bash -c "[ $rc = 1 ] && grep -q '^b: not ok 1 the unfixed guest ran this program.s 1 job' '$work/hang.out' &&
		 ! grep -q '^a: not ok' '$work/hang.out' && ! grep -q '^c: not ok' '$work/hang.out'"

# beside the host tiers: an integration program marked alone runs
# first, no guest beside it; the guests start before the rest of the
# integration tier, which sees one running at nice 19, and run beside
# the no-root tier too (stand-ins that look for the stand-in QEMU)
mkdir -p "$t/tests/noroot" "$t/tests/integration"
hold=$work/hold
cat >"$t/tests/integration/z.sh" <<EOF
# alone: a stand-in
. "\$(dirname "\$0")/../lib/integration.sh"
sleep 1
assert "no guest beside an integration program marked alone" [ ! -e "$hold.pid" ]
finish
EOF
# guest_beside WHAT: a stand-in asserting that a guest runs beside it
guest_beside() {
	cat <<EOF
. "\$(dirname "\$0")/../lib/integration.sh"
for ((i = 0; i < 100; i++)); do
	[ -s "$hold.pid" ] && break
	sleep 0.1
done
assert "a guest runs beside $1 at nice 19" \\
	awk '\$3 ~ /^[RS]\$/ && \$19 == 19 { f = 1 } END { exit !f }' \\
	"/proc/\$(cat "$hold.pid")/stat"
finish
EOF
}
guest_beside "the rest of the integration tier" >"$t/tests/integration/i.sh"
guest_beside "the no-root tier" >"$t/tests/noroot/n.sh"
# a vm program whose boots count instructions: beside the last guests
cat >"$t/tests/vm/e.sh" <<EOF
# beside-guests: a stand-in
. "\$(dirname "\$0")/../lib/integration.sh"
assert "a beside-guests program runs while a guest does" \
	grep -q '^[0-9]* ([^)]*) [RS] ' "/proc/\$(cat "$hold.pid")/stat"
: >"$hold"
finish
EOF
: >"$FAKE_QEMU_LOG"
env -u RMAP_REPRO_TOP -u TEST_TMPDIR -u RMAP_REPRO_VM_SHARED \
	FAKE_QEMU_HOLD=$hold FAKE_QEMU_JOB_RC="b.j=1" \
	"$t/tests/run" --vm --noroot --integration >"$work/beside.out" 2>&1
rc=$?
assert "tests/run: an integration program marked alone, then the guests beside the rest, the no-root tier and a beside-guests program (exit $rc)" \
	bash -c "[ $rc = 0 ] && sed -n 1p '$work/beside.out' | grep -q '^tier integration' &&
		 grep -q '^tier vm: its guests start beside the integration tier' '$work/beside.out' &&
		 grep -q '^z  *1 results, 0 failed' '$work/beside.out' &&
		 grep -q '^i  *1 results, 0 failed' '$work/beside.out' &&
		 grep -q '^n  *1 results, 0 failed' '$work/beside.out' &&
		 grep -q '^e  *1 results, 0 failed' '$work/beside.out' &&
		 tail -1 '$work/beside.out' | grep -qx '16 passed, 0 failed'"
unset FAKE_QEMU_LOG
finish
