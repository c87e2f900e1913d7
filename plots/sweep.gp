# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of sweep.gp: a sweep (--sweep KEY=V1,V2,...) as small multiples,
# one panel per probe set in the sweep's order, each on scales of its own
# (the sets' costs span three orders of magnitude): the time the set's
# probes add to an operation (us, whiskers from the slowdown's 95% CI)
# against its events per operation, a dot per value swept, and the
# least-squares line through them from 0 events. Its slope, the cost of one
# more event, is in the panel's title with its 95% CI where there is room.
# Where the canvas has room for them (the pairs of panels take at most two
# rows more than the panels alone: a few sets, or a lab's 14), a second,
# smaller panel right of each holds the set's slowdown (%) at each value,
# its 95% CI as whiskers, the values evenly spaced in their order.
#
# loadbench writes the script into the sweep's directory as a header that
# sets title, subtitle, footer (footer_lines lines), note, key_name, nsets,
# nvalues and the arrays values, set_name, fit_text (the slope: "356 ns per
# event", or "no line"), fit_ci ("[301, 411]" or '') and slope (us per
# event) and icpt (us per operation) of the line; then the style's lines
# (style, W, H, dpi, fs, fnt(k), pt(k), the helpers); then this file; then
# the lines that render 'draw' as sweep.svg, .png and .pdf. gnuplot reads
# sweep.dat from the working directory: one block per set; columns set
# (from 1), name, value, at (the value's place among the values, from 1),
# epo, added_us, added_lo_us, added_hi_us, slowdown_pct, slowdown_lo,
# slowdown_hi.
#
# Every text has a place of its own: title, subtitle and the key above the
# panels; each set's name and slope above its panel(s); each panel's tics'
# labels beside and under it; the axes' names left of and under the grid,
# and (lab) the footer below. The columns follow from the canvas, the
# longest name and the widest tic labels; the canvas grows with the rows,
# so 31 sets read as well as 2.

if (!exists('title')) title = 'What one event costs, from a sweep'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('key_name')) key_name = 'value'
if (!exists('nsets')) nsets = 0
if (!exists('nvalues')) nvalues = 0

data = 'sweep.dat'
# Names are UTF-8: their lengths and characters are counted so.
set encoding utf8

# Okabe-Ito colours (colour-blind safe); the two panels differ in shape too (dot, square).
added_colour = '#0072B2'
line_colour = '#000000'
slow_colour = '#D55E00'
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#E4E4E4'
empty_colour = '#808080'

# The larger (smaller) of a and v, v left out when it is not a number.
hi_of(a, v) = v == v && v > a ? v : a
lo_of(a, v) = v == v && v < a ? v : a
# A text's width in em, as wide as DejaVu Sans draws it at most (tests/check-svg's widths),
# and in inches at k times the type.
cw(c) = strstrt("il.,:;'|!", c) > 0 ? 0.32 : (strstrt('fjrtI()[]{} -/\`', c) > 0 ? 0.42 : \
	(strstrt("mwMW%@", c) > 0 ? 0.98 : (strstrt("ABCDEFGHJKLMNOPQRSTUVXYZ&#~+=<>_^*\"?", c) > 0 ? \
	0.76 : (strstrt("µ", c) > 0 ? 0.7 : 0.64))))
em_w(s) = strlen(s) == 0 ? 0 : cw(s[1:1]) + em_w(s[2:])
tw(s, k) = em_w(s) * pt(k)
# Tics a label and a gap apart at least: 1, 2 or 5 times a power of 10.
nice(x) = x <= 0 ? 1 : (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
# Points as large in the PNG as in the SVG and PDF: pngcairo draws them in pixels.
pscale(s) = s * (GPVAL_TERM eq 'pngcairo' ? dpi / 72.0 : 1)
# Lines heavier on a slide.
lwx(w) = w * (style eq 'talk' ? 1.8 : 1)

# What each style shows: a paper's caption carries the title, the subtitle and the
# provenance; a talk keeps a title and drops the rest.
paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0
# The title at most as wide as the canvas; the subtitle wrapped to it, sub_lines lines.
title_k = min2(1.6, (W - pt(2)) / max2(tw(title, 1), pt(1)))
src = show_sub ? subtitle : ''
wrap_chars = chars_in(W - pt(2), 1.1)
eval wrap
sub_text = wrapped
sub_lines = show_sub ? wrap_lines : 0

# Each set's points: how many, the most events per operation, the added time's and the
# slowdown's extent (their CIs and 0 included).
np = nsets
array count_of[max2(np, 1)]
array xmax_of[max2(np, 1)]
array ylo_of[max2(np, 1)]
array yhi_of[max2(np, 1)]
array slo_of[max2(np, 1)]
array shi_of[max2(np, 1)]
do for [k = 1:|count_of|] {
	count_of[k] = 0; xmax_of[k] = 0; ylo_of[k] = 0; yhi_of[k] = 0; slo_of[k] = 0; shi_of[k] = 0
}
npoints = 0
if (np > 0) {
	undefine STATS_*
	stats data using (ks = int($1), ks >= 1 && ks <= np ? (count_of[ks] = count_of[ks] + 1, \
		xmax_of[ks] = hi_of(xmax_of[ks], $5), \
		yhi_of[ks] = hi_of(hi_of(yhi_of[ks], $6), $8), \
		ylo_of[ks] = lo_of(lo_of(ylo_of[ks], $6), $7), \
		shi_of[ks] = hi_of(hi_of(shi_of[ks], $9), $11), \
		slo_of[ks] = lo_of(lo_of(slo_of[ks], $9), $10), 0) : 0) nooutput
	npoints = exists('STATS_records') ? int(STATS_records) : 0
}
# The fitted line of set p, where it has one; its ends are part of the added time's extent.
line_ok(p) = slope[p] == slope[p] && icpt[p] == icpt[p]
line_at(p, x) = icpt[p] + slope[p] * x
xend(p) = xmax_of[p] * 1.25
do for [k = 1:np] {
	if (line_ok(k)) {
		yhi_of[k] = max2(yhi_of[k], max2(line_at(k, 0), line_at(k, xend(k))))
		ylo_of[k] = min2(ylo_of[k], min2(line_at(k, 0), line_at(k, xend(k))))
	}
}

# Widths, in inches. The tics' labels of a panel: the added time's left of it, the
# slowdown's ("20%") left of the slowdown's panel; the events' and the values' under them.
ny = 3
yfmt(v) = sprintf('%g', v)
sfmt(v) = sprintf('%g%%', v)
array ystep[max2(np, 1)]
array sstep[max2(np, 1)]
# The steps of about ny intervals, and the widest label they make, for each set.
steps = 'ytic_w = 0; stic_w = 0; do for [k = 1:np] { ' . \
	'ystep[k] = nice((yhi_of[k] - ylo_of[k]) / ny); ' . \
	'sstep[k] = nice((shi_of[k] - slo_of[k]) / ny); ' . \
	'do for [t = floor(ylo_of[k] / ystep[k] + 1e-9):ceil(yhi_of[k] / ystep[k] - 1e-9)] { ' . \
	'ytic_w = max2(ytic_w, tw(yfmt(t * ystep[k]), 1)) }; ' . \
	'do for [t = floor(slo_of[k] / sstep[k] + 1e-9):ceil(shi_of[k] / sstep[k] - 1e-9)] { ' . \
	'stic_w = max2(stic_w, tw(sfmt(t * sstep[k]), 1)) } }'
eval steps
# An events tic's label: the widest whole number, or one with a decimal where the events
# per operation are few enough for steps under 1.
xtic_w = tw('0', 1)
do for [k = 1:np] {
	xtic_w = max2(xtic_w, tw(sprintf('%.0f', ceil(xend(k))) . (xmax_of[k] < 8 ? '.5' : ''), 1))
}
vtic_w = tw('0', 1)
do for [i = 1:nvalues] {
	vtic_w = max2(vtic_w, tw(sprintf('%d', values[i]), 1))
}
# Left of the grid, the added time's name, turned; the panels' tics' labels are in the cells.
left = pt(2.1)
right = max2(pt(1.0), xtic_w / 2 + pt(0.3))
grid_w = W - left - right
# A cell: the added time's tics' labels and panel; with the slowdowns, a gap, their tics'
# labels and panel. The events' last label reaches past its panel by half its width.
tic_pad = pt(0.6)
gap_ab = max2(pt(1.3), xtic_w / 2 + pt(0.7))
a_min = max2(pt(7), 2 * (xtic_w + pt(1.0)))
b_min = max2(pt(4), max2(nvalues, 2) * (vtic_w + pt(0.6)))
hgap = max2(pt(1.5), xtic_w / 2 + pt(0.8))
# The widest name, and the widest slope (with its interval, when it goes there).
head_w = 0
fit_w = 0
fitci_w = 0
do for [k = 1:np] {
	head_w = max2(head_w, tw(set_name[k], 1.05))
	fit_w = max2(fit_w, tw(fit_text[k], 0.95))
	fitci_w = max2(fitci_w, tw(fit_text[k] . (fit_ci[k] ne '' ? ' ' . fit_ci[k] : ''), 0.95))
}
cell_min(pr) = ytic_w + tic_pad + a_min + (pr ? gap_ab + stic_w + tic_pad + b_min : 0)
cell_w_of(c) = (grid_w - (c - 1) * hgap) / c
fits(c, pr) = cell_w_of(c) >= max2(cell_min(pr), max2(head_w, fit_w) + pt(0.4))
# As many columns as fit, up to as square a grid as the canvas takes (panels wider than
# high), the rows filled evenly: with the slowdowns (pr = 1) or without.
cmax(pr) = min2(max2(np, 1), ceil(sqrt(max2(np, 1) * W / H * (pr ? 0.5 : 0.9))))
choose = 'cols = 1; do for [c = 2:cmax(pr)] { if (fits(c, pr)) { cols = c } }; ' . \
	'rows = int(ceil(max2(np, 1) * 1.0 / cols)); cols = int(ceil(max2(np, 1) * 1.0 / rows))'
pr = 0
eval choose
rows_alone = rows
pr = 1
eval choose
# The slowdowns where they take at most two rows more than the panels alone.
pairs = npoints > 0 && nvalues > 0 && rows <= rows_alone + 2
if (!pairs) {
	pr = 0
	eval choose
}
cell_w = cell_w_of(cols)
# Inside a cell, from its left edge: the added time's panel, then the slowdown's.
inner = cell_w - ytic_w - tic_pad - (pairs ? gap_ab + stic_w + tic_pad : 0)
b_w = pairs ? max2(b_min, inner * 0.34) : 0
a_w = inner - b_w
a_end = ytic_w + tic_pad + a_w
# The slope over its panel, after the name when both fit on a line, else under it; its
# interval where it fits.
with_ci = fitci_w + pt(0.4) <= cell_w
slope_w = with_ci ? fitci_w : fit_w
slope_beside = head_w + pt(1.5) + slope_w <= a_end
head_lines = slope_beside ? 1 : 2
head_h = pt(0.3) + head_lines * pt(1.35) + pt(0.45)
fit_label(p) = fit_text[p] . (with_ci && fit_ci[p] ne '' ? ' ' . fit_ci[p] : '')

# The key: a sample (a point, a line or both) and a text an entry, in one row, or more where
# the canvas is too narrow.
array key_text[3]
array key_pt[3]
array key_lc[3]
array key_ln[3]
nkeys = 0
if (npoints > 0) {
	nkeys = 2
	key_text[1] = sprintf('time added at each value of %s, 95%% CI', key_name)
	key_pt[1] = 7; key_lc[1] = added_colour; key_ln[1] = ''
	key_text[2] = 'fitted line; its slope: the cost of one event'
	key_pt[2] = 0; key_lc[2] = line_colour; key_ln[2] = 'lw lwx(1)'
}
if (pairs) {
	nkeys = 3
	key_text[3] = 'right: slowdown at each value, 95% CI'
	key_pt[3] = 5; key_lc[3] = slow_colour; key_ln[3] = 'lw lwx(0.8)'
}
key_sample_of(k) = key_ln[k] ne '' ? pt(3.0) : pt(1.8)
key_gap = pt(1.8)
array key_x[3]
array key_row[3]
array key_row_w[3]
key_avail = W - pt(2)
key_rows = 0
kx = 0
do for [k = 1:nkeys] {
	w = key_sample_of(k) + tw(key_text[k], 1)
	if (k == 1 || kx + key_gap + w > key_avail) {
		key_rows = key_rows + 1
		kx = 0
	} else {
		kx = kx + key_gap
	}
	key_x[k] = kx
	key_row[k] = key_rows
	key_row_w[key_rows] = kx + w
	kx = kx + w
}
key_lines = nkeys > 0 ? key_rows : (np > 0 ? 1 : 0)

# Heights, in inches, from the top down: the texts above, the rows (a title, a panel, its
# tics' labels), the axes' names and the footer below.
top_texts = pt(0.5) + (show_title ? pt(2.6 * title_k / 1.6) : 0) + \
	(sub_lines ? sub_lines * pt(1.5) + pt(0.2) : 0) + \
	(note_lines ? note_lines * pt(1.5) + pt(0.2) : 0)
above = top_texts + key_lines * pt(1.7) + pt(0.2)
xtics_h = pt(1.5)
below = pt(1.9) + (show_foot ? footer_lines * pt(1.35) + pt(0.9) : pt(0.6))
vgap = pt(0.6)
min_plot_h = style eq 'talk' ? pt(4) : pt(6)
plot_h = max2(min_plot_h, \
	(H - above - below - rows * (head_h + xtics_h) - (rows - 1) * vgap) / rows)
grid_h = rows * (head_h + plot_h + xtics_h) + (rows - 1) * vgap
H = max2(H, above + grid_h + below)
# A panel's axes: the events from 0 (where the line meets the intercept) to past the last,
# in as many steps as their labels leave room for; the line to the end.
nx(p) = max2(1, min2(6, floor(a_w / (tw(sprintf('%.0f', ceil(xend(p))) . \
	(xmax_of[p] < 8 ? '.5' : ''), 1) + pt(0.8)))))
xstep(p) = nice(xmax_of[p] * 1.05 / nx(p))
xtop(p) = max2(1, ceil(xmax_of[p] * 1.05 / xstep(p))) * xstep(p)
do for [k = 1:np] {
	if (line_ok(k)) {
		yhi_of[k] = max2(yhi_of[k], line_at(k, xtop(k)))
		ylo_of[k] = min2(ylo_of[k], line_at(k, xtop(k)))
	}
}
# Taller panels take more tics, unless their labels would be wider than those laid out for.
ytic_w3 = ytic_w
stic_w3 = stic_w
ny = max2(3, min2(6, floor(plot_h / pt(2.2))))
eval steps
if (ytic_w > ytic_w3 || stic_w > stic_w3) {
	ny = 3
	eval steps
}

col_of(p) = (int(p) - 1) % cols
row_of(p) = (int(p) - 1) / cols
cx0(p) = left + col_of(p) * (cell_w + hgap)
ax0(p) = (cx0(p) + ytic_w + tic_pad) / W
ax1(p) = (cx0(p) + a_end) / W
bx0(p) = (cx0(p) + cell_w - b_w) / W
bx1(p) = (cx0(p) + cell_w) / W
ptop(p) = 1 - (above + row_of(p) * (head_h + plot_h + xtics_h + vgap) + head_h) / H
pbot(p) = ptop(p) - plot_h / H
# The title's lines (a text's position is its middle).
phead1(p) = ptop(p) + (pt(0.45) + (head_lines - 0.5) * pt(1.35)) / H
phead2(p) = ptop(p) + (pt(0.45) + 0.5 * pt(1.35)) / H
y_of(inches) = 1 - inches / H
y_title = y_of(pt(0.5) + pt(1.3 * title_k / 1.6))
y_sub = y_of(pt(0.5) + (show_title ? pt(2.6 * title_k / 1.6) : 0) + pt(0.85))
y_note = y_of(pt(0.5) + (show_title ? pt(2.6 * title_k / 1.6) : 0) + \
	(sub_lines ? sub_lines * pt(1.5) + pt(0.2) : 0) + pt(0.85))
y_key(r) = y_of(top_texts + (r - 1) * pt(1.7) + pt(0.85))
# Under each column's last panel (the last row's, or the one above where the last row ends).
y_xlabel(c) = y_of(above + (rows - (c > np - (rows - 1) * cols)) * \
	(head_h + plot_h + xtics_h + vgap) - vgap + pt(1.1))
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H

# The added time and the slowdown from 0 or below, in ny steps or so.
ybot(p) = floor(ylo_of[p] / ystep[p] + 1e-9) * ystep[p]
ytop(p) = max2(ybot(p) + ystep[p], ceil(yhi_of[p] / ystep[p] - 1e-9) * ystep[p])
sbot(p) = floor(slo_of[p] / sstep[p] + 1e-9) * sstep[p]
stop(p) = max2(sbot(p) + sstep[p], ceil(shi_of[p] / sstep[p] - 1e-9) * sstep[p])

# The values' tics: each value at its place, evenly spaced.
vtics = 'set xtics ('
do for [i = 1:nvalues] {
	vtics = vtics . sprintf('%s"%d" %d', i > 1 ? ', ' : '', values[i], i)
}
vtics = vtics . ')'

set termoption noenhanced
set border 3 lc rgb text_colour lw lwx(1)
set tics textcolor rgb text_colour
set xtics nomirror out scale 0.5 font ''.fnt(1) offset 0, 0.2
set ytics nomirror out scale 0.5 font ''.fnt(1)
set grid ytics lt 1 lc rgb grid_colour lw 1
set key off
set bars small
set samples 2

# The texts of the whole figure, set by each draw and drawn with the first panel only (a
# multiplot draws every label with every panel).
frame = 'set label 1 title at screen 0.5, screen y_title center font "".fnt(title_k); '
if (!show_title) frame = 'unset label 1; '
if (show_sub) frame = frame . 'set label 2 sub_text at screen 0.5, screen y_sub center ' . \
	'font "".fnt(1.1) textcolor rgb text_colour; '
if (note ne '') frame = frame . 'set label 6 note_text at screen 0.5, screen y_note center ' . \
	'font "".fnt(1.05) textcolor rgb note_colour; '
if (show_foot) frame = frame . 'set label 3 footer at screen pt(1) / W, screen foot_top left ' . \
	'font "".fnt(0.95) textcolor rgb text_colour; '
if (np > 0 && npoints == 0) frame = frame . 'set label 5 "no points in sweep.dat" at ' . \
	'screen 0.5, screen y_key(1) center font "".fnt(1.1) textcolor rgb note_colour; '
# The axes' names: the added time's left of the grid, the events' and the values' under each
# column.
if (npoints > 0) frame = frame . 'set label 8 "time added per operation (µs)" at screen ' . \
	'pt(1.0) / W, screen y_of(above + grid_h / 2) center rotate by 90 font "".fnt(1) ' . \
	'textcolor rgb text_colour; '
do for [c = 1:(npoints > 0 ? min2(cols, np) : 0)] {
	frame = frame . sprintf('set label %d "events per operation" at screen (cx0(%d) + ' . \
		'ytic_w + tic_pad + a_w / 2) / W, screen y_xlabel(%d) center font "".fnt(1) ' . \
		'textcolor rgb text_colour; ', 60 + 2 * c, c, c)
	if (pairs) {
		frame = frame . sprintf('set label %d key_name at screen (cx0(%d) + cell_w - ' . \
			'b_w / 2) / W, screen y_xlabel(%d) center font "".fnt(1) textcolor rgb ' . \
			'text_colour; ', 61 + 2 * c, c, c)
	}
}
# The key: each entry's text, its line (an arrow) and its point (an empty label's).
do for [k = 1:nkeys] {
	kx0 = ((W - key_row_w[key_row[k]]) / 2 + key_x[k]) / W
	kx1 = kx0 + (key_sample_of(k) - pt(0.7)) / W
	ky = y_key(key_row[k])
	frame = frame . sprintf('set label %d key_text[%d] at screen %.6f, screen %.6f left ' . \
		'font "".fnt(1) textcolor rgb text_colour; ', 20 + k, k, \
		kx0 + key_sample_of(k) / W, ky)
	if (key_ln[k] ne '') {
		frame = frame . sprintf('set arrow %d from screen %.6f, screen %.6f to screen ' . \
			'%.6f, screen %.6f nohead %s lc rgb key_lc[%d]; ', 20 + k, kx0, ky, kx1, ky, \
			key_ln[k], k)
	}
	if (key_pt[k] > 0) {
		frame = frame . sprintf('set label %d "" at screen %.6f, screen %.6f point pt %d ' . \
			'ps pscale(ps_pt) lw lwx(1) lc rgb key_lc[%d]; ', 40 + k, (kx0 + kx1) / 2, \
			ky, key_pt[k], k)
	}
}
unframe = 'unset label; unset arrow; '

# The points (ps 1 is a radius of 3 pt): 1.7 pt in a lab, smaller in a paper's panels,
# larger on a slide.
ps_pt = (paper ? 1.4 : (lab ? 1.7 : 3.2)) / 3

# The panel of set p: its place, title, tics, and the added time against the events.
panel_a = 'set lmargin at screen ax0(p); set rmargin at screen ax1(p); ' . \
	'set tmargin at screen ptop(p); set bmargin at screen pbot(p); ' . \
	'set xrange [0 : xtop(p)]; set yrange [ybot(p) : ytop(p)]; ' . \
	'set xtics 0, xstep(p); set ytics ybot(p), ystep[p]; set format x "%g"; ' . \
	'set format y "%g"; ' . \
	'set label 101 set_name[p] at screen cx0(p) / W, screen phead1(p) left ' . \
	'font "".fnt(1.05) textcolor rgb "#000000"; ' . \
	'if (count_of[p] == 0) { set label 103 "no points" at graph 0.5, graph 0.5 center ' . \
	'font "".fnt(0.9) textcolor rgb empty_colour } else { unset label 103 }; '
if (slope_beside) panel_a = panel_a . 'set label 102 fit_label(p) at screen ax1(p), ' . \
	'screen phead1(p) right font "".fnt(0.95) textcolor rgb text_colour; '
if (!slope_beside) panel_a = panel_a . 'set label 102 fit_label(p) at screen cx0(p) / W, ' . \
	'screen phead2(p) left font "".fnt(0.95) textcolor rgb text_colour; '
panel_a_plot = 'plot (line_ok(p) ? line_at(p, x) : NaN) with lines lw lwx(1) ' . \
	'lc rgb line_colour notitle, ' . \
	'data using 5:(int($1) == p ? $6 : NaN):7:8 with yerrorbars pt 7 ps pscale(ps_pt) ' . \
	'lw lwx(1) lc rgb added_colour notitle'
# Its slowdown at each value, right of it.
panel_b = 'unset label 101; unset label 102; unset label 103; ' . \
	'set lmargin at screen bx0(p); set rmargin at screen bx1(p); ' . \
	'set xrange [0.5 : nvalues + 0.5]; set yrange [sbot(p) : stop(p)]; ' . \
	'eval vtics; set ytics sbot(p), sstep[p]; set format y "%g%%"; '
panel_b_plot = 'plot data using 4:(int($1) == p ? $9 : NaN) with lines lw lwx(0.8) ' . \
	'lc rgb slow_colour notitle, ' . \
	'data using 4:(int($1) == p ? $9 : NaN):10:11 with yerrorbars pt 5 ps pscale(ps_pt) ' . \
	'lw lwx(1) lc rgb slow_colour notitle'
if (npoints == 0) panel_a_plot = 'plot NaN notitle'
if (!pairs) panel_b = ''
if (!pairs) panel_b_plot = ''

draw = 'set multiplot; eval frame; ' . \
	'do for [p = 1:np] { eval panel_a; eval panel_a_plot; if (p == 1) { eval unframe }; ' . \
	'eval panel_b; eval panel_b_plot }; unset multiplot'
if (np == 0) draw = 'eval frame; unset border; unset tics; unset grid; set xrange [0 : 1]; ' . \
	'set yrange [0 : 1]; set label 5 "no probe sets in sweep.dat" at screen 0.5, ' . \
	'screen 0.5 center font "".fnt(1.2); plot NaN notitle'
