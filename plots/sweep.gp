# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of sweep.gp: a sweep (--sweep KEY=V1,V2,...) in two panels. Left:
# each probe set's added time per operation (us, with the 95% CI from its
# slowdown's) against its events per operation, one point per value swept,
# and the least-squares line through them, whose slope (in the key, ns per
# event) is the marginal cost of one event. Right: each set's slowdown (%)
# against the swept value, with its CI. loadbench writes the script into the
# sweep's directory as a header that sets title, key_name, nsets and the
# arrays set_name, slope (us per event) and icpt (us per operation),
# followed by this file; gnuplot runs there and reads sweep.dat (one block
# per set; columns: name, value, epo, added_us, added_lo_us, added_hi_us,
# slowdown_pct, slowdown_lo, slowdown_hi). It writes sweep.png, sweep.svg
# and, with cairo's PDF terminal, sweep.pdf.

if (!exists('title')) title = 'What each event costs, from a sweep'
if (!exists('key_name')) key_name = 'value'
if (!exists('nsets')) nsets = 0

data = 'sweep.dat'
set datafile missing 'NaN'

array colours[7] = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000']
set_colour(i) = colours[(i - 1) % 7 + 1]
text_colour = '#404040'
grid_colour = '#D9D9D9'

set encoding utf8
set termoption noenhanced
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror out scale 0.6 font ''.fnt(1.15)
set ytics nomirror out scale 0.6 font ''.fnt(1.15)
set grid xtics ytics lt 1 lc rgb grid_colour lw 1
set tmargin at screen 0.84
set bmargin at screen 0.2
set key outside bottom center horizontal maxcols 2 font ''.fnt(1.15) textcolor rgb text_colour \
	samplen 2

labels = 'set label 1 title at screen 0.5, screen 0.95 center font "' . fnt(2.10) . '"'
left = 'set lmargin at screen 0.08; set rmargin at screen 0.48; ' . \
	'set xlabel "events per operation" font "' . fnt(1.24) . '" textcolor rgb text_colour; ' . \
	'set ylabel "added time per operation (us)" font "' . fnt(1.24) . '" textcolor rgb text_colour; ' . \
	'set title "added time against events: the slope is the cost of one" font "' . fnt(1.43) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set xrange [0 : *]; set yrange [* : *]; ' . \
	'plot for [i=1:nsets] data index (i - 1) using 3:4:5:6 with yerrorbars pt 7 ps 1 ' . \
	'lc rgb set_colour(i) title set_name[i], ' . \
	'for [i=1:nsets] icpt[i] + slope[i] * x with lines lw 2 lc rgb set_colour(i) notitle'
right = 'unset label 1; set lmargin at screen 0.58; set rmargin at screen 0.97; ' . \
	'set xlabel key_name font "' . fnt(1.24) . '" textcolor rgb text_colour; ' . \
	'set ylabel "slowdown (%), 95% CI" font "' . fnt(1.24) . '" textcolor rgb text_colour; ' . \
	'set title "slowdown against " . key_name font "' . fnt(1.43) . '" textcolor rgb text_colour; ' . \
	'set xrange [* : *]; set key off; ' . \
	'plot for [i=1:nsets] data index (i - 1) using 2:7:8:9 with yerrorlines lw 2 pt 7 ' . \
	'ps 1 lc rgb set_colour(i) notitle'
draw = labels . '; set multiplot; ' . left . '; ' . right . '; unset multiplot'
if (nsets < 1) draw = labels . '; set label 5 "no probe sets in sweep.dat" at screen 0.5, ' . \
	'screen 0.5 center font "' . fnt(1.71) . '"; unset xtics; unset ytics; set xrange [0 : 1]; ' . \
	'set yrange [0 : 1]; plot NaN notitle'
