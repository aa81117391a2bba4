#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tests' own KTAP helpers (tests/lib/integration.sh): assert_jq
# judged each at once (RR_TEST_JQ_NOW=1) and together at jq_flush give
# the same lines, numbers and messages, as jq -e judges (an output, the
# last neither false nor null; an error or no output fails); a result
# line of another kind among them keeps its place; --arg and --argjson
# bind for their own assertion only; a batch that does not parse is
# judged assertion by assertion; an assertion on the file after it was
# rewritten judges what it holds then, one on a missing file fails.
# Together, the first part takes one jq. Needs no root and changes
# nothing.
. "$(dirname "$0")/../lib/integration.sh"

f=$work/t.json
# the child prints its own KTAP: the same assertions, batched or not
cat >"$work/child.sh" <<CHILD
. "$top/tests/lib/integration.sh"
echo '{"a": 1, "b": [1, 2, 3], "s": "x"}' >"$f"
assert_jq "true" "$f" '.a == 1'
assert_jq "false" "$f" '.a == 2'
assert_jq "a def inside" "$f" 'def g: .a + 1; g == 2'
assert_jq "an error" "$f" '.s | .x'
assert_jq "no output" "$f" 'empty'
assert_jq "several outputs, the last true" "$f" '.b[] | . == 3'
assert_jq "several outputs, the last false" "$f" '.b[] | . == 1'
assert_jq "a comment" "$f" '# the line ends here
	.a == 1'
assert "a plain assert between" true
assert_jq "after it" "$f" '.b | length == 3'
assert_jq "--arg" "$f" '.a == (\$x | tonumber)' --arg x 1
assert_jq "--arg false" "$f" '.a == (\$x | tonumber)' --arg x 2
assert_jq "--argjson, the same name bound again" "$f" '.b == \$x' --argjson x '[1, 2, 3]'
assert_jq "null" "$f" 'null'
assert_jq "another option: judged at once" "$f" '.a' --exit-status
[ "\$1" = batch ] && jq_flush
echo flushed >>"$work/jq.log"
assert_jq "a syntax error" "$f" '.a =='
assert_jq "true after it" "$f" '.a == 1'
echo '{"a": 2}' >"$f"
assert_jq "the file rewritten: what it holds now" "$f" '.a == 2'
assert_jq "a missing file" "$f.none" '.a == 2'
finish
CHILD
RR_TEST_JQ_NOW=1 bash "$work/child.sh" one >"$work/one.out" 2>&1
# the batch's jq calls counted: a jq first in PATH that logs them
mkdir -p "$work/bin"
printf '#!/bin/sh\necho jq >>"%s"\nexec %s "$@"\n' "$work/jq.log" \
	"$(command -v jq)" >"$work/bin/jq"
chmod +x "$work/bin/jq"
: >"$work/jq.log"
PATH=$work/bin:$PATH bash "$work/child.sh" batch >"$work/batch.out" 2>&1
assert "batched, each assertion keeps its line, number and message" \
	cmp -s "$work/one.out" "$work/batch.out"
got=$(grep -E '^(not )?ok ' "$work/batch.out" | sed 's/^\(not ok\|ok\) \([0-9]*\) .*/\1 \2/' |
      paste -sd, -)
assert "as jq -e judges: ok 1, 3, 6, 8-11, 13, 15, 17, 18; not ok 2, 4, 5, 7, 12, 14, 16, 19 ($got)" \
	[ "$got" = "ok 1,not ok 2,ok 3,not ok 4,not ok 5,ok 6,not ok 7,ok 8,ok 9,ok 10,ok 11,not ok 12,ok 13,not ok 14,ok 15,not ok 16,ok 17,ok 18,not ok 19" ]
assert "the plan counts them all" grep -qx '1\.\.19' "$work/batch.out"
# the first flush's 14 assertions: one jq, two more for each that
# failed (2, 4, 5, 7, 12, 14: judge and message), one for the option's
# judged at once: 14, where one by one takes 20
n=$(awk '/^flushed/ { exit } { n++ } END { print n + 0 }' "$work/jq.log")
assert "14 assertions judged with 14 jq at most ($n), not 20" \
	[ "$n" -le 14 ]
finish
