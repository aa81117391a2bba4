# SPDX-License-Identifier: GPL-2.0
#
# scripts/plot's overview: a row per reproducer, a column per run, the
# subject case's largest figure (filled), each control's largest
# (hollow) and the threshold (a bar) on one log-scale time axis; a row
# that measured nothing gives its verdict (skip) in grey. Every
# string comes in as an argument, never as program text (gnuplot -c
# overview.gp ARGS).
#   ARG1 png or svg        ARG2 the picture's file   ARG3 size "W,H"
#   ARG4 the title
#   ARG5 the data files' prefix: PREFIX.0.dat .. PREFIX.N-1.dat, each
#        as plot.jq's overview_data writes it
#   ARG6 "N R XMIN XMAX L": columns, rows, the shared time axis (ms),
#        the longest reproducer name's length (the left margin)
#   ARG7 the columns' titles, '|' between them
#   ARG8 the x axis' label
w = ARG3[1:strstrt(ARG3, ",") - 1] + 0
h = ARG3[strstrt(ARG3, ",") + 1:] + 0
if (ARG1 eq "png") {
	set terminal pngcairo size w, h font ",9" noenhanced
} else {
	set terminal svg size w, h font ",9" noenhanced
}
set termoption noenhanced
set output ARG2
ncol = word(ARG6, 1) + 0
nrow = word(ARG6, 2) + 0
xmin = word(ARG6, 3) + 0
xmax = word(ARG6, 4) + 0
namelen = word(ARG6, 5) + 0

field(s, i) = i <= 1 ? (strstrt(s, "|") ? s[1:strstrt(s, "|") - 1] : s) \
	: (strstrt(s, "|") ? field(s[strstrt(s, "|") + 1:], i - 1) : "")


# The layout by hand: the names' margin once on the left, the columns
# beside it, the axis' label once at the bottom, so that two columns
# still read at 640 pixels.
left = (namelen * 6.5 + 24) / w
left = left > 0.35 ? 0.35 : left
gap = 0.07
pw = (0.97 - left - (ncol - 1) * gap) / ncol
# a tick a decade, or every second or third where they would crowd
decades = log10(xmax / xmin)
xstep = decades * 38 > pw * w ? (decades * 19 > pw * w ? 1000 : 100) : 10
set logscale x
set xtics xstep
set xrange [xmin:xmax]
set format x "%g"
set yrange [-0.7:nrow - 0.3]
set grid xtics ytics
set border 3
set xtics nomirror
set ytics nomirror
set key off
set multiplot title ARG4
set label 2 ARG8 at screen 0.5, screen 0.075 center
set label 3 "filled: the subject's largest   hollow: each control's   " \
	."bar: the threshold" at screen 0.5, screen 0.03 center

do for [col = 1:ncol] {
	dat = sprintf("%s.%d.dat", ARG5, col - 1)
	set title field(ARG7, col)
	set lmargin at screen left + (col - 1) * (pw + gap)
	set rmargin at screen left + (col - 1) * (pw + gap) + pw
	set bmargin at screen 0.15
	# room for a two-line column title beside another column
	set tmargin at screen (ncol > 1 ? 0.82 : 0.86)
	# the axis' label and the legend once, with the first column
	if (col > 1) {
		unset label 2
		unset label 3
	}
	# the rows' names come from the data, in column 1 only
	if (col > 1) {
		unset ytics
		set ytics 1 nomirror format ""
	}
	plot dat index 2 using 1:2 with points pt "|" ps 1.6 \
		lc rgb "#C00000", \
	     dat index 1 using 1:2 with points pt 6 ps 1.1 \
		lc rgb "#555555", \
	     dat index 0 using 1:2 with points pt 7 ps 1.1 \
		lc rgb "#0072B2", \
	     dat index 3 using (NaN):1:ytic(col == 1 ? 2 : 3) \
		notitle, \
	     dat index 4 using (xmin * 1.3):1:2 with labels left \
		tc rgb "#777777" notitle
}
unset multiplot
