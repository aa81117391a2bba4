# SPDX-License-Identifier: GPL-2.0
#
# scripts/sweep's picture: each case's max against the swept value. Every
# string comes in as an argument, never as program text: a sweep.json
# received from someone is data (gnuplot -c sweep.gp ARGS).
#   ARG1 png or svg          ARG2 the picture's file
#   ARG3 the data file: a row per value (the value, each case's max)
#   ARG4 the title           ARG5 the x axis's label
#   ARG6 the cases' names, blank-separated
#   ARG7 the values, blank-separated (the x tics)
if (ARG1 eq "png") {
	set terminal pngcairo size 900,600
} else {
	set terminal svg size 900,600
}
set output ARG2
set logscale xy
set grid
set autoscale xfix
set xtics () rotate by -30
do for [i=1:words(ARG7)] {
	set xtics add (word(ARG7, i) word(ARG7, i) + 0)
}
set offsets graph 0.05, graph 0.05, 0, 0
set title ARG4 noenhanced
set xlabel ARG5 noenhanced
set ylabel 'ms (log scale)'
set key left top noenhanced
plot for [i=1:words(ARG6)] ARG3 using 1:(column(i + 1)) \
	with linespoints title word(ARG6, i) . ' max'
