#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run --jobs (several runs in one boot), with a stand-in QEMU
# (tests/lib/fake-qemu) that answers each job of the initramfs's list:
# a bad line is refused with its line number before anything is made;
# the guest's list quotes every word (a word that would run a command
# in the guest's shell stays a word) and carries a preset file; each
# job's files and exit code land in OUT/NAME, a line each in jobs.txt,
# its seconds in host.json; a job that never reported (the guest hung
# there) makes the exit 2 and keeps what the jobs before it sent. The
# real guests' side is the vm tier's (tests/lib/vmshare.sh).
. "$(dirname "$0")/../lib/integration.sh"

data=$top/tests/data/trust
good=$data/received-good.json
kernel=$good	# any readable file: the stand-in boots nothing
rm -rf "${work:?}"/*
if ! [ -x /bin/busybox ] || ! command -v cpio >/dev/null; then
	for t in refused quoted files silent; do
		ok "vm-run --jobs: $t # SKIP no busybox or cpio"
	done
	finish
	exit 0
fi
export PATH=$top/tests/lib/fake-qemu:$PATH FAKE_QEMU_LOG=$work/qemu.log
vm() {	# the job file, the output directory, more of vm-run's options
	: >"$FAKE_QEMU_LOG"
	FAKE_QEMU_RESULTS=$good "$top/scripts/vm-run" --accel tcg \
		--kernel "$kernel" --cache "$work/cache" --jobs "$1" \
		--out "$2" "${@:3}" >"$work/vm.out" 2>"$work/vm.err"
}

# refused, each with its reason and line, before --out is made
n=0
while IFS='|' read -r text why; do
	n=$((n + 1))
	printf '%b' "$text" >"$work/bad$n"
	vm "$work/bad$n" "$work/new$n"
	rc=$?
	assert "a job file with $why: refused (exit $rc), saying so, nothing made" \
		bash -c "[ $rc = 2 ] && grep -q -- \"$why\" '$work/vm.err' &&
			 [ ! -e '$work/new$n' ] && [ ! -s '$FAKE_QEMU_LOG' ]"
done <<'EOF'
ok1\nBad-name --preset quick|a job's name is a-z
one\none|job one twice
one --preset nosuch|no preset configs/nosuch.preset
one --only|--only needs a value
one --format json|unknown option '--format'
one --check --only quick|--check runs the tests, with no --only
# only a comment\n|no job in it
EOF
printf 'one\n' >"$work/one"
vm "$work/one" "$work/new-o" --only ksm-fork
rc=$?
assert "--jobs with --only on vm-run's line: refused (exit $rc): each job says what it runs" \
	bash -c "[ $rc = 2 ] && grep -q 'each job.s line says what it runs' '$work/vm.err' && [ ! -e '$work/new-o' ]"

# three jobs: a preset file, a word with a command substitution in it,
# and the tests
printf -- '--runs 1\n[ksm-fork]\n--pages 200\n' >"$work/mine.preset"
cat >"$work/jobs" <<EOF
# the patterns, then the tests
pat --preset quick --only ksm-fork,madvise-split -- --threshold-ms 50
own --preset $work/mine.preset --probe rmap-tp --bisect -- --note \$(reboot);\`reboot\`
chk --check -- quick probes
EOF
vm "$work/jobs" "$work/out" --exact
rc=$?
o=$work/out
assert "three jobs, each reported: exit 0 (exit $rc)" [ $rc = 0 ]
assert "each job's results.json and report.txt in OUT/NAME" \
	bash -c "for j in pat own chk; do cmp -s '$good' '$o/'\$j/results.json &&
		 grep -qx \"fake report of \$j\" '$o/'\$j/report.txt || exit 1; done"
assert "each job's exit code in OUT/NAME/exit and jobs.txt" \
	bash -c "[ \"\$(cat '$o/pat/exit' '$o/own/exit' '$o/chk/exit' | tr '\n' ' ')\" = '0 0 0 ' ] &&
		 [ \"\$(cat '$o/jobs.txt')\" = \"\$(printf 'pat: exit 0\nown: exit 0\nchk: exit 0')\" ]"
# the guest's list, read back by a shell as the guest's init reads it
got=$(job() { printf '<%s>' "$@"; echo; }; . "$FAKE_QEMU_LOG.jobs")
want="<pat><run-all><--preset><quick><--only><ksm-fork,madvise-split><--out></out/pat><--><--threshold-ms><50>
<own><run-all><--preset><job-own><--probe><rmap-tp><--out></out/own><--bisect><--><--note><\$(reboot);\`reboot\`>
<chk><check><quick><probes>"
assert "the guest's job list: every word the file's, quoted (nothing run)" \
	[ "$got" = "$want" ]
assert "the preset file went into the guest as configs/job-own.preset" \
	cmp -s "$FAKE_QEMU_LOG.presets" "$work/mine.preset"
assert_jq "host.json: each job's seconds, and the boot's parts" "$o/host.json" \
	'(.times_s.jobs | keys) == ["chk", "own", "pat"] and (.times_s.jobs | all(.[]; . >= 0)) and .times_s.boot >= 0 and .times_s.work >= 0 and .clock == "exact"'

# a guest that hangs in the second job: the first's files kept, exit 2
printf 'k1 --preset quick\nk2 --preset quick\nk3 --preset quick\n' >"$work/hang"
mkdir -p "$work/out2/k3"
echo stale >"$work/out2/k3/results.json"
FAKE_QEMU_JOB_SILENT=k2 FAKE_QEMU_JOB_RC="k1=1" vm "$work/hang" "$work/out2"
rc=$?
assert "a job that did not report: exit 2 (exit $rc), saying how many" \
	bash -c "[ $rc = 2 ] && grep -q '2 of 3 jobs did not report' '$work/vm.err'"
assert "...the job before it kept its files and its code (1); nothing stale left" \
	bash -c "cmp -s '$good' '$work/out2/k1/results.json' && [ \"\$(cat '$work/out2/k1/exit')\" = 1 ] &&
		 [ ! -e '$work/out2/k3/results.json' ] && [ ! -e '$work/out2/k2/exit' ] &&
		 grep -qx 'k2: did not report' '$work/out2/jobs.txt'"
unset FAKE_QEMU_LOG
rm -rf "$work/cache"
finish
