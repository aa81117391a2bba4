# SPDX-License-Identifier: GPL-2.0
#
# scripts/plot's picture of one reproducer: a column per run, a row per
# case, each measured interval a point on a log-scale time axis (with a
# fixed jitter so that equal ones stay apart) over its log2 bucket as a
# pale box, one colour per case, the threshold a dashed line. Every
# string comes in as an argument, never as program text: a results file
# received from someone is data (gnuplot -c strip.gp ARGS).
#   ARG1 png or svg        ARG2 the picture's file   ARG3 size "W,H"
#   ARG4 the title (reproducer and what the axis measures)
#   ARG5 the data files' prefix: PREFIX.0.dat .. PREFIX.N-1.dat, each
#        as plot.jq's strip_data writes it
#   ARG6 "N C XMIN XMAX L": columns, cases, the shared time axis (ms),
#        the longest case name's length (the left margin)
#   ARG7 the columns' titles, '|' between them
#   ARG8 the columns' thresholds (ms, or nothing), '|' between them
#   ARG9 the x axis' label
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
ncase = word(ARG6, 2) + 0
xmin = word(ARG6, 3) + 0
xmax = word(ARG6, 4) + 0
namelen = word(ARG6, 5) + 0

# field i (from 1) of a '|'-separated list
field(s, i) = i <= 1 ? (strstrt(s, "|") ? s[1:strstrt(s, "|") - 1] : s) \
	: (strstrt(s, "|") ? field(s[strstrt(s, "|") + 1:], i - 1) : "")

# a colour per case, the same in every column (ARGB: the boxes pale)
array point_colour[6] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", \
	"#E69F00", "#56B4E9"]
colour(i) = point_colour[(i % 6) + 1]


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
set yrange [-0.6:ncase - 0.4]
set grid xtics
set border 3
set xtics nomirror
set ytics nomirror
set key off
set multiplot title ARG4
set label 2 ARG9 at screen 0.5, screen 0.03 center

do for [col = 1:ncol] {
	dat = sprintf("%s.%d.dat", ARG5, col - 1)
	set title field(ARG7, col)
	set lmargin at screen left + (col - 1) * (pw + gap)
	set rmargin at screen left + (col - 1) * (pw + gap) + pw
	set bmargin at screen 0.12
	# room for a two-line column title beside another column
	set tmargin at screen (ncol > 1 ? 0.82 : 0.86)
	unset arrow
	unset label 1
	if (col > 1) {
		unset label 2
	}
	t = field(ARG8, col)
	if (t ne "") {
		set arrow 1 from t + 0, graph 0 to t + 0, graph 1 nohead \
			dt 2 lw 1.5 lc rgb "#C00000" front
		set label 1 "threshold ".t." ms" at t + 0, graph 1 \
			offset 0.5, -0.8 left tc rgb "#C00000" front
	}
	# the rows' names come from the data, in column 1 only: a name is
	# never the text of a command
	if (col > 1) {
		unset ytics
		set ytics 1 nomirror format ""
	}
	plot for [i = 0:ncase - 1] dat index (ncase + i) \
		using 1:2:3:4:5:6 with boxxyerror \
		fs transparent solid 0.18 noborder lc rgb colour(i), \
	     for [i = 0:ncase - 1] dat index i using 1:2 with points \
		pt 7 ps 0.45 lc rgb colour(i), \
	     dat index (2 * ncase) \
		using (NaN):1:ytic(col == 1 ? 2 : 3)
}
unset multiplot
