# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of cpu.gp: the CPU time per operation under each probe set, one
# row per set (the costliest at the top) and at the bottom "nothing armed"
# (no probe set on). Each row's bar stacks the workload's processes in user
# mode (blue) and in the kernel (sky blue) and the tracer's own tasks
# (vermillion, hatched: reader or consumer threads, a tracing process,
# daemons); a black tick marks the machine's busy time per operation
# (/proc/stat, every CPU). The numbers stand in columns of their own at the
# right, each under its head: in a lab notebook every part of the bar and the
# tick, elsewhere the bar's total and the tick. The axis is linear from zero
# (the bars are sums: a log axis would misdraw their parts); when a row is
# more than 20 times the median bar, loadbench sets cut_us and the axis ends
# there: the longer bars are cut at a break mark, their numbers at the right.
#
# loadbench writes the script into a results directory as a header that sets
# the strings title, subtitle, footer (footer_lines lines), note, op_name and
# op_names, and the number cut_us (0: no cut); then the style's lines (style,
# W, H, dpi, fs, fnt(k), pt(k)); then this file; then the lines that render
# 'draw' as cpu.png, cpu.svg and cpu.pdf. gnuplot reads cpu.dat: one row per
# row of the figure from the bottom up, columns name, user_us, sys_us,
# tracer_us, total_us, machine_us, steal_pct, tasks.
#
# Every text has a place of its own: the names on the left, one row each; the
# numbers in their columns on the right, their heads above them; title,
# subtitle and note above; the axis and the key below, then (style lab) the
# footer. The canvas grows with the rows.

if (!exists('title')) title = 'CPU time per operation: the workload and the tracer'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('op_name')) op_name = 'operation'
if (!exists('cut_us')) cut_us = 0
if (!exists('style')) style = 'lab'; W = 600 / 72.0; H = 350 / 72.0; dpi = 144; fs = 7; \
	fnt(k) = sprintf('sans,%.3g', fs * k); pt(k) = fs * k / 72.0

data = 'cpu.dat'
set datafile missing 'NaN'
set encoding utf8

# Okabe-Ito colours (colour-blind safe); the tracer's part is hatched too, the tick black.
user_colour = '#0072B2'
sys_colour = '#56B4E9'
tracer_colour = '#D55E00'
tick_colour = '#000000'
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'
edge_colour = '#1F1F1F'

nz(v) = v == v ? v : 0

paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0
lw_k = max2(1, fs / 10.0)

# The rows (the first is "nothing armed"), the longest name, the axis' end.
undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? int(STATS_records) : 0
name_w = 13
hi = 1
if (n > 0) {
	undefine STATS_*
	stats data using (strlen(strcol(1))) nooutput
	name_w = exists('STATS_max') ? max2(STATS_max, 4) : name_w
	undefine STATS_*
	stats data using (max2(nz($5), nz($6))) nooutput
	hi = exists('STATS_max') && STATS_max > 0 ? STATS_max : 1
}
cut = cut_us > 0 && cut_us < hi
xmax = cut ? cut_us : hi * 1.04

# The numbers' columns: in a lab notebook each part of the bar and the tick; elsewhere the
# bar's total and the tick. ncols columns, column c reads .dat column col[c] under head[c].
mag(v) = abs(v) >= 100 ? sprintf('%.0f', v) : abs(v) >= 10 ? sprintf('%.1f', v) : sprintf('%.2f', v)
ncols = lab ? 4 : 2
array col[4]
array head[4]
if (lab) {
	col[1] = 2; col[2] = 3; col[3] = 4; col[4] = 6
	head[1] = 'user'; head[2] = 'system'; head[3] = 'tracer'; head[4] = 'busy'
} else {
	col[1] = 5; col[2] = 6
	head[1] = 'total'; head[2] = 'busy'
}
# Row $0's number of .dat column c: none for the tracer of "nothing armed".
value_of(c) = $0 == 0 && c == 4 ? '–' : (valid(c) ? mag(column(c)) : 'n/a')
value_k = 0.9
char_w = pt(0.64 * value_k)
array col_w[4]
do for [c = 1:ncols] {
	col_w[c] = strlen(head[c])
	if (n > 0) {
		undefine STATS_*
		stats data using (strlen(value_of(col[c]))) nooutput
		col_w[c] = exists('STATS_max') ? max2(col_w[c], STATS_max) : col_w[c]
	}
}
col_gap = pt(1.2)
values_w = pt(0.9)
do for [c = 1:ncols] { values_w = values_w + col_w[c] * char_w + (c > 1 ? col_gap : 0) }
# Column c's right edge, in inches right of the graph.
col_right(c) = pt(0.9) + (sum [i = 1:c] (col_w[i] * char_w + (i > 1 ? col_gap : 0)))

src = subtitle
wrap_chars = chars_in(W - pt(1), 1.1)
eval wrap
sub_text = wrapped
sub_lines = show_sub ? wrap_lines : 0
xlabel_text = sprintf('CPU time per %s (µs)', op_name) . \
	(cut ? sprintf('; axis cut at %g: a broken bar runs on%s', cut_us, \
	paper ? '' : ' (its numbers at the right)') : '')
src = xlabel_text
wrap_chars = chars_in(W - pt(1), 1.05)
eval wrap
xlabel_text = wrapped
xlabel_chars = wrap_longest
xlabel_lines = wrap_lines

# The key, in lines that fit the canvas, each centred: a swatch and its text per part.
array key_text[4] = ['workload, user', 'workload, kernel', "tracer's own tasks", \
	paper ? 'machine busy' : 'machine busy (every CPU)']
key_k = 0.9
swatch = pt(1.3)
key_item_w(i) = swatch + pt(0.5) + strlen(key_text[i]) * pt(0.64 * key_k)
key_gap = pt(1.6)
array key_line[4]
array key_x[4]
array key_line_w[4]
# In one line where it fits, else in a grid of as many cells a line as fit.
key_cell = max2(max2(key_item_w(1), key_item_w(2)), max2(key_item_w(3), key_item_w(4))) + key_gap
key_one = (sum [i = 1:4] (key_item_w(i) + key_gap)) - key_gap <= W - pt(1)
key_per = key_one ? 4 : max2(1, floor((W - pt(1) + key_gap) / key_cell))
key_lines = int(ceil(4.0 / key_per))
kx = 0
do for [i = 1:4] {
	key_line[i] = int((i - 1) / key_per) + 1
	key_x[i] = key_one ? kx : ((i - 1) % key_per) * key_cell
	kx = kx + key_item_w(i) + key_gap
	key_line_w[key_line[i]] = key_one ? kx - key_gap : min2(4, key_per) * key_cell - key_gap
}

# Heights, in inches: a row holds a name at 1x type with room around it.
row = pt(1.8)
above = (show_title ? pt(2.6) : 0) + (sub_lines ? sub_lines * pt(1.5) + pt(0.4) : 0) + \
	(note_lines ? note_lines * pt(1.45) + pt(0.45) : 0) + pt(2.2)
below = pt(1.9) + xlabel_lines * pt(1.4) + pt(0.5) + key_lines * pt(1.6) + \
	(show_foot ? footer_lines * pt(1.35) + pt(1.3) : pt(0.5))
H = max2(H, above + max2(n, 2) * row + below)
# Widths, in inches: the names, the graph, the numbers' columns.
left = name_w * pt(0.64) + pt(1.2)
right = values_w + pt(0.6)
graph_w = W - left - right
y_of(inches) = 1 - inches / H
# Rows no further apart than 2.2 rows' height: a few stand together in the middle of the
# canvas, what is under the graph lifted with them (not the footer).
extra = max2(0, H - above - below - max2(n, 2) * 2.2 * row)
graph_top = y_of(above + extra / 2)
graph_bottom = (below + extra / 2) / H
lift = extra / 2 / H

# Tics a label and a gap apart at least: 1, 2 or 5 times a power of 10.
nice(x) = (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
tic_chars = max2(strlen(sprintf('%.0f', xmax)), 3)
max_tics = max2(floor(graph_w / (tic_chars * pt(0.64 * 0.95) + pt(1.2))), 1)
tic_step = nice(xmax / max_tics)
# Half that step where a label has room at it; a second tic at least where one fits.
if (tic_step / 2 / xmax * graph_w >= tic_chars * pt(0.64 * 0.95) + pt(1.2) || \
	tic_step > xmax) { tic_step = tic_step / 2 }

# The texts' places, from the top down, as screen fractions.
y_title = y_of(pt(1.9))
y_sub = y_of((show_title ? pt(2.6) : 0) + pt(1.3))
y_note = y_of((show_title ? pt(2.6) : 0) + (sub_lines ? sub_lines * pt(1.5) + pt(0.4) : 0) + \
	pt(1.3))
y_head = graph_top + pt(0.8) / H
y_xlabel = (below - pt(1.9) - pt(1.2)) / H + lift
y_key(l) = (below - pt(1.9) - xlabel_lines * pt(1.4) - pt(0.5) - pt(0.8) - \
	(l - 1) * pt(1.6)) / H + lift
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H
centre_x(chars, k) = (c = left + graph_w / 2, w = chars * pt(k) * 0.66, \
	c + w / 2 > W - pt(0.5) ? W - pt(0.5) - w / 2 : \
	(c - w / 2 < pt(0.5) ? pt(0.5) + w / 2 : c)) / W

set termoption noenhanced
set style fill solid 1.0 border lc rgb edge_colour
set border 3 lc rgb text_colour lw 1.2 * lw_k
set tics textcolor rgb text_colour
set ytics nomirror scale 0 font ''.fnt(1)
set xtics nomirror out scale 0.6 font ''.fnt(0.95)
set xtics 0, tic_step
set format x '%g'
set grid xtics lt 1 lc rgb grid_colour lw lw_k
set key off
set yrange [-0.6 : max2(n, 1) - 0.4]
set xrange [0 : xmax]
set x2range [0 : 1]
set lmargin at screen left / W
set rmargin at screen 1 - right / W
set tmargin at screen graph_top
set bmargin at screen graph_bottom
# The line that sets "nothing armed" apart from the sets.
if (n > 1) set arrow 2 from graph 0, first 0.5 to graph 1, first 0.5 nohead lc rgb text_colour \
	lw 0.8 * lw_k dt 2 back

if (show_title) set label 1 title at screen 0.5, screen y_title center font ''.fnt(1.6)
if (show_sub) set label 2 sub_text at screen 0.5, screen y_sub center font ''.fnt(1.1) \
	textcolor rgb text_colour
if (note ne '') set label 3 note_text at screen 0.5, screen y_note center font ''.fnt(1.05) \
	textcolor rgb note_colour
set label 4 xlabel_text at screen centre_x(xlabel_chars, 1.05), screen y_xlabel center \
	font ''.fnt(1.05) textcolor rgb text_colour
if (show_foot) set label 6 footer at screen pt(1) / W, screen foot_top left font ''.fnt(0.95) \
	textcolor rgb text_colour
do for [c = 1:ncols] {
	set label 10 + c head[c] at screen (left + graph_w + col_right(c)) / W, \
		screen y_head right font ''.fnt(value_k) textcolor rgb text_colour
}
if (n < 2) set label 7 'no probe set with CPU time in cpu.dat' at screen (left + graph_w / 2) / W, \
	screen (graph_top + graph_bottom) / 2 center font ''.fnt(1.1)
# The key: swatches as the bars draw each part, the tick as a tick.
do for [i = 1:4] {
	kx0 = (W - key_line_w[key_line[i]]) / 2 + key_x[i]
	ky = y_key(key_line[i])
	if (i < 4) {
		set object 20 + i rect from screen kx0 / W, screen ky - pt(0.4) / H \
			to screen (kx0 + swatch) / W, screen ky + pt(0.4) / H \
			fillcolor rgb (i == 1 ? user_colour : (i == 2 ? sys_colour : tracer_colour)) \
			fillstyle solid 1.0 border lc rgb edge_colour front
	} else {
		set arrow 20 + i from screen (kx0 + swatch / 2) / W, screen ky - pt(0.6) / H \
			to screen (kx0 + swatch / 2) / W, screen ky + pt(0.6) / H nohead \
			lc rgb tick_colour lw 2.4 * lw_k front
	}
	set label 20 + i key_text[i] at screen (kx0 + swatch + pt(0.5)) / W, screen ky left \
		font ''.fnt(key_k) textcolor rgb text_colour
}
# The hatch over the tracer's swatch.
hatch_key = (W - key_line_w[key_line[3]]) / 2 + key_x[3]
set object 30 rect from screen hatch_key / W, screen y_key(key_line[3]) - pt(0.4) / H \
	to screen (hatch_key + swatch) / W, screen y_key(key_line[3]) + pt(0.4) / H \
	fillcolor rgb 'white' fillstyle pattern 5 transparent noborder front

# The bars, part by part (a part beyond the axis is cut at its end), the hatch over the
# tracer's part, the break mark of a cut bar, the tick, the names and the numbers.
bh = 0.3
end_of(x) = min2(x, xmax)
seg(a, b) = b > a ? (end_of(a) + end_of(b)) / 2 : NaN
half(a, b) = (end_of(b) - end_of(a)) / 2
u_end(x) = nz(column(2))
s_end(x) = nz(column(2)) + nz(column(3))
t_end(x) = nz(column(2)) + nz(column(3)) + nz(column(4))
cut_row(x) = cut && t_end(0) > xmax
draw = 'plot data using (0):0:ytic(1) with points ps 0 notitle, ' . \
	'data using (seg(0, u_end(0))):0:(half(0, u_end(0))):(bh) with boxxyerror ' . \
	'fc rgb user_colour lw lw_k, ' . \
	'data using (seg(u_end(0), s_end(0))):0:(half(u_end(0), s_end(0))):(bh) with boxxyerror ' . \
	'fc rgb sys_colour lw lw_k, ' . \
	'data using (seg(s_end(0), t_end(0))):0:(half(s_end(0), t_end(0))):(bh) with boxxyerror ' . \
	'fc rgb tracer_colour lw lw_k, ' . \
	'data using (seg(s_end(0), t_end(0))):0:(half(s_end(0), t_end(0))):(bh) with boxxyerror ' . \
	'fc rgb "white" fs transparent pattern 5 noborder, ' . \
	'data using (cut_row(0) ? xmax * 0.965 : NaN):0:(xmax * 0.012):(bh * 1.5) with boxxyerror ' . \
	'fc rgb "white" fs solid 1.0 noborder, ' . \
	'data using (cut_row(0) ? xmax * 0.953 - xmax * 0.008 : NaN):($0 - bh * 1.3):(xmax * 0.016):' . \
	'(bh * 2.6) with vectors nohead lc rgb edge_colour lw lw_k, ' . \
	'data using (cut_row(0) ? xmax * 0.977 - xmax * 0.008 : NaN):($0 - bh * 1.3):(xmax * 0.016):' . \
	'(bh * 2.6) with vectors nohead lc rgb edge_colour lw lw_k, ' . \
	'data using ($6 <= xmax ? $6 : NaN):($0 - bh * 1.35):(0):(bh * 2.7) with vectors nohead ' . \
	'lc rgb tick_colour lw 2.4 * lw_k'
do for [c = 1:ncols] {
	draw = draw . sprintf(', data using (1):0:(value_of(%d)) axes x2y1 with labels right ' . \
		'offset screen %.6f, 0 font "%s" textcolor rgb text_colour', col[c], \
		col_right(c) / W, fnt(value_k))
}
if (n == 0) draw = 'unset ytics; plot NaN notitle'
