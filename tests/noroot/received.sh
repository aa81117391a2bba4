#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Received files and directories (docs/running.md, "What the suite
# trusts"), on the hostile inputs of tests/data/trust/ (its README
# lists them): a link planted at each name plot and sweep --replot
# write; a control character in each string compare, plot, fingerprint
# and sweep draw; a file of 4,000 cases; nan, a huge number, hex and
# negative samples, a forged kept, a key twice, two values in one file;
# rmap-stat given what the options refuse; vm-run (with a stand-in
# QEMU, tests/lib/fake-qemu) given a probe cache that is not kvm or
# tcg, a bisect baseline whose reproducer errored here or that ran
# other options, a reused --out with another run's boots; options that
# fail after a directory would have been made. Each asserts that no
# file changed outside a new directory, that no control character was
# printed, and an error exit with the reason. As root also an --out or
# --cache under a directory of another user's. Changes nothing of the
# machine's.
. "$(dirname "$0")/../lib/integration.sh"

data=$top/tests/data/trust
good=$data/received-good.json
victim=$work/victim
kernel=$top/tests/data/trust/received-good.json	# any readable file
rm -rf "${work:?}"/*
echo "the user's" >"$victim"
before=$(snapshot)

# sums PATH...: what the files there hold, links as links, to tell that
# none changed
sums() {
	find "$@" \( -type f -o -type l \) -print0 | sort -z |
		xargs -0 -I{} sh -c 'printf "%s " "{}"; if [ -L "{}" ]; then readlink "{}"; else sha256sum <"{}"; fi'
}
# no control character (but tab and line feed) in FILE...
clean() {
	! LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$@"
}

# --- links planted at the names plot and sweep --replot write ----------
if command -v gnuplot >/dev/null; then
	r=$work/recv
	mkdir -p "$r"
	cp "$good" "$r/results.json"
	for n in ksm-mprotect-split ksm-fork overview; do
		for t in png svg; do
			ln -s "$victim" "$r/$n.$t"
		done
	done
	s0=$(sums "$r" "$victim")
	"$top/scripts/plot" "$r/results.json" >"$work/p.out" 2>"$work/p.err"
	rc=$?
	drawn=$(sed -n 's/^plot: \(.*\)\/overview.png, overview.svg$/\1/p' "$work/p.err")
	assert "plot RECEIVED/results.json: drawn (exit $rc) into a new directory of its own, not the received one" \
		bash -c "[ $rc = 0 ] && [ -n '$drawn' ] && [ '$drawn' != '$r' ] &&
			 [ -s '$drawn/overview.png' ] && [ -s '$drawn/ksm-fork.svg' ]"
	s1=$(sums "$r" "$victim")
	assert "...the received directory and the linked file unchanged" \
		bash -c "[ '$s0' = '$s1' ] && [ -L '$r/overview.png' ] &&
			 [ \"\$(cat '$victim')\" = \"the user's\" ]"
	case $drawn in "$top"/out/plot-*) rm -rf "$drawn" ;; esac
	"$top/scripts/plot" --out "$r" "$r/results.json" >/dev/null 2>&1
	rc=$?
	assert "plot --out RECEIVED: each link replaced by a picture (exit $rc), its target unchanged" \
		bash -c "[ $rc = 0 ] && [ \"\$(cat '$victim')\" = \"the user's\" ] &&
			 [ -f '$r/overview.png' ] && [ ! -L '$r/overview.png' ] &&
			 [ -f '$r/ksm-fork.svg' ] && [ ! -L '$r/ksm-fork.svg' ]"
	w=$work/sweep
	mkdir -p "$w"
	cp "$top/docs/sample-sweep/sweep.json" "$w/"
	for n in sweep.txt sweep.dat gnuplot.err sweep.png sweep.svg; do
		ln -s "$victim" "$w/$n"
	done
	"$top/scripts/sweep" --replot "$w" >/dev/null 2>"$work/s.err"
	rc=$?
	assert "sweep --replot RECEIVED: sweep.txt, .png, .svg replace their links (exit $rc), the target unchanged, nothing written at sweep.dat or gnuplot.err" \
		bash -c "[ $rc = 0 ] && [ \"\$(cat '$victim')\" = \"the user's\" ] &&
			 for n in sweep.txt sweep.png sweep.svg; do
				 [ -f '$w/'\$n ] && [ ! -L '$w/'\$n ] || exit 1
			 done && [ -L '$w/sweep.dat' ] && [ -L '$w/gnuplot.err' ]"
	for k in kernel probe; do
		d=$work/sweep-$k
		mkdir -p "$d"
		cp "$data/sweep-ctrl-$k.json" "$d/sweep.json"
		ln -s "$victim" "$d/sweep.txt"
		"$top/scripts/sweep" --replot "$d" >"$work/s-$k.out" \
			2>"$work/s-$k.err"
		rc=$?
		assert "sweep --replot: a control character in the $k string: refused (exit $rc) with the reason, nothing drawn or printed raw" \
			bash -c "[ $rc = 2 ] && grep -q 'control character (U+00' '$work/s-$k.err' &&
				 [ ! -s '$work/s-$k.out' ] && [ -L '$d/sweep.txt' ] &&
				 [ ! -e '$d/sweep.png' ] && [ \"\$(cat '$victim')\" = \"the user's\" ]" 
		assert "...stdout and stderr free of control characters" \
			clean "$work/s-$k.out" "$work/s-$k.err"
	done
else
	for t in "plot: a new directory" "...unchanged" "plot --out" \
		 "sweep --replot links" "sweep kernel" "...clean" \
		 "sweep probe" "...clean"; do
		ok "$t # SKIP no gnuplot (scripts/install-deps --plot)"
	done
fi

# --- a control character in each string that is drawn ----------------
s0="$(sums "$data" "$victim") $(ls -A "$top/out" 2>/dev/null)"
for c in release preset verdict command c1 function; do
	f=$data/results-ctrl-$c.json
	"$top/scripts/compare" "$good" "$f" >"$work/c.out" 2>"$work/c.err"
	rc=$?
	bad=""
	[ $rc = 2 ] || bad="compare exit $rc"
	grep -q "control character (U+00[0-9A-F]*)" "$work/c.err" ||
		bad="$bad, compare gave no reason"
	[ -s "$work/c.out" ] && bad="$bad, compare printed"
	clean "$work/c.out" "$work/c.err" || bad="$bad, compare printed one raw"
	"$top/scripts/fingerprint" --results "$f" >"$work/f.out" 2>"$work/f.err"
	rc=$?
	[ $rc = 2 ] || bad="$bad, fingerprint exit $rc"
	clean "$work/f.out" "$work/f.err" || bad="$bad, fingerprint printed one raw"
	"$top/scripts/plot" --out "$work/new/plot-$c" "$f" >/dev/null \
		2>"$work/p.err"
	rc=$?
	[ $rc = 2 ] || bad="$bad, plot exit $rc"
	clean "$work/p.err" || bad="$bad, plot printed one raw"
	[ -z "$(ls -A "$work/new/plot-$c" 2>/dev/null)" ] || bad="$bad, plot drew"
	assert "a control character in the $c string: compare, fingerprint and plot refuse it (exit 2) with the reason, print nothing raw${bad:+ (not: $bad)}" \
		[ -z "$bad" ]
done
s1="$(sums "$data" "$victim") $(ls -A "$top/out" 2>/dev/null)"
assert "...no file changed: the inputs, the linked file, the clone's out/" [ "$s0" = "$s1" ]

# --- numbers, sizes and the JSON itself --------------------------------
jq -f "$data/many-cases.jq" "$good" >"$work/many.json"
t0=$SECONDS
"$top/scripts/compare" "$good" "$work/many.json" >"$work/m.out" 2>"$work/m.err"
rc=$?
assert "a file of 4,000 cases: refused at once (exit $rc, $((SECONDS - t0)) s), 'at most 6'" \
	bash -c "[ $rc = 2 ] && grep -q '4000 cases (at most 6)' '$work/m.err' && [ ! -s '$work/m.out' ]"
for c in "nan:not a JSON value" "huge:is beyond a double" \
	 "hex:expected" "negative:a negative time (-500)" \
	 "kept:kept is 900 but it has 8 values" \
	 "dupkey:the key \"kept\" twice" "two:more after the one JSON value"; do
	f=$data/results-${c%%:*}.json
	"$top/scripts/compare" "$good" "$f" "$good" >"$work/n.out" 2>"$work/n.err"
	rc=$?
	assert "compare A $(basename "$f") C: refused (exit $rc): '${c#*:}'" \
		bash -c "[ $rc = 2 ] && grep -qF -- '${c#*:}' '$work/n.err' && [ ! -s '$work/n.out' ]"
done
bad=()
for l in "k 2 nan nan 2 1 1" "k 2 inf 1 2 1 1" "k 2 0x10 1 2 1 1" \
	 "k 2 -1 1 2 1 1" "k 2 1 1 2 1 1 9" "k 1e400 1 1 1"; do
	echo "$l" | "$bin/rmap-stat" >"$work/st.out" 2>/dev/null
	[ $? = 2 ] && [ ! -s "$work/st.out" ] || bad+=("'$l'")
done
echo "k 2 1 2 2 3 4" | "$bin/rmap-stat" >"$work/st.out"
assert "rmap-stat refuses nan, inf, 0x10, a negative sample and a line longer than its counts (exit 2, no answer)${bad:+ (not: ${bad[*]})}; takes a good line" \
	bash -c "[ ${#bad[@]} = 0 ] && grep -q '^k ' '$work/st.out'"

# --- output directories ------------------------------------------------
if [ "$(id -u)" = 0 ]; then
	other=$work/others
	mkdir -p "$other"
	chown 65534:65534 "$other"
	n=0
	for cmd in "$top/scripts/plot --out $other/new $good" \
		   "$bin/ksm-fork --min-free-mb 1048576 --out $other/new" \
		   "$top/scripts/run-all --only ksm-fork --out $other/new" \
		   "$top/scripts/vm-run --kernel $kernel --out $other/new" \
		   "$top/scripts/vm-run --kernel $kernel --cache $other/new"; do
		# shellcheck disable=SC2086
		$cmd >/dev/null 2>"$work/o.err"
		rc=$?
		[ $rc = 2 ] && grep -q 'belongs to another user (uid 65534)' "$work/o.err" &&
			[ ! -e "$other/new" ] && n=$((n + 1)) ||
			echo "# $cmd: exit $rc: $(head -c 200 "$work/o.err")"
	done
	assert "as root, --out (plot, a reproducer, run-all, vm-run) or vm-run --cache under a directory of another user's: refused (exit 2), saying whose, nothing made ($n of 5)" \
		[ $n = 5 ]
	rm -rf "$other"
else
	ok "--out under another user's directory, as root # SKIP not root"
fi
"$top/scripts/vm-run" --kernel "$kernel" --kernel "$kernel" --boots 2 \
	--mem 10 --out "$work/new/vm" >/dev/null 2>"$work/v.err"
rc=$?
assert "vm-run, two kernels and --boots, a bad --mem: refused (exit $rc) before --out is made" \
	bash -c "[ $rc = 2 ] && grep -q 'mem 10 is too small' '$work/v.err' && [ ! -e '$work/new/vm' ]"

# --- vm-run with a stand-in QEMU ----------------------------------------
if [ -x /bin/busybox ] && command -v cpio >/dev/null; then
	export PATH=$top/tests/lib/fake-qemu:$PATH FAKE_QEMU_LOG=$work/qemu.log
	vm() {	# the guest's results and exit code, then vm-run's options
		FAKE_QEMU_RESULTS=$1 FAKE_QEMU_RC=$2 "$top/scripts/vm-run" \
			--accel tcg --kernel "$kernel" "${@:3}" \
			>"$work/vm.out" 2>"$work/vm.err"
	}
	vm "$good" 0 --bisect --baseline "$good" --max-change 5 \
		--out "$work/new/b0"
	assert "bisect on cost, the same run as the baseline: good (exit $?)" [ $? = 0 ]
	jq '.results[].cases[] |= (if .role == "subject" then
		.latency_ms.mean *= 1.5 else . end)' "$good" >"$work/slower.json"
	vm "$work/slower.json" 0 --bisect --baseline "$good" --max-change 5 \
		--out "$work/new/b1"
	assert "...a subject 50% slower: bad (exit $?)" [ $? = 1 ]
	vm "$data/bisect-errored.json" 0 --bisect --baseline "$good" \
		--max-change 5 --out "$work/new/b2"
	rc=$?
	assert "...a reproducer of the baseline errored here: 125, not good (exit $rc), saying which" \
		bash -c "[ $rc = 125 ] && grep -q 'ksm-mprotect-split: error here' '$work/vm.err'"
	vm "$good" 125 --bisect --baseline "$good" --max-change 5 \
		--out "$work/new/b3"
	rc=$?
	assert "...the guest's run could not judge (its exit 125): 125 (exit $rc)" \
		bash -c "[ $rc = 125 ] && grep -q 'could not judge this kernel (exit 125)' '$work/vm.err'"
	vm "$data/bisect-options.json" 0 --bisect --baseline "$good" \
		--max-change 5 --out "$work/new/b4"
	rc=$?
	assert "...a run made with other options than the baseline: refused (exit $rc: 128), naming them" \
		bash -c "[ $rc = 128 ] && grep -q \"ran '.*--pages 4000.*', the baseline\" '$work/vm.err'"
	vm "$good" 0 --bisect --exact --baseline "$good" --max-change 5 \
		--out "$work/new/b5"
	rc=$?
	assert "...a baseline of wall time against --exact: refused before booting (exit $rc: 128)" \
		bash -c "[ $rc = 128 ] && grep -q 'ran on wall time' '$work/vm.err' && [ ! -e '$work/new/b5' ]"
	# the probe's cache holds text that is not kvm or tcg
	pc=$work/cache/kvm-probe/$(echo "$(stat -Lc '%s %Y %i' "$kernel") $(cat /proc/sys/kernel/random/boot_id)" |
		cksum | cut -d' ' -f1)
	mkdir -p "$(dirname "$pc")"
	echo 'tcg,kernel-irqchip=off -device pwned' >"$pc"
	: >"$FAKE_QEMU_LOG"
	FAKE_QEMU_RESULTS=$good "$top/scripts/vm-run" --kernel "$kernel" \
		--cache "$work/cache" --out "$work/new/c" >/dev/null 2>"$work/vm.err"
	rc=$?
	assert "a probe cache holding other text than kvm or tcg: ignored, said (exit $rc), QEMU's -machine is accel=tcg,mem-merge=off (the log quotes it: tcg\\,)" \
		bash -c "[ $rc = 0 ] && grep -q 'holds neither kvm nor tcg' '$work/vm.err' &&
			 grep -q -- '-machine accel=tcg.,mem-merge=off ' '$FAKE_QEMU_LOG' && ! grep -q pwned '$FAKE_QEMU_LOG'"
	# What vm-run wrote there in its turn (where /dev/kvm is, it probed:
	# "tcg" and a newline) is taken the next time, without a probe boot
	# (the newline made it "tcg?", ignored, until 2026-12-07).
	if [ -w /dev/kvm ]; then
		FAKE_QEMU_RESULTS=$good "$top/scripts/vm-run" --kernel "$kernel" \
			--cache "$work/cache" --out "$work/new/c2" >/dev/null \
			2>"$work/vm.err"
		rc=$?
		assert "the probe's own line in its cache ($(tr '\n' ' ' <"$pc")): taken, no probe boot (exit $rc)" \
			bash -c "[ $rc = 0 ] && grep -q 'KVM probe of this kernel cached in' '$work/vm.err' &&
				 ! grep -q 'KVM did not boot' '$work/vm.err'"
	else
		ok "the probe's own line in its cache is taken # SKIP no /dev/kvm here: vm-run does not probe"
	fi
	# a reused --out: another run's boot-3 and stale files; boot 2 of
	# side A reports nothing
	mkdir -p "$work/new/boots/A/boot-3" "$work/new/boots/B/boot-3" \
		"$work/new/boots/A/boot-2"
	cp "$good" "$work/new/boots/A/boot-3/results.json"
	cp "$good" "$work/new/boots/B/boot-3/results.json"
	cp "$good" "$work/new/boots/A/boot-2/results.json"
	: >"$FAKE_QEMU_LOG"
	FAKE_QEMU_RESULTS=$good FAKE_QEMU_SILENT_CALL=3 "$top/scripts/vm-run" \
		--accel tcg --kernel "$kernel" --kernel "$kernel" --boots 2 \
		--out "$work/new/boots" >"$work/vm.out" 2>"$work/vm.err"
	rc=$?
	assert "vm-run --boots 2 into a reused --out: exit 2 (a boot failed); no earlier boot left, the failed boot's directory without results" \
		bash -c "[ $rc = 2 ] && [ ! -e '$work/new/boots/A/boot-3' ] &&
			 [ ! -e '$work/new/boots/B/boot-3' ] &&
			 [ ! -e '$work/new/boots/A/boot-2/results.json' ] &&
			 [ -s '$work/new/boots/B/boot-2/results.json' ]"
	unset FAKE_QEMU_LOG
else
	for t in good bad errored guest options exact cache boots; do
		ok "vm-run with a stand-in QEMU: $t # SKIP no busybox or cpio"
	done
fi
rm -rf "$work/new"
assert "the linked file is as it was" [ "$(cat "$victim")" = "the user's" ]
assert_same "nothing on the machine changed" "$before" "$(snapshot)"
finish
