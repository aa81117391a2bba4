# SPDX-License-Identifier: GPL-2.0
#
# scripts/plot's picture of one reproducer's log2 histograms. Every
# string comes in as an argument, never as program text: a results file
# received from someone is data (gnuplot -c hist.gp ARGS).
#   ARG1 png or svg          ARG2 the picture's file
#   ARG3 the data file: a block per case (bucket lower bound in ms, count)
#   ARG4 the title           ARG5 the cases' names, blank-separated
#   ARG6 each named case's block in ARG3 (0, 1, ...), blank-separated
if (ARG1 eq "png") {
	set terminal pngcairo size 900,600
} else {
	set terminal svg size 900,600
}
set output ARG2
set logscale xy
set grid
set yrange [0.8:*]
set title ARG4 noenhanced
set xlabel 'interval, ms (bucket lower bound, log scale)'
set ylabel 'intervals (log scale)'
set key right top noenhanced
plot for [i=1:words(ARG5)] ARG3 index (word(ARG6, i) + 0) using 1:2 \
	with linespoints title word(ARG5, i)
