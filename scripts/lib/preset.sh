# SPDX-License-Identifier: GPL-2.0
#
# A preset's option lines for one unit (NAME or NAME@VARIANT): the global
# lines, then NAME's section's, then the variant's, one word a line (#
# starts a comment). Sourced by scripts/run-all and tests/lib/chaos.sh.

# preset_words FILE UNIT
preset_words() {
	awk -v unit="$2" '
		BEGIN { name = unit; sub(/@.*/, "", name) }
		{ sub(/#.*/, "") }
		/^[ \t]*$/ { next }
		/^[ \t]*\[.*\][ \t]*$/ { sec = $0; gsub(/[][ \t]/, "", sec); next }
		sec == "" || sec == name || sec == unit { print }
	' "$1" | tr -s ' \t' '\n' | grep -v '^$'
}
