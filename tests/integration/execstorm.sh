#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exec-storm on this kernel, whatever the verdict: the victim exec()s
# this binary with the library's copy preloaded (each exec()ed process
# checks the copy is mapped, or the call fails), its rate of exec()s
# with no trigger and during the firings is measured in every case and
# said in the three formats, the exec()ed processes are all reaped, and
# the machine is as before.
. "$(dirname "$0")/../lib/integration.sh"

name=exec-storm
before=$(snapshot)
"$bin/$name" --runs 1 --procs 16 --victim-alone 300 --format json \
	--out "$work/e" >"$work/e.json" 2>"$work/e.err"
rc=$?
after=$(snapshot)
j=$work/e.json
assert_verdict "a verdict from measured figures" "$j" $rc
assert_jq "the victim timed exec()s, none failed (the copy was preloaded each time)" \
	"$j" ".victim.call == \"exec()\" and (.cases | all(.victim_stall_ms.count > 0 and .victim_errors == 0))"
assert_jq "its rate with no trigger and during the firings, in every case" \
	"$j" ".victim.alone_ms == 300 and (.cases | all(.victim_alone_ms.count > 0 and .victim_rate.alone_per_s > 0 and .victim_rate.during_firings_per_s > 0 and .victim_rate.alone_s >= 0.29))"
assert_jq "the rate is the calls over the seconds" "$j" \
	".cases | all(((.victim_alone_ms.count / .victim_rate.alone_s) - .victim_rate.alone_per_s | fabs) < 0.01 * .victim_rate.alone_per_s + 0.01)"
assert_jq "the library's copy and the mappers are described" "$j" \
	".pattern.procs == 16 and .pattern.library_bytes > 0 and (.pattern.library | test(\"[.]so\"))"
assert "the text report's Rate line, for each case" \
	bash -c "tr -s ' \n' ' ' <'$work/e/$name.txt' | grep -Eq 'Rate many: [0-9.]+ exec\(\) calls/s with no trigger .* one: [0-9.]+ exec\(\) calls/s'"
assert "KTAP says the rate of each case" \
	bash -c "[ \$(grep -c '^    # [a-z]*: victim rate: [0-9.]* exec() calls/s' '$work/e/$name.ktap') = 2 ]"
assert_formats "text, KTAP and JSON agree" "$work/e" $name
assert "no exec()ed process or member is left" \
	bash -c "! pgrep -x $name >/dev/null"
assert_same "the machine is as before" "$before" "$after"
finish
