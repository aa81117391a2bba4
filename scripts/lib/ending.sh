# SPDX-License-Identifier: GPL-2.0
#
# How a run ends, the same for scripts/run-all and scripts/vm-run: its
# pictures drawn beside its report, then the answer last on stdout: the
# report's head (the summary; the whole report when asked), the files'
# paths, the pictures and how to compare with another kernel. Sourced by
# both; $top is the suite's top directory.
#
#   draw_plots DIR [RUN...]
#                        DIR/plots/ from DIR/results.json, or from the
#                        RUNs side by side (scripts/plot, where gnuplot
#                        is installed); sets plots to what the ending
#                        says of them
#   run_ending DIR [all] the ending; "all": the whole report.txt

draw_plots() {
	local d=$1 n rc=0 err

	shift
	[ $# -gt 0 ] || set -- "$d"
	plots="none: gnuplot is missing (scripts/install-deps --plot)"
	if [ ! -x "$top/scripts/plot" ]; then
		plots="none: no scripts/plot here"
		return 0
	fi
	command -v gnuplot >/dev/null || return 0
	# the run's own plots/ (trust.sh: a link planted there is removed)
	if ! sub_dir "$d" plots || ! err=$(new_beside "$d/plots.err"); then
		plots="none: cannot write to $d"
		return 0
	fi
	"$top/scripts/plot" --out "$d/plots" "$@" >/dev/null 2>"$err" ||
		rc=$?
	case $rc in
	0)
		rm -f "$err"
		n=$(ls "$d"/plots/*.png 2>/dev/null | grep -vc '/overview.png$')
		plots="$d/plots/overview.png ($n more, NAME.png, each with .svg)" ;;
	4)
		rm -f "$err"
		plots="none: no reproducer measured anything" ;;
	*)
		place_over "$err" "$d/plots.err"
		plots="none: scripts/plot failed (see $d/plots.err)" ;;
	esac
}

run_ending() {
	local d=$1

	if [ "${2:-}" = all ]; then
		cat "$d/report.txt"
	else
		sed -n '/^-----/q; p' "$d/report.txt"
	fi
	echo "Report:  $d/report.txt (every figure, how it was measured, the undone changes)"
	echo "Results: $d/results.json, $d/results.ktap"
	echo "Plots:   ${plots:-none}"
	echo "Compare: scripts/compare $d OTHER-RUN (a run of the same preset on another kernel; --plots DIR draws both)"
}
