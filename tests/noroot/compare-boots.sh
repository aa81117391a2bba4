#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare on sides of several boots (scripts/vm-run --boots N:
# DIR/boot-1/results.json, ...), made here from the shared kernel's VM
# sample (its @walks run: steps counted) with each boot's figures scaled
# by known factors. The floor must be the larger spread between one
# side's boots, the ratio the ratio of the sides' means, its interval
# [min B / max A, max B / min A]; a change is significant only beyond the
# floor with the rank test's p < 0.05; four boots a side can tell, three
# cannot; A/A calls nothing; the summary says which floor it used and
# whether a patch removed steps or made each step cheaper, and warns
# when the boots ran different options.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

cmp=$top/scripts/compare
base=$top/docs/sample-vm-results.json
before=$(snapshot)

# mk SIDE COST STEPS JITTER...: one boot per jitter factor, the KSM case's
# mean, p50 and max scaled by COST * JITTER, its steps per walk by STEPS
# (the cost per step follows), and the run marked exact
mk() {
	local side=$1 cost=$2 steps=$3 i=0 j
	shift 3
	for j in "$@"; do
		i=$((i + 1))
		mkdir -p "$work/$side/boot-$i"
		jq --argjson c "$cost" --argjson s "$steps" --argjson j "$j" '
		  .results |= [.[] | select(.reproducer == "ksm-mprotect-split@walks")
		    | .system.exact_clock = "QEMU icount virtual time, 1 ns per guest instruction: a deterministic cost, not wall time; caches and host speed are not modelled"
		    | .cases |= [.[] | if .name == "ksm" then
			(.latency_ms.mean *= $c * $j | .latency_ms.p50 *= $c * $j
			 | .latency_ms.max *= $c * $j
			 | .iterations.steps_per_walk_mean *= $s
			 | .iterations.us_per_step = .latency_ms.mean * 1000 /
			   .iterations.steps_per_walk_mean)
			else . end]]' "$base" >"$work/$side/boot-$i/results.json"
	done
}
jit=(1 1.0002 0.9997 1.0001)
mk A 1 1 "${jit[@]}"
mk B 0.99 1 "${jit[@]}"			# each step 1% cheaper
mk C 0.98 0.98 "${jit[@]}"		# 2% fewer steps
mk AA 1 1 0.9999 1.0003 1 0.9998	# A again, other seeds
mk A3 1 1 1 1.0002 0.9997
mk B3 0.99 1 1 1.0002 0.9997

"$cmp" --format json "$work/A" "$work/B" "$work/C" >"$work/abc.json"
assert "json of three sides of four boots: exit 0" [ $? = 0 ]
"$cmp" "$work/A" "$work/B" "$work/C" >"$work/abc.txt"
assert "text: exit 0" [ $? = 0 ]
# the text's lines unwrapped (a continuation is indented by two)
unwrap() { sed ':a;N;$!ba;s/\n  / /g' "$1"; }
unwrap "$work/abc.txt" >"$work/abc.one"
k='.figures[] | select(.case == "ksm" and .figure == "mean")'
# what the figures must be, from the files themselves
want=$(jq -s '[.[] | .results[0].cases[0].latency_ms.mean]' \
	"$work"/A/boot-*/results.json "$work"/B/boot-*/results.json)
assert_jq "the KSM mean's floor is the larger spread between one side's boots" \
	"$work/abc.json" \
	"($want[:4]) as \$a | ($want[4:]) as \$b
	 | ([\$a, \$b] | map((max - min) / (add / length)) | max) as \$f
	 | [$k][0] | (.floor - \$f | fabs) < 1e-12 and
	   (.floor_from | startswith(\"the spread between the boots of \"))"
assert_jq "the ratio is B's mean over A's, its interval [min B / max A, max B / min A]" \
	"$work/abc.json" \
	"($want[:4]) as \$a | ($want[4:]) as \$b
	 | [$k][0].changes[1] as \$c
	 | ((\$c.ratio - (\$b | add) / (\$a | add)) | fabs) < 1e-12 and
	   ((\$c.lo - (\$b | min) / (\$a | max)) | fabs) < 1e-12 and
	   ((\$c.hi - (\$b | max) / (\$a | min)) | fabs) < 1e-12"
assert_jq "each step 1% cheaper: the mean, p50 and max lower and significant, 0.99x" \
	"$work/abc.json" \
	'[.figures[] | select(.case == "ksm" and (.figure == "mean" or .figure == "p50" or .figure == "max")) | .changes[1]]
	 | length == 3 and all(.significant and .word == "lower, significant" and ((.ratio - 0.99) | fabs) < 1e-9 and .p < 0.05)'
assert_jq "...the steps 1.0000x, no change; the cost per step 0.99x, significant" \
	"$work/abc.json" \
	'[.figures[] | select(.case == "ksm") | {(.figure): .changes[1]}] | add
	 | (.["steps/walk"].ratio == 1 and (.["steps/walk"].significant | not)) and
	   .["us/step"].significant and ((.["us/step"].ratio - 0.99) | fabs) < 1e-3'
assert "the summary: B the same steps, each cheaper; C the steps changed" \
	bash -c "grep -q '^ksm-mprotect-split@walks ksm, B against A: mean walk 0.9900x, steps per walk 1.0000x, cost per step 0.9900x: the same steps, each cheaper' '$work/abc.one' &&
		 grep -q '^ksm-mprotect-split@walks ksm, C against A: mean walk 0.9800x, steps per walk 0.9800x, .*: the steps changed' '$work/abc.one'"
assert "the text says which floor it used and where it came from" \
	bash -c "grep -q 'its floor is the larger spread between one side.s boots' '$work/abc.one' &&
		 grep -q '^ksm-mprotect-split@walks ksm mean ms: A .*; floor 0.0[0-9][0-9]% (the spread between the boots of [AB])' '$work/abc.one' &&
		 grep -q 'Exact runs: QEMU icount virtual time' '$work/abc.one'"
assert "the text fits 72 columns" \
	bash -c "! awk 'length > 72' '$work/abc.txt' | grep -q ."

"$cmp" --format json "$work/A" "$work/AA" >"$work/aa.json"
assert_jq "A/A (the same figures under other jitters): no figure significant, every one within its floor" \
	"$work/aa.json" \
	'(.figures | length) > 0 and ([.figures[].changes[1].significant] | any | not)'
"$cmp" --format json "$work/A3" "$work/B3" >"$work/three.json"
assert_jq "three boots a side: beyond the floor, but too few boots to tell (p cannot go below 0.1)" \
	"$work/three.json" \
	"[$k][0].changes[1] | (.significant | not) and .beyond_floor and (.word | startswith(\"beyond the floor, but too few boots to tell\"))"
"$cmp" --format json "$work/A" >"$work/one.json"
assert_jq "one side alone: its floors measured, nothing compared" \
	"$work/one.json" \
	'(.sides | length) == 1 and ([.figures[].floor] | all(. != null)) and all(.figures[]; .changes == [null])'
"$cmp" --format json "$work/A" "$work/B/boot-1/results.json" >"$work/mixed.json"
assert_jq "a single run beside boots: no floor from it, A's floor used" \
	"$work/mixed.json" \
	"[$k][0] | .floor_from == \"the spread between the boots of A\""
assert_jq "the same options on every boot: no warning" "$work/abc.json" \
	'.warnings == []'
for i in 1 2 3 4; do
	mkdir -p "$work/D/boot-$i"
	jq '.results[0].command += " --pages 19800"' \
		"$work/B/boot-$i/results.json" >"$work/D/boot-$i/results.json"
done
"$cmp" "$work/A" "$work/D" >"$work/d.txt"
unwrap "$work/d.txt" >"$work/d.one"
assert "other options on one side: the text warns, naming both" \
	grep -q '^warning: ksm-mprotect-split@walks: the boots ran different options (.* | .*--pages 19800)' "$work/d.one"
mkdir -p "$work/plain/boot-1" "$work/plain/boot-2" "$work/mixed"
for i in 1 2; do
	jq '.results |= map(del(.system.exact_clock))' \
		"$work/A/boot-$i/results.json" >"$work/plain/boot-$i/results.json"
done
"$cmp" "$work/plain" "$work/B" >"$work/plain.txt"
unwrap "$work/plain.txt" >"$work/plain.one"
assert "a side not all exact: the text says the floor is wall time's" \
	grep -q "Not all runs are exact" "$work/plain.one"
# one boot exact, the other not: not one side
cp -r "$work/plain/boot-1" "$work/A/boot-2" "$work/mixed/"
"$cmp" "$work/mixed" "$work/B" >"$work/mixed.txt" 2>"$work/mixed.err"
rc=$?
assert "a side whose boots ran on different clocks: refused (exit $rc), saying so" \
	bash -c "[ $rc = 2 ] && [ ! -s '$work/mixed.txt' ] &&
		 grep -q \"side A's boots ran on different clocks\" '$work/mixed.err'"
# and different kernels
mkdir -p "$work/kern"
cp -r "$work/A/boot-1" "$work/kern/"
mkdir -p "$work/kern/boot-2"
jq '.results[0].kernel.release = "6.1.0-99-amd64"' \
	"$work/A/boot-2/results.json" >"$work/kern/boot-2/results.json"
"$cmp" "$work/kern" "$work/B" >"$work/kern.txt" 2>"$work/kern.err"
rc=$?
assert "a side whose boots ran different kernels: refused (exit $rc), naming both" \
	bash -c "[ $rc = 2 ] && grep -q \"side A's boots ran different kernels (.*6.1.0-99-amd64\" '$work/kern.err'"
# only boot-N counts: boot-6.old, another run's, is not a boot of the side
cp -r "$work/kern/boot-2" "$work/A/boot-6.old"
"$cmp" "$work/A" "$work/B" >"$work/old.txt" 2>"$work/old.err"
rc=$?
assert "a boot-6.old beside the boots is not counted (exit $rc): the side's four boots compared" \
	bash -c "[ $rc = 0 ] && ! grep -q 'boot-6.old' '$work/old.txt' &&
		 grep -q '^A .*, 4 boot(s)' '$work/old.txt'"
rm -rf "$work/A/boot-6.old"
assert_same "nothing on the machine changed" "$before" "$(snapshot)"
finish
