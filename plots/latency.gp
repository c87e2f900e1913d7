# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of latency.gp: two panels side by side over the same quantiles
# (p50, p90, p99, p99.9, p99.99, max, evenly spaced as "nines"). Left: each
# probe set's latency per operation at each quantile on a log axis, the
# baseline in black: how far a set lifts the curve, and where (the median or
# the tail). Right: how many times its untraced latency each set's is at
# each quantile, on a log axis (a set that adds 30% and one that adds 100x
# read on the same panel), with its 95% CI as whiskers (traced over
# untraced, per round or per unit of alternation); none for the max, nor
# where the rounds or slices held too few operations. loadbench writes the script into a results directory as a
# header that sets the strings title, subtitle, footer (footer_lines lines),
# note and op_name, nsets and the array set_name[1..nsets] (the baseline
# first), followed by this file; gnuplot runs there and reads latency.dat
# (one block per set in that order; columns: name, q, label, us, added_us,
# added_lo_us, added_hi_us, ratio, ratio_lo, ratio_hi). It writes latency.png, latency.svg and, with
# cairo's PDF terminal, latency.pdf.

if (!exists('title')) title = 'Latency per operation, traced and untraced'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''
if (!exists('op_name')) op_name = 'operation'
if (!exists('nsets')) nsets = 0

data = 'latency.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe); the baseline black.
array colours[7] = ['#E69F00', '#56B4E9', '#009E73', '#0072B2', '#D55E00', '#CC79A7', '#F0E442']
set_colour(i) = i == 1 ? '#000000' : colours[(i - 2) % 7 + 1]
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'
max2(a, b) = a > b ? a : b

foot_top = 0.03 + (max2(footer_lines, 1) - 1) * 0.024
top = note ne '' ? 0.74 : 0.78
bottom = foot_top + 0.15
key_cols = nsets > 8 ? 3 : (nsets > 4 ? 2 : 1)
# Which panels have anything to draw (an interrupted run may have no ratio, or no quantile).
undefine STATS_*
stats data using 4 nooutput
lat_any = exists('STATS_max')
undefine STATS_*
stats data using 8 nooutput
ratio_any = exists('STATS_max')

set encoding utf8
set termoption noenhanced
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror out scale 0.6 font ''.fnt(1.15) \
	('p50' 0, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4, 'max' 5)
set ytics nomirror out scale 0.6 font ''.fnt(1.15)
set grid xtics ytics lt 1 lc rgb grid_colour lw 1
set xrange [-0.3 : 5.3]
set tmargin at screen top
set bmargin at screen bottom
set key top left reverse Left samplen 2 font ''.fnt(1.06) maxrows ceil(nsets / (key_cols * 1.0)) \
	textcolor rgb text_colour

labels = 'set label 1 title at screen 0.5, screen 0.945 center font "' . fnt(2.29) . '"; ' . \
	'set label 2 subtitle at screen 0.5, screen 0.885 center font "' . fnt(1.33) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 3 footer at screen 0.012, screen foot_top left font "' . fnt(1.05) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 4 sprintf("latency: first send of a request to its matching reply, per %s; ' . \
	'a quantile is drawn where 10 %ss or more lie beyond it", op_name, op_name) ' . \
	'at screen 0.5, screen foot_top + 0.05 center font "' . fnt(1.14) . '" textcolor rgb text_colour; ' . \
	'set label 6 note at screen 0.5, screen 0.845 center font "' . fnt(1.33) . '" ' . \
	'textcolor rgb note_colour'

# The key is switched on again each time: the right panel switched it off for the terminal before.
left = 'set key on; set lmargin at screen 0.08; set rmargin at screen 0.49; set logscale y; ' . \
	'set format y "%g"; set ylabel "latency (us, log scale)" font "' . fnt(1.24) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set title "latency at each quantile" font "' . fnt(1.52) . '" textcolor rgb text_colour; ' . \
	(lat_any ? 'plot for [i=1:nsets] data index (i - 1) using 2:4 with linespoints ' . \
	'lw (i == 1 ? 3 : 2) pt 7 ps 0.8 lc rgb set_colour(i) title set_name[i]' : \
	'set yrange [1 : 10]; set label 7 "no quantile to draw" at graph 0.5, graph 0.5 ' . \
	'center font "' . fnt(1.33) . '"; plot NaN notitle; unset label 7; set autoscale y')
right = 'unset label 1; unset label 2; unset label 3; unset label 4; unset label 6; ' . \
	'set lmargin at screen 0.58; set rmargin at screen 0.97; unset logscale y; ' . \
	'set logscale y; set ylabel "traced / untraced (log scale), 95% CI" font "' . fnt(1.24) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb text_colour lw 1; ' . \
	'set title "how much tracing multiplied it" font "' . fnt(1.52) . '" textcolor rgb text_colour; ' . \
	'set key off; ' . \
	(ratio_any ? 'plot for [i=2:nsets] data index (i - 1) using ' . \
	'($2 + (i - 1 - nsets / 2.0) * 0.05):8:(valid(9) ? $9 : $8):(valid(10) ? $10 : $8) ' . \
	'with yerrorlines lw 2 pt 7 ps 0.8 ' . \
	'lc rgb set_colour(i) notitle' : \
	'set yrange [0.5 : 2]; set label 7 "no ratio: too few operations per round or unit" ' . \
	'at graph 0.5, graph 0.5 center font "' . fnt(1.33) . '"; plot NaN notitle; unset label 7')
draw = labels . '; set multiplot; ' . left . '; ' . right . '; unset multiplot'
if (nsets < 2) draw = labels . '; ' . left
