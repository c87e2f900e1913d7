# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of throughput.gp: the throughput of every run over its measured
# window, one per-interval sample per point, so warm-up effects, drift
# across rounds and noise are visible. The x axis has one unit per round;
# within a round each probe set's run goes from its window's start (left)
# to its end (right), so the runs of one round sit above one another, and a
# dashed line marks each probe set's median throughput. loadbench writes the
# script into a results directory as a header that sets the strings title,
# subtitle, footer (footer_lines lines), note (a warning such as emulated
# timings, or '') and op_names, followed by this file; gnuplot runs there and reads
# throughput.dat (index 0: set, name, tracer, throughput_median, runs,
# last_round; index 1: set, round, t, x, ops_per_s). It writes
# throughput.png, throughput.svg and, with cairo's PDF terminal,
# throughput.pdf.

if (!exists('title')) title = 'Throughput over time, every repetition'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''
if (!exists('op_names')) op_names = 'operations'

data = 'throughput.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe): black for the baseline, then one per probe set.
array colours[8] = [0x000000, 0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, \
	0xF0E442]
# The baseline is black; the probe sets take the seven colours in turn, then again with
# another point shape (circle, square, triangle, diamond), so that no two look alike.
colour(set) = set == 0 ? colours[1] : colours[(int(set) - 1) % 7 + 2]
array shapes[4] = [7, 5, 9, 13]
shape(set) = set == 0 ? 7 : shapes[((int(set) - 1) / 7) % 4 + 1]
text_colour = '#404040'
note_colour = '#D55E00'
grid_colour = '#D9D9D9'

# The probe sets (index 0): their names for the key, and the number of rounds.
undefine STATS_*
stats data index 0 using 1 nooutput
nsets = exists('STATS_records') ? int(STATS_records) : 0
array names[nsets > 0 ? nsets : 1]
array medians[nsets > 0 ? nsets : 1]
nrounds = 1
if (nsets > 0) {
	stats data index 0 using (names[int($1) + 1] = strcol(2), \
		medians[int($1) + 1] = $4, $6) nooutput
	nrounds = STATS_max >= 1 ? int(STATS_max) : 1
}
# Whether there are samples at all (results without them still render, with a note).
nsamples = 0
if (nsets > 0) {
	undefine STATS_*
	stats data index 1 using 5 nooutput
	nsamples = exists('STATS_records') ? STATS_records : 0
}
kops(t) = t >= 1e6 ? sprintf('%.2fM', t / 1e6) : sprintf('%.1fk', t / 1e3)
key_title(k) = nsets > 4 ? sprintf('%s (%s)', names[k], kops(medians[k])) : \
	sprintf('%s (median %s ops/s)', names[k], kops(medians[k]))

set encoding utf8
set termoption noenhanced
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror scale 0 font ''.fnt(1.44)
set ytics nomirror out scale 0.6 font ''.fnt(1.35)
set format y '%gk'
set grid ytics lt 1 lc rgb grid_colour lw 1
set ylabel sprintf('throughput (%s/s)', op_names) font ''.fnt(1.44) textcolor rgb text_colour \
	offset -1, 0
set xlabel 'each round: the measured window of every run, start to end' font ''.fnt(1.25) \
	textcolor rgb text_colour
set xrange [0 : nrounds]
set yrange [0 : *]
set xtics ()
do for [r = 1:nrounds] {
	set xtics add (sprintf('round %d', r) r - 0.5)
}
do for [r = 1:nrounds - 1] {
	set arrow from r, graph 0 to r, graph 1 nohead lc rgb '#A0A0A0' lw 1 dt 3
}
# Below the title, subtitle and note: the key, then the plot; the footer's first line at
# foot_top, its last near the bottom edge.
shift = note ne '' ? 0.04 : 0
foot_top = 0.03 + (footer_lines > 1 ? footer_lines - 1 : 0) * 0.024
# The key in up to three columns, filled column by column.
key_font = nsets > 6 ? fnt(1.15) : fnt(1.25)
key_cols = nsets <= 2 ? (nsets > 1 ? nsets : 1) : (nsets <= 6 ? 2 : 3)
key_rows = int(ceil(nsets / (key_cols * 1.0)))
set key at screen 0.11, screen 0.845 - shift left top vertical Left reverse samplen 2.5 \
	width (nsets > 4 ? -4 : 1) maxrows key_rows font key_font textcolor rgb text_colour

set lmargin at screen 0.11
set rmargin at screen 0.97
key_line = nsets > 6 ? 0.028 : 0.032
set tmargin at screen 0.845 - shift - (key_rows > 1 ? key_rows : 1) * key_line - 0.025
set bmargin at screen foot_top + 0.155

set label 1 title at screen 0.5, screen 0.945 center font ''.fnt(2.31)
set label 2 subtitle at screen 0.5, screen 0.885 center font ''.fnt(1.35) textcolor rgb text_colour
set label 3 footer at screen 0.012, screen foot_top left font ''.fnt(1.06) textcolor rgb text_colour
if (note ne '') set label 6 note at screen 0.5, screen 0.845 center font ''.fnt(1.35) \
	textcolor rgb note_colour
if (nsamples == 0) set label 5 'no throughput samples in throughput.dat' \
	at graph 0.5, graph 0.5 center font ''.fnt(1.73)

# One plot per set (the other sets' samples are NaN there: no point, no line), so that
# each has its colour, shape and key entry; the dashed medians without key entries.
draw = 'plot data index 0 using (0):($4 / 1000):(nrounds):(0):(colour($1)) with vectors ' . \
	'nohead dt 2 lw 1.5 lc rgb variable notitle, ' . \
	'for [s = 0:nsets - 1] data index 1 using 4:(int($1) == s ? $5 / 1000 : NaN) ' . \
	'with linespoints lw 2 pt shape(s) ps 0.8 lc rgb colour(s) title key_title(s + 1)'
if (nsamples == 0) draw = 'plot for [s = 0:nsets - 1] keyentry with linespoints lw 2 ' . \
	'pt shape(s) lc rgb colour(s) title key_title(s + 1), NaN notitle'
