# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of slowdown.gp: the throughput slowdown (%) each probe set causes,
# one row per set (largest at the top), a bar to its median with its 95%
# confidence interval as a whisker, and the number beside it in a column of
# its own at the right, over a grey band where a slowdown cannot be told
# from noise (2 x the baseline's coefficient of variation). loadbench writes
# the script into a results directory as a header that sets the strings
# title, subtitle, footer (footer_lines lines), note (a warning such as
# emulated timings, or '') and op_name, and the number noise_pct (NaN when
# unknown); then the style's lines (style, W, H, dpi, fs, fnt(k), pt(k));
# then this file; then the lines that render 'draw' as slowdown.png,
# slowdown.svg and slowdown.pdf. gnuplot reads slowdown.dat from the working
# directory (columns: name, slowdown_pct, ci95_low, ci95_high,
# throughput_median; sorted by slowdown, smallest first). Under --method
# alternate the header also sets alternate = 1 and the texts ci_label and
# no_ci_label, and slowdown.dat has the columns units, ci_half_width and
# precision_reached.
#
# Every text has a place of its own: the names on the left, one row each;
# the numbers in their column on the right; title, subtitle and note above;
# the axis, what the whiskers are and (style lab) the footer below. The
# canvas grows with the rows, so 31 sets read as well as 3.

if (!exists('title')) title = 'Throughput slowdown under tracing'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('noise_pct')) noise_pct = NaN
if (!exists('alternate')) alternate = 0
if (!exists('ci_label')) ci_label = 'whiskers: 95% confidence interval'
if (!exists('no_ci_label')) no_ci_label = 'no confidence interval: it needs 2 or more rounds'
if (!exists('style')) style = 'lab'; W = 600 / 72.0; H = 350 / 72.0; dpi = 144; fs = 7; \
	fnt(k) = sprintf('sans,%.3g', fs * k); pt(k) = fs * k / 72.0

data = 'slowdown.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe), and nothing told by colour alone.
bar_colour = '#0072B2'
note_colour = '#D55E00'
noise_colour = '#EBEBEB'
whisker_colour = '#000000'
text_colour = '#404040'
grid_colour = '#D9D9D9'

undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? STATS_records : 0
hi = 1.0
lo = 0.0
name_w = 4
if (n > 0) {
	undefine STATS_*
	stats data using (valid(4) ? max2($2, $4) : $2) nooutput
	hi = exists('STATS_max') ? max2(STATS_max, 0) : 1
	undefine STATS_*
	stats data using (valid(3) ? min2($2, $3) : $2) nooutput
	lo = exists('STATS_min') ? min2(STATS_min, 0) : 0
	undefine STATS_*
	stats data using (strlen(strcol(1))) nooutput
	name_w = exists('STATS_max') ? STATS_max : 4
}
has_ci = 0
if (n > 0) {
	undefine STATS_*
	stats data using ($4 - $3) nooutput
	has_ci = exists('STATS_max')
}
span = max2(hi - lo, 1)

# What each style shows: a paper's caption carries the title, the subtitle and the
# provenance; a talk keeps a title and drops the rest.
paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0
show_ci_label = !paper

# The numbers' column: the slowdown, and its interval where there is room (not in a
# paper's column).
pct(y) = sprintf('%.1f%%', y)
with_ci = !paper
value_of(c) = !valid(2) ? 'n/a' : (with_ci && valid(3) && valid(4) ? \
	sprintf('%s [%.1f, %.1f]', pct($2), $3, $4) : pct($2))
value_chars = with_ci ? 20 : 6
units_of(c) = alternate && valid(6) ? sprintf('  %d units', int(column(6))) : ''

# Heights, in inches: a row holds a name at 1x type with room around it.
row = pt(1.9)
above = (show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + (note_lines ? note_lines * pt(1.45) + pt(0.45) : 0) + \
	pt(1.6)
below = pt(3.3) + (show_ci_label ? pt(1.5) : 0) + \
	(show_foot ? footer_lines * pt(1.35) + pt(0.9) : pt(0.8))
H = max2(H, above + max2(n, 2) * row + below)
# Widths, in inches: the names' column, the numbers' column, the graph between them.
left = name_w * pt(0.64) + pt(1.2)
right = value_chars * pt(0.62) + pt(1.5)
graph_w = W - left - right
# Tics on the slowdown axis a label and a gap apart at least: 1, 2 or 5 times a power of 10.
nice(x) = (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
max_tics = max2(floor(graph_w / (pt(0.62) * 5 + pt(1.5))), 1)
tic_step = nice((hi - (lo < 0 ? lo : 0)) * 1.0 / max_tics)
# A text centred on the graph, moved in so that it stays on the canvas (@chars long at @k).
centre_x(chars, k) = (c = left + graph_w / 2, w = chars * pt(k) * 0.66, \
	c + w / 2 > W - pt(0.5) ? W - pt(0.5) - w / 2 : (c - w / 2 < pt(0.5) ? pt(0.5) + w / 2 : c)) / W
# From the top down: where each text line sits, as a screen fraction.
y_of(inches) = 1 - inches / H
y_title = y_of(pt(1.9))
y_sub = y_of((show_title ? pt(2.6) : 0) + pt(1.3))
y_note = y_of((show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + pt(1.3))
graph_top = y_of(above)
graph_bottom = below / H
# Under the graph: the tics, the axis' label, what the whiskers are.
y_xlabel = (below - pt(3.0)) / H
y_ci_label = (below - pt(4.4)) / H
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set ytics nomirror scale 0 font ''.fnt(1)
set xtics nomirror out scale 0.6 font ''.fnt(1)
set xtics tic_step
set format x '%g%%'
set grid xtics lt 1 lc rgb grid_colour lw 1
set yzeroaxis lt 1 lc rgb text_colour lw 1.2
xlabel_text = 'throughput slowdown vs. no tracing'
set label 7 xlabel_text at screen centre_x(strlen(xlabel_text), 1.1), screen y_xlabel center \
	font ''.fnt(1.1) textcolor rgb text_colour
set key off
set yrange [-0.6 : max2(n, 1) - 0.4]
set xrange [lo < 0 ? lo - 0.04 * span : 0 : hi + 0.04 * span]
set lmargin at screen left / W
set tmargin at screen graph_top
set bmargin at screen graph_bottom
set rmargin at screen 1 - right / W

if (show_title) set label 1 title at screen 0.5, screen y_title center font ''.fnt(1.6)
if (show_sub) set label 2 subtitle at screen 0.5, screen y_sub center font ''.fnt(1.1) \
	textcolor rgb text_colour
if (note ne '') set label 6 note_text at screen 0.5, screen y_note center font ''.fnt(1.05) \
	textcolor rgb note_colour
if (show_ci_label) set label 4 (has_ci ? ci_label : no_ci_label) at screen \
	centre_x(strlen(has_ci ? ci_label : no_ci_label), 0.9), screen y_ci_label center font ''.fnt(0.9) textcolor rgb text_colour
if (show_foot) set label 3 footer at screen pt(1) / W, screen foot_top left \
	font ''.fnt(0.95) textcolor rgb text_colour
# Slowdowns inside +-noise_pct cannot be told from the baseline's own variation.
if (n > 0 && noise_pct == noise_pct && noise_pct > 0) {
	set object 1 rect from first -noise_pct, graph 0 to first noise_pct, graph 1 \
		behind fillcolor rgb noise_colour fillstyle solid 1.0 noborder
	if (show_ci_label) {
		ci_label = ci_label . sprintf('; grey: within noise (± %.1f%%)', noise_pct)
		set label 4 (has_ci ? ci_label : no_ci_label)
	}
}
if (n == 0) set label 5 'no probe sets in slowdown.dat' at graph 0.5, graph 0.5 center \
	font ''.fnt(1.2); unset ytics
set x2range [0 : 1]

# Bars are boxes from 0 to the median; whiskers are vectors with flat heads; the numbers
# stand in their column, left-aligned just right of the graph.
draw = 'plot data using (0):0:(0):($2):($0 - 0.32):($0 + 0.32):ytic(1) ' . \
	'with boxxyerror lc rgb bar_colour, ' . \
	'data using 3:0:($4 - $3):(0) with vectors heads size screen 0.006, 90 ' . \
	'lc rgb whisker_colour lw 1.5, ' . \
	'data using (1):0:(value_of(0)) axes x2y1 with labels left offset char 1, 0 ' . \
	'font "".fnt(0.95) textcolor rgb text_colour'
if (n == 0) draw = 'plot NaN notitle'
