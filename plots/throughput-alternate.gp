# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of throughput.gp under --method alternate: the throughput of
# every slice of every alternation, one point per slice, so that the on/off
# contrast, drift over the alternation, the noise and the units left out are
# visible. The x axis has one unit per alternation (a probe set alone, or a
# compare-with pair with its base), from its first slice (left) to its last
# (right). Slices with a set's probes on are filled points in the set's
# colour; slices with every probe off are hollow points in the colour of the
# set whose alternation it is; a cross marks the slices of a unit left out of
# the statistics. Dashed lines: each set's median with its probes on (in its
# colour) and the baseline's plain run before the alternation (black).
# loadbench writes the script into a results directory as a header that sets
# the strings title, subtitle, footer (footer_lines lines), note (a warning
# such as emulated timings, or '') and op_names, followed by this file;
# gnuplot runs there and reads throughput.dat (index 0: set, name, tracer,
# throughput_median, runs, last_round; index 1: slot, set, state, unit, t, x,
# ops_per_s, dropped; index 2: slot, set, ops_per_s; index 3: slot, label,
# seconds). It writes throughput.png, throughput.svg and, with cairo's PDF
# terminal, throughput.pdf.

if (!exists('title')) title = 'Throughput over time, the probes switched on and off'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''
if (!exists('op_names')) op_names = 'operations'

data = 'throughput.dat'
set datafile missing 'NaN'

# As in the runs figure: Okabe-Ito colours, black for the baseline, then one per probe set,
# and another point shape once the seven colours have been used.
array colours[8] = [0x000000, 0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, \
	0xF0E442]
colour(set) = set == 0 ? colours[1] : colours[(int(set) - 1) % 7 + 2]
# Filled shapes for the probes on, the same shapes hollow for all off.
array filled[4] = [7, 5, 9, 13]
array hollow[4] = [6, 4, 8, 12]
shape_on(set) = filled[((int(set) - 1) / 7) % 4 + 1]
shape_off(set) = hollow[((int(set) - 1) / 7) % 4 + 1]
text_colour = '#404040'
note_colour = '#D55E00'
grid_colour = '#D9D9D9'

# The sets (index 0): their names and medians for the key.
undefine STATS_*
stats data index 0 using 1 nooutput
nsets = exists('STATS_records') ? int(STATS_records) : 0
array names[nsets > 0 ? nsets : 1]
array medians[nsets > 0 ? nsets : 1]
# A set without a median (its alternation never ran: NaN) is a missing row for a stats that
# reads that column: names are read apart, and every entry has a value first.
do for [k = 1:|names|] {
	names[k] = '?'
	medians[k] = NaN
}
if (nsets > 0) {
	stats data index 0 using (names[int($1) + 1] = strcol(2), 0) nooutput
	stats data index 0 using (medians[int($1) + 1] = $4, 0) nooutput
}
# The alternations (index 3): one slot each, with the names of the sets it switched on.
nslots = 0
if (nsets > 0) {
	undefine STATS_*
	stats data index 3 using 1 nooutput
	nslots = exists('STATS_records') ? int(STATS_records) : 0
}
array labels[nslots > 0 ? nslots : 1]
if (nslots > 0) {
	stats data index 3 using (labels[int($1) + 1] = strcol(2), 0) nooutput
}
# Whether there are slices with a number at all, and any dropped.
nslices = 0
ndropped = 0
if (nslots > 0) {
	undefine STATS_*
	stats data index 1 using 7 nooutput
	nslices = exists('STATS_records') ? STATS_records : 0
	undefine STATS_*
	stats data index 1 using 8 nooutput
	ndropped = exists('STATS_sum') ? STATS_sum : 0
}
kops(t) = t >= 1e6 ? sprintf('%.2fM', t / 1e6) : sprintf('%.1fk', t / 1e3)
key_title(k) = sprintf('%s on (median %s ops/s)', names[k], kops(medians[k]))
# A tic's label is a format for the tic's value: a set's name in it has each % doubled.
tic_text(s) = strstrt(s, '%') > 0 ? \
	s[1:strstrt(s, '%')] . '%' . tic_text(s[strstrt(s, '%') + 1:]) : s

set encoding utf8
set termoption noenhanced
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
xtics_font = nslots > 3 ? fnt(1.15) : fnt(1.44)
set xtics nomirror scale 0 font xtics_font
set ytics nomirror out scale 0.6 font ''.fnt(1.35)
set format y '%gk'
set grid ytics lt 1 lc rgb grid_colour lw 1
set ylabel sprintf('throughput (%s/s)', op_names) font ''.fnt(1.44) textcolor rgb text_colour \
	offset -1, 0
set xlabel 'each alternation: its slices in order, first to last' font ''.fnt(1.25) \
	textcolor rgb text_colour
set xrange [0 : nslots > 0 ? nslots : 1]
set yrange [0 : *]
set xtics ()
# A slot's label that would run into its neighbours' (about 9 px a character at 15 points,
# 7.5 at 12, in the plot's ~1000 px) is put one set name a line.
label_lines = 1
do for [k = 1:nslots] {
	l = labels[k]
	if (strlen(l) * (nslots > 3 ? 7.5 : 9) > 1000.0 / nslots) {
		nl = 1
		while (strstrt(l, ' / ') > 0) {
			i = strstrt(l, ' / ')
			l = l[1:i - 1] . "\n" . l[i + 3:]
			nl = nl + 1
		}
		label_lines = nl > label_lines ? nl : label_lines
	}
	set xtics add (tic_text(l) k - 0.5)
}
do for [k = 1:nslots - 1] {
	set arrow from k, graph 0 to k, graph 1 nohead lc rgb '#A0A0A0' lw 1 dt 3
}
# Below the title, subtitle and note: the key, then the plot; the footer's first line at
# foot_top, its last near the bottom edge.
shift = note ne '' ? 0.04 : 0
foot_top = 0.03 + (footer_lines > 1 ? footer_lines - 1 : 0) * 0.024
# The key: one entry per probe set, then off, dropped and the plain run, in up to three
# columns filled column by column.
nkeys = (nsets > 1 ? nsets - 1 : 0) + 2 + (ndropped > 0 ? 1 : 0)
key_font = nkeys > 6 ? fnt(1.06) : fnt(1.25)
key_cols = nkeys <= 2 ? nkeys : (nkeys <= 6 ? 2 : 3)
key_rows = int(ceil(nkeys / (key_cols * 1.0)))
# In three columns the long titles would push the third out of the picture.
off_title = key_cols > 2 ? 'all probes off (hollow)' : 'all probes off (hollow, colour of the alternation)'
plain_title = key_cols > 2 ? 'plain run before' : 'baseline: the plain run before'
set key at screen 0.11, screen 0.845 - shift left top vertical Left reverse samplen 2.5 \
	width (nkeys > 4 ? -4 : 1) maxrows key_rows font key_font textcolor rgb text_colour

set lmargin at screen 0.11
set rmargin at screen 0.97
key_line = nkeys > 6 ? 0.028 : 0.032
set tmargin at screen 0.845 - shift - (key_rows > 1 ? key_rows : 1) * key_line - 0.025
set bmargin at screen foot_top + 0.155 + (label_lines - 1) * 0.03
set xlabel offset 0, -(label_lines - 1) * 1.2

set label 1 title at screen 0.5, screen 0.945 center font ''.fnt(2.31)
set label 2 subtitle at screen 0.5, screen 0.885 center font ''.fnt(1.35) textcolor rgb text_colour
set label 3 footer at screen 0.012, screen foot_top left font ''.fnt(1.06) textcolor rgb text_colour
if (note ne '') set label 6 note at screen 0.5, screen 0.845 center font ''.fnt(1.35) \
	textcolor rgb note_colour
# Without slices there is nothing to autoscale on: a fixed, empty axis.
if (nslices == 0) set label 5 'no slices in throughput.dat' at graph 0.5, graph 0.5 center \
	font ''.fnt(1.73); set yrange [0 : 100]

# The dashed lines first (under the points), then per set its slices on (filled, with its key
# entry), every off slice (hollow, in the colour of its alternation's set), the crosses of
# the dropped units on top, and key entries for what is not a set.
draw = 'plot data index 2 using 1:($3 / 1000):(1):(0):(colour($2)) with vectors nohead ' . \
	'dt 2 lw 1.5 lc rgb variable notitle, ' . \
	'for [s = 1:nsets - 1] data index 1 using 6:(int($3) == s ? $7 / 1000 : NaN) ' . \
	'with points pt shape_on(s) ps 1.1 lc rgb colour(s) title key_title(s + 1), ' . \
	'for [s = 1:nsets - 1] data index 1 using 6:(int($3) == 0 && int($2) == s ? ' . \
	'$7 / 1000 : NaN) with points pt shape_off(s) ps 1.1 lw 1.5 lc rgb colour(s) notitle, ' . \
	'data index 1 using 6:($8 > 0 ? $7 / 1000 : NaN) with points pt 2 ps 1.7 lw 1.5 ' . \
	'lc rgb text_colour notitle, ' . \
	'keyentry with points pt 6 ps 1.1 lw 1.5 lc rgb text_colour ' . \
	'title off_title, ' . \
	'keyentry with lines dt 2 lw 1.5 lc rgb colour(0) title plain_title'
if (ndropped > 0) draw = draw . ', keyentry with points pt 2 ps 1.7 lw 1.5 ' . \
	'lc rgb text_colour title "unit left out of the statistics"'
if (nslices == 0) draw = 'plot for [s = 1:nsets - 1] keyentry with points ' . \
	'pt shape_on(s) lc rgb colour(s) title key_title(s + 1), NaN notitle'
if (nsets < 2) draw = 'plot NaN notitle'
