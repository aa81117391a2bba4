#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A trigger is one file: the runner (common/core), the figures
# (common/figure) and the report writers (common/report) name no
# trigger, neither by its name nor by an RR_TRIG_ constant; every trigger
# file has its line in RR_TRIGGERS (trigger.h) and every line its file;
# --help lists every trigger. A figure is one file too: every fig_*.c
# has its line in RR_FIGURES (figure.h) and every line its file, and no
# report writer names a figure.
# Needs no root and changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

tdir=$top/common/trigger
mapfile -t names < <(sed -n 's/^\t\.name = "\([a-z-]*\)",$/\1/p' \
		     "$tdir"/trigger_*.c)
nfiles=$(ls "$tdir"/trigger_*.c | wc -l)
assert "each of the $nfiles trigger files names its trigger (${names[*]})" \
	[ ${#names[@]} = "$nfiles" ]

# list_vs_files LIST-NAMES... -- DIR PREFIX LIST: what is missing between
# a list's names and DIR/PREFIXNAME.c files, one line each.
list_vs_files() {
	local dir=$1 prefix=$2 list=$3 s f

	shift 3
	for s in "$@"; do
		[ -e "$dir/$prefix$s.c" ] || echo "$prefix$s.c"
	done
	for f in "$dir/$prefix"*.c; do
		s=$(basename "$f" .c)
		printf '%s\n' "$@" | grep -qx "${s#"$prefix"}" ||
			echo "$list line for $s"
	done
}

# X(ID, sym) lines of RR_TRIGGERS, and the files they point at
mapfile -t syms < <(sed -n 's/^\tX([A-Z_]*, \([a-z_]*\)).*/\1/p' \
		    "$tdir/trigger.h")
mapfile -t missing < <(list_vs_files "$tdir" trigger_ RR_TRIGGERS "${syms[@]}")
assert "RR_TRIGGERS has a line per trigger file and a file per line${missing:+ (missing: ${missing[*]})}" \
	[ ${#syms[@]} = "$nfiles" -a ${#missing[@]} = 0 ]

# check FILES...: the lines that name a trigger or an RR_TRIG_ constant
named() {
	local re

	re="RR_TRIG_[A-Z_]+|rr_trigger_($(IFS='|'; echo "${syms[*]}"))\\b"
	re="$re|\\b($(IFS='|'; echo "${names[*]}"))\\b"
	grep -n -i -E -H "$re" "$@"
}
# (an include names a module of mm/, as core/undo.c's do: not a trigger)
mapfile -t hits < <(cd "$top" && named common/core/*.[ch] \
		    common/figure/*.[ch] common/report/*.[ch] |
		    grep -v ':#include "')
if [ ${#hits[@]} -eq 0 ]; then
	ok "the runner, the figures and the report writers name no trigger"
else
	not_ok "the runner, the figures and the report writers name no trigger" \
		"${hits[@]}"
fi
# the check itself: a writer that branched on a trigger is caught
printf 'if (r->trigger == RR_TRIG_PRESSURE)\n\t/* Reclaim backs off */\n' \
	>"$work/fake.c"
assert "a branch on RR_TRIG_PRESSURE, or a trigger's name, is caught" \
	[ "$(named "$work/fake.c" | wc -l)" = 2 ]

"$top/build/bin/ksm-mprotect-split" --help >"$work/help" 2>&1
missing=()
for name in "${names[@]}"; do
	tr -s ' \n' ' ' <"$work/help" | grep -q -- "--trigger NAME .*$name (" ||
		missing+=("$name")
done
assert "--help describes every trigger under --trigger${missing:+ (not: ${missing[*]})}" \
	[ ${#missing[@]} = 0 ]
# the choices close --trigger's help: none cut off by a long help
choices=$(tr -s ' \n' ' ' <"$work/help" |
	  sed -n 's/.*--trigger NAME .*(default auto); one of \([a-z, -]*\) --.*/\1/p' |
	  tr -d ' ' | tr ',' '\n' | sort | tr '\n' ' ')
want=$(printf '%s\n' auto "${names[@]}" | sort | tr '\n' ' ')
assert "--trigger's help ends with every choice ($choices)" [ "$choices" = "$want" ]

# The figures: X(name) lines of RR_FIGURES and their files
fdir=$top/common/figure
mapfile -t figs < <(sed -n 's/^\tX(\([a-z_]*\)).*/\1/p' "$fdir/figure.h")
nfig=$(ls "$fdir"/fig_*.c | wc -l)
mapfile -t missing < <(list_vs_files "$fdir" fig_ RR_FIGURES "${figs[@]}")
assert "RR_FIGURES has a line per figure file and a file per line (${#figs[@]})${missing:+ (missing: ${missing[*]})}" \
	[ ${#figs[@]} = "$nfig" -a "$nfig" -ge 10 -a ${#missing[@]} = 0 ]
mapfile -t hits < <(cd "$top" && grep -n -H -E 'rr_figure_[a-z]' \
		    common/report/*.[ch])
assert "the report writers name no figure${hits:+ (${hits[*]})}" \
	[ ${#hits[@]} = 0 ]
finish
