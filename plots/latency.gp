# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of latency.gp: what each probe set adds to the latency per
# operation, as a dot plot by rows. One row per set, sorted by what it adds
# at p50 (the most at the top), and at the bottom the row "nothing armed",
# whose number is the latency with no probe set on; one panel per quantile
# side by side (p50 and p99, and p99.9 where some set's addition is known and
# the canvas has room for a third graph: a lab notebook's), sharing the rows and the
# axis: the names once on the left, in each panel a dot at what the set adds
# (filled where its 95% confidence interval excludes zero, hollow where it
# includes zero or there is none) and the interval as a whisker, and the
# number in a column of its own at the panel's right.
#
# The axis is linear, or (log_axis = 1, when what the sets add spans more
# than 20x: strace's hundreds of microseconds beside bpf's one) a symmetric
# log: linear within +-lin_us, logarithmic beyond, so that a latency that
# fell (a negative addition) is drawn left of zero, at its size, where a log
# axis would have no place for it. The axis says which.
#
# loadbench writes the script into a results directory as a header that sets
# the strings title, subtitle, ci_label, footer (footer_lines lines), note,
# op_name and op_names, and the numbers nsets, has_p999, log_axis and lin_us;
# then the style's lines (style, W, H, dpi, fs, fnt(k), pt(k)); then this
# file; then the lines that render 'draw' as latency.png, latency.svg and
# latency.pdf. gnuplot reads index 0 of latency.dat: one row per row of the
# figure from the bottom up, columns name and, for each of p50 p90 p99 p99.9,
# the latency, what the set adds and its CI (us, add, lo, hi: microseconds).
#
# Every text has a place of its own: the names on the left, one row each;
# each panel's quantile and numbers' head above it, its numbers at its right;
# title, subtitle and note above; the tics, the axis and what the marks are
# below, then (style lab) the footer. The canvas grows with the rows.

if (!exists('title')) title = 'Latency tracing adds per operation'
if (!exists('subtitle')) subtitle = ''
if (!exists('ci_label')) ci_label = 'whiskers: 95% confidence interval'
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('op_name')) op_name = 'operation'
if (!exists('has_p999')) has_p999 = 0
if (!exists('log_axis')) log_axis = 0
if (!exists('lin_us')) lin_us = 1
if (!exists('style')) style = 'lab'; W = 600 / 72.0; H = 350 / 72.0; dpi = 144; fs = 7; \
	fnt(k) = sprintf('sans,%.3g', fs * k); pt(k) = fs * k / 72.0

data = 'latency.dat'
set datafile missing 'NaN'
set encoding utf8

# Okabe-Ito colours (colour-blind safe); a dot's fill says something its colour does not.
dot_colour = '#0072B2'
whisker_colour = '#000000'
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'
guide_colour = '#BDBDBD'

# NaN-aware: the other when one is missing.
nmin(a, b) = a != a ? b : (b != b ? a : min2(a, b))
nmax(a, b) = a != a ? b : (b != b ? a : max2(a, b))

# What each style shows: a paper's caption carries the title, the subtitle, the provenance
# and what the marks are; a talk keeps a title and drops the rest.
paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0
show_legend = !paper
# The numbers: in a column at each panel's right, with their interval in a lab notebook; a
# paper's column has no room for them beside the names: its axis says the values.
show_values = !paper
with_ci = lab
# Lines as heavy to the type in every style.
lw_k = max2(1, fs / 10.0)

# The panels: the quantile each draws (its group of columns in latency.dat) and its name;
# p99.9's only where some set's addition there is known and the canvas has room for it.
np = 2 + (has_p999 ? 1 : 0)
array pgroup[3] = [0, 2, 3]
array pname[3] = ['p50', 'p99', 'p99.9']
ucol(p) = 2 + 4 * pgroup[p]

# The axis: x is what a set adds, in us, as drawn (T: symmetric log or as it is).
sg(v) = v < 0 ? -1 : 1
T(v) = log_axis ? sg(v) * log10(1 + abs(v) / lin_us) : v
Tinv(x) = log_axis ? sg(x) * lin_us * (10 ** abs(x) - 1) : x

# The rows (the first is "nothing armed"), the longest name, the numbers' widest text.
undefine STATS_*
stats data index 0 using 0 nooutput
n = exists('STATS_records') ? int(STATS_records) : 0
name_w = 13
if (n > 0) {
	undefine STATS_*
	stats data index 0 using (strlen(strcol(1))) nooutput
	name_w = exists('STATS_max') ? max2(STATS_max, 4) : name_w
}

# A number as the column says it: 3 significant digits or so, a sign where it is added.
mag(v) = abs(v) >= 100 ? sprintf('%.0f', abs(v)) : abs(v) >= 10 ? sprintf('%.1f', abs(v)) : \
	sprintf('%.2f', abs(v))
plain(v) = (v < 0 ? '−' : '') . mag(v)
signed(v) = (v < 0 ? '−' : '+') . mag(v)
# The number of row $0 in the panel whose latency is column u (what it adds: u + 1, CI: u + 2,
# u + 3); the first row's is its own latency.
value_of(u) = $0 == 0 ? (valid(u) ? mag(column(u)) . ' µs' : '') : \
	(!valid(u + 1) ? 'n/a' : (with_ci && valid(u + 2) && valid(u + 3) ? \
	sprintf('%s [%s, %s]', signed(column(u + 1)), plain(column(u + 2)), \
	plain(column(u + 3))) : \
	signed(column(u + 1))))
value_head = with_ci ? 'added µs [95% CI]' : 'added µs'
value_chars = strlen(value_head)
do for [p = 1:np] {
	if (n > 0) {
		undefine STATS_*
		stats data index 0 using (strlen(value_of(ucol(p)))) nooutput
		if (exists('STATS_max')) { value_chars = max2(value_chars, STATS_max) }
	}
}

xlabel_text = (paper ? 'latency added (µs)' : sprintf('latency added per %s (µs)', op_name)) . \
	(log_axis ? sprintf(', log scale beyond ±%g', lin_us) : '')
src = subtitle
wrap_chars = chars_in(W - pt(1), 1.1)
eval wrap
sub_text = wrapped
sub_lines = show_sub ? wrap_lines : 0
src = 'dots: what the set adds; hollow: its 95% CI includes 0 or there is none; ' . ci_label
wrap_chars = chars_in(W - pt(1), 0.9)
eval wrap
legend_text = wrapped
legend_chars = wrap_longest
legend_lines = show_legend ? wrap_lines : 0

# Heights, in inches: a row holds a name at 1x type with room around it.
row = pt(1.8)
above = (show_title ? pt(2.6) : 0) + (sub_lines ? sub_lines * pt(1.5) + pt(0.4) : 0) + \
	(note_lines ? note_lines * pt(1.45) + pt(0.45) : 0) + pt(2.4)
below = pt(1.9) + pt(1.7) + legend_lines * pt(1.35) + \
	(show_foot ? footer_lines * pt(1.35) + pt(1.5) : pt(0.6))
H = max2(H, above + max2(n, 2) * row + below)
# Widths, in inches: the names, then per panel its graph and its numbers' column.
value_k = 0.9
left = name_w * pt(0.64) + pt(1.2)
gap_v = pt(0.7)
value_w = show_values ? value_chars * pt(0.64 * value_k) + gap_v : 0
panel_gap = pt(1.4)
right_margin = pt(0.5)
graph_w_of(k) = (W - left - right_margin - (k - 1) * panel_gap) / k - value_w
# A third panel where each graph keeps 10 type heights' width at least.
if (np == 3 && graph_w_of(3) < pt(10)) { np = 2 }
graph_w = graph_w_of(np)
graph_x(p) = left + (p - 1) * (graph_w + value_w + panel_gap)
y_of(inches) = 1 - inches / H
# Rows no further apart than 2.2 rows' height: a few stand together in the middle of the
# canvas, what is under the graph lifted with them (not the footer).
extra = max2(0, H - above - below - max2(n, 2) * 2.2 * row)
graph_top = y_of(above + extra / 2)
graph_bottom = (below + extra / 2) / H
lift = extra / 2 / H

# The range of the axis: every dot and whisker of every panel, and zero.
xmin = 0
xmax = 0
do for [p = 1:np] {
	u = ucol(p)
	if (n > 1) {
		undefine STATS_*
		stats data index 0 every ::1 using \
			(nmin(T(column(u + 1)), nmin(T(column(u + 2)), T(column(u + 3))))) nooutput
		if (exists('STATS_min')) { xmin = min2(xmin, STATS_min) }
		undefine STATS_*
		stats data index 0 every ::1 using \
			(nmax(T(column(u + 1)), nmax(T(column(u + 2)), T(column(u + 3))))) nooutput
		if (exists('STATS_max')) { xmax = max2(xmax, STATS_max) }
	}
}
if (xmax - xmin <= 0) { xmax = log_axis ? T(10 * lin_us) : 1 }
pad = 0.05 * (xmax - xmin)
xmin = xmin < 0 ? xmin - pad : xmin
xmax = xmax + pad

# Tics on the axis, a label and a gap apart at least: zero first, then (log) the powers of 10
# times lin_us outward, then 2x and 5x them; (linear) multiples of a step of 1, 2 or 5 times a
# power of 10, or half that where every label has room. Each is kept only where it stands
# clear of those kept before.
tic_text(v) = v == 0 ? '0' : (v < 0 ? '−' : '') . \
	(abs(v) >= 1000 ? sprintf('%gk', abs(v) / 1000) : sprintf('%g', abs(v)))
tic_k = 0.95
tic_w(v) = strlen(tic_text(v)) * pt(0.64 * tic_k)
tic_in(v) = (T(v) - xmin) / (xmax - xmin) * graph_w
array tics[80]
ntics = 0
nice(x) = (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
# try_tic(v): keep v when it is on the axis and clear of every tic kept.
# A tic's label stays within its panel (a neighbour's label may stand just beyond).
try_tic = 'ok = T(v) >= xmin && T(v) <= xmax && ntics < 80 && ' . \
	'tic_in(v) - tic_w(v) / 2 >= -pt(0.3) && tic_in(v) + tic_w(v) / 2 <= graph_w + pt(0.3); ' . \
	'do for [j = 1:ntics] { if (abs(tic_in(v) - tic_in(tics[j])) < ' . \
	'(tic_w(v) + tic_w(tics[j])) / 2 + pt(0.9)) { ok = 0 } }; ' . \
	'if (ok) { ntics = ntics + 1; tics[ntics] = v }'
v = 0
eval try_tic
if (log_axis) {
	do for [mi = 1:3] {
		do for [k = 0:12] {
			do for [si = 0:1] {
				v = (si ? -1 : 1) * (mi == 1 ? 1 : (mi == 2 ? 2 : 5)) * \
					lin_us * 10.0 ** k
				eval try_tic
			}
		}
	}
} else {
	lo_v = Tinv(xmin)
	hi_v = Tinv(xmax)
	max_tics = min2(max2(floor(graph_w / (4 * pt(0.64 * tic_k) + pt(1.2))), 1), 10)
	# The nice step that fits, or half of it where every label has room at that step.
	step = nice((hi_v - lo_v) / max_tics)
	widest = 0
	do for [k = ceil(lo_v / step * 2):floor(hi_v / step * 2)] {
		widest = max2(widest, tic_w(k * step / 2))
	}
	if (step / 2 / (xmax - xmin) * graph_w >= widest + pt(0.9)) { step = step / 2 }
	do for [k = ceil(lo_v / step):floor(hi_v / step)] {
		v = k * step
		eval try_tic
	}
}
xtics_cmd = 'set xtics ('
do for [j = 1:ntics] {
	xtics_cmd = xtics_cmd . sprintf('%s"%s" %.12g', j > 1 ? ', ' : '', tic_text(tics[j]), \
		T(tics[j]))
}
xtics_cmd = xtics_cmd . ')'

# The texts' places, from the top down, as screen fractions.
y_title = y_of(pt(1.9))
y_sub = y_of((show_title ? pt(2.6) : 0) + pt(1.3))
y_note = y_of((show_title ? pt(2.6) : 0) + (sub_lines ? sub_lines * pt(1.5) + pt(0.4) : 0) + \
	pt(1.3))
y_head = graph_top + pt(0.9) / H
y_xlabel = (below - pt(1.9) - pt(1.3)) / H + lift
y_legend = (below - pt(1.9) - pt(1.7) - pt(1.2)) / H + lift
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H
# A text centred on the panels, moved in so that it stays on the canvas (@chars long at @k).
panels_mid = (left + graph_x(np) + graph_w) / 2
centre_x(chars, k) = (c = panels_mid, w = chars * pt(k) * 0.66, \
	c + w / 2 > W - pt(0.5) ? W - pt(0.5) - w / 2 : \
	(c - w / 2 < pt(0.5) ? pt(0.5) + w / 2 : c)) / W


set termoption noenhanced
set border 3 lc rgb text_colour lw 1.2 * lw_k
set tics textcolor rgb text_colour
set xtics nomirror out scale 0.6 font ''.fnt(tic_k)
set grid xtics lt 1 lc rgb grid_colour lw lw_k
set key off
set yrange [-0.6 : max2(n, 1) - 0.4]
set xrange [xmin : xmax]
set x2range [0 : 1]
set tmargin at screen graph_top
set bmargin at screen graph_bottom
eval xtics_cmd
# Zero, and the line that sets "nothing armed" apart from the sets.
set arrow 1 from first 0, graph 0 to first 0, graph 1 nohead lc rgb text_colour lw 1.2 * lw_k front
if (n > 1) set arrow 2 from graph 0, first 0.5 to graph 1, first 0.5 nohead lc rgb text_colour \
	lw 0.8 * lw_k dt 2 back

# The labels drawn with the first panel: title, subtitle, note, each panel's heads, the
# axis, what the marks are, the footer.
labels = ''
if (show_title) labels = labels . sprintf('set label 1 title at screen 0.5, screen %.6f center ' . \
	'font "%s"; ', y_title, fnt(1.6))
if (show_sub) labels = labels . sprintf('set label 2 sub_text at screen 0.5, screen %.6f ' . \
	'center font "%s" textcolor rgb text_colour; ', y_sub, fnt(1.1))
if (note ne '') labels = labels . sprintf('set label 3 note_text at screen 0.5, screen %.6f ' . \
	'center font "%s" textcolor rgb note_colour; ', y_note, fnt(1.05))
labels = labels . sprintf('set label 4 xlabel_text at screen %.6f, screen %.6f center ' . \
	'font "%s" textcolor rgb text_colour; ', centre_x(strlen(xlabel_text), 1.05), y_xlabel, \
	fnt(1.05))
if (show_legend) labels = labels . sprintf('set label 5 legend_text at screen %.6f, ' . \
	'screen %.6f center font "%s" textcolor rgb text_colour; ', \
	centre_x(legend_chars, 0.9), y_legend, fnt(0.9))
if (show_foot) labels = labels . sprintf('set label 6 footer at screen %.6f, screen %.6f left ' . \
	'font "%s" textcolor rgb text_colour; ', pt(1) / W, foot_top, fnt(0.95))
do for [p = 1:np] {
	labels = labels . sprintf('set label %d "%s" at screen %.6f, screen %.6f center ' . \
		'font "%s"; ', \
		10 + p, pname[p], (graph_x(p) + graph_w / 2) / W, y_head, fnt(1.1))
	if (show_values) {
		labels = labels . sprintf('set label %d value_head at screen %.6f, screen %.6f ' . \
			'left font "%s" textcolor rgb text_colour; ', 20 + p, \
			(graph_x(p) + graph_w + gap_v) / W, y_head, fnt(value_k))
	}
}
if (n < 2) labels = labels . sprintf('set label 7 "no probe set with latency in latency.dat" ' . \
	'at screen %.6f, screen %.6f center font "%s"; ', panels_mid / W, \
	(graph_top + graph_bottom) / 2, fnt(1.1))

# One panel: its margins, its names (the first) or none, then row guides, whiskers, dots
# (hollow, then filled) and its numbers. %d: the panel's latency column.
panel_plot = 'plot data index 0 using (xmin):0:($0 > 0 ? xmax - xmin : 0):(0)%s ' . \
	'with vectors nohead lc rgb guide_colour lw 0.6 * lw_k dt 3, ' . \
	'data index 0 using ($0 > 0 ? T(column(%d)) : NaN):0:' . \
	'(T(column(%d)) - T(column(%d))):(0) ' . \
	'with vectors heads size screen 0.005, 90 lc rgb whisker_colour lw %.3f, ' . \
	'data index 0 using ($0 > 0 && !filled(%d) ? T(column(%d)) : NaN):0 ' . \
	'with points pt 7 ps %.3f * pscale lc rgb "white", ' . \
	'data index 0 using ($0 > 0 && !filled(%d) ? T(column(%d)) : NaN):0 ' . \
	'with points pt 6 ps %.3f * pscale lw %.3f lc rgb dot_colour, ' . \
	'data index 0 using ($0 > 0 && filled(%d) ? T(column(%d)) : NaN):0 ' . \
	'with points pt 7 ps %.3f * pscale lc rgb dot_colour, ' . \
	'data index 0 using (show_values ? 1 : 0.5):(label_row(%d)):(value_of(%d)) axes x2y1 ' . \
	'with labels %s offset screen %.6f, 0 font "%s" textcolor rgb text_colour'
# The rows whose number is drawn: every row in its column; without one, in the graph, the
# first row's own latency and "n/a" where a set adds nothing known.
label_row(u) = show_values || $0 == 0 || !valid(u + 1) ? $0 : NaN
# Whether the dot whose latency is column u is filled: its CI (u + 2, u + 3) excludes zero.
filled(u) = valid(u + 2) && valid(u + 3) && (column(u + 2) > 0 || column(u + 3) < 0)
# A dot 0.65 times the type across: a point size is 6 pt across in a PDF, 6 pixels in a PNG
# (not scaled by its dpi), 9 points in an SVG; pscale, set as each is drawn, evens them out.
dot_ps = 0.11 * fs
panel(p) = (u = ucol(p), sprintf('set lmargin at screen %.6f; set rmargin at screen %.6f; ', \
	graph_x(p) / W, (graph_x(p) + graph_w) / W) . \
	(p == 1 ? sprintf('set ytics nomirror scale 0 font "%s"; ', fnt(1)) : 'unset ytics; ') . \
	sprintf(panel_plot, p == 1 ? ':ytic(1)' : '', u + 2, u + 3, u + 2, 1.3 * lw_k, \
	u, u + 1, dot_ps, u, u + 1, dot_ps, 1.5 * lw_k, u, u + 1, dot_ps, u, u, \
	show_values ? 'left' : 'center', show_values ? gap_v / W : 0, fnt(value_k)) . '; ')
draw = 'pscale = GPVAL_TERM eq "pngcairo" ? dpi / 72.0 : (GPVAL_TERM eq "svg" ? 2 / 3.0 : 1); ' . \
	labels . 'set multiplot; '
do for [p = 1:np] {
	draw = draw . panel(p) . (p == 1 ? 'unset label; ' : '')
}
draw = draw . 'unset multiplot'
