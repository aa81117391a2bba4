# SPDX-License-Identifier: GPL-2.0
#
# Text helpers shared by scripts/compare and scripts/sweep (jq -L
# scripts/lib, include "text";): padding, fixed decimals, and words
# wrapped to a width for mail.

# right- and left-aligned in $w columns
def pad($w): tostring | if length >= $w then . else " " * ($w - length) + . end;
def rpad($w): tostring | if length >= $w then . else . + " " * ($w - length) end;

# a number with $d decimals, trailing zeros kept; a negative one with
# its sign, and one too large for its digits (1e15 or more) in jq's own
# exponent form, never cut in the middle
def fixed($d):
	if . < 0 then "-" + (-. | fixed($d))
	elif . >= 1e15 then tostring
	else (. * pow(10; $d) | round) as $n
	| if $d == 0 then ($n | tostring) else
	  ($n | tostring | if length <= $d then ("0" * ($d + 1 - length)) + .
			   else . end)
	  | .[:length - $d] + "." + .[length - $d:] end end;

# words into lines of at most $w columns, the next ones indented by $ind
def wrap($w; $ind): reduce (split(" ")[]) as $word ([""];
	if (.[-1] | length) == 0 then .[:-1] + [$word]
	elif (.[-1] | length) + 1 + ($word | length) > $w then
		. + [$ind + $word]
	else .[:-1] + [.[-1] + " " + $word] end) | .[];
