# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of throughput.gp: throughput over time as small multiples, one
# panel per probe set (in run order) on axes every panel shares (throughput
# from 0), so that drift, noise and each set's effect can be compared
# across sets.
#
# --method runs (throughput.dat: index 0, one row per set: set (0 = the
# baseline), name, tracer, throughput_median, runs, last_round; index 1, one
# row per sample, one block per run: set, round, t, x, ops_per_s): a panel
# holds the set's runs (filled blue circles, a line per run) over the
# baseline's (hollow grey circles), one unit of the x axis per round, each
# run's measured window from its start (left) to its end (right), and the
# two medians dashed.
#
# --method alternate (the header sets alternate = 1; throughput.dat: index
# 0, one row per panel: panel, name, tracer, on_median, off_median, plain,
# seconds, units, dropped_units, with; index 1, one row per slice: panel,
# state, unit, t, ops_per_s, dropped): a panel holds the slices of the set's
# alternation over the seconds from its first slice: its probes on (filled
# blue circles), every probe off (hollow grey circles), another set of its
# compare-with group on (filled orange triangles, that set named in the
# panel's title); a cross on each slice of a unit left out of the
# statistics; dashed, the medians of the on and of the off slices; a thin
# grey line, the throughput with nothing armed in that alternation (its
# plain slices; in older results the baseline's plain run before it).
#
# loadbench writes the script into a results directory as a header that
# sets the strings title, subtitle, footer (footer_lines lines), note (a
# warning such as emulated timings, or '') and op_name(s); then the style's
# lines (style, W, H, dpi, fs, fnt(k), pt(k)); then this file; then the
# lines that render 'draw' as throughput.svg, .png and .pdf. gnuplot reads
# throughput.dat from the working directory.
#
# Every text has a place of its own: title, subtitle, note and the key (a
# line, two on a narrow canvas) above the panels; each panel's name (and,
# in a lab or a talk, its medians) above it; the y tics' labels left of the
# first column only, the x tics' labels under the panels with none below;
# the axes' names and (lab) the footer below. The columns follow from the
# canvas and the longest name; the canvas grows with the rows, so 31 sets
# read as well as 2.

if (!exists('title')) title = 'Throughput over time'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('op_names')) op_names = 'operations'
if (!exists('alternate')) alternate = 0
if (!exists('style')) style = 'lab'; W = 600 / 72.0; H = 350 / 72.0; dpi = 144; fs = 7; \
	fnt(k) = sprintf('sans,%.3g', fs * k); pt(k) = fs * k / 72.0

data = 'throughput.dat'
# Names are UTF-8: their lengths and characters are counted so.
set encoding utf8

# Okabe-Ito colours (colour-blind safe), and shapes that tell the same apart in grey.
on_colour = '#0072B2'
off_colour = '#505050'
other_colour = '#E69F00'
plain_colour = '#9A9A9A'
base_colour = '#8C8C8C'
drop_colour = '#000000'
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#E4E4E4'
empty_colour = '#808080'

ok(v) = v == v ? v : 0
# A text's width in em, as wide as DejaVu Sans draws it at most (tests/check-svg's widths),
# and in inches at k times the type.
cw(c) = strstrt("il.,:;'|!", c) > 0 ? 0.32 : (strstrt('fjrtI()[]{} -/\`', c) > 0 ? 0.42 : \
	(strstrt("mwMW%@", c) > 0 ? 0.98 : (strstrt("ABCDEFGHJKLMNOPQRSTUVXYZ&#~+=<>_^*\"?", c) > 0 ? \
	0.76 : (strstrt("▲", c) > 0 ? 1.05 : 0.64))))
em_w(s) = strlen(s) == 0 ? 0 : cw(s[1:1]) + em_w(s[2:])
tw(s, k) = em_w(s) * pt(k)
# Tics a label and a gap apart at least: 1, 2 or 5 times a power of 10.
nice(x) = (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
# Points as large in the PNG as in the SVG and PDF: pngcairo draws them in pixels.
pscale(s) = s * (GPVAL_TERM eq 'pngcairo' ? dpi / 72.0 : 1)
# Lines heavier on a slide.
lwx(w) = w * (style eq 'talk' ? 1.8 : 1)

# The panels: a name, the other sets of its group, two medians (its own; the off slices' or
# the baseline's), the plain reference, how many points. One column a stats: a NaN in a
# column it reads would make the row a missing one.
undefine STATS_*
stats data index 0 using 1 nooutput
np = exists('STATS_records') ? int(STATS_records) - !alternate : 0
np = max2(np, 0)
array names[max2(np, 1)]
array withs[max2(np, 1)]
array med_on[max2(np, 1)]
array med_off[max2(np, 1)]
array plain[max2(np, 1)]
array span[max2(np, 1)]
array count_of[max2(np, 1)]
do for [k = 1:|names|] {
	names[k] = '?'; withs[k] = ''; med_on[k] = NaN; med_off[k] = NaN; plain[k] = NaN
	span[k] = 0; count_of[k] = 0
}
base_med = NaN
nrounds = 1
if (np > 0 && alternate) {
	stats data index 0 using (names[int($1) + 1] = strcol(2), 0) nooutput
	stats data index 0 using (withs[int($1) + 1] = strcol(10), 0) nooutput
	stats data index 0 using (med_on[int($1) + 1] = $4, 0) nooutput
	stats data index 0 using (med_off[int($1) + 1] = $5, 0) nooutput
	stats data index 0 using (plain[int($1) + 1] = $6, 0) nooutput
	stats data index 0 using (span[int($1) + 1] = $7, 0) nooutput
}
if (np > 0 && !alternate) {
	stats data index 0 using (int($1) > 0 ? (names[int($1)] = strcol(2), 0) : 0) nooutput
	stats data index 0 using (int($1) > 0 ? (med_on[int($1)] = $4, 0) : (base_med = $4, 0)) \
		nooutput
	stats data index 0 using 6 nooutput
	nrounds = max2(1, int(STATS_max))
	do for [k = 1:np] { med_off[k] = base_med }
}
# The points (index 1): how many each panel has, the largest throughput, any dropped or other.
npoints = 0
ndropped = 0
nother = 0
ymax = 0
if (np > 0) {
	undefine STATS_*
	stats data index 1 using 5 nooutput
	npoints = exists('STATS_records') ? int(STATS_records) : 0
}
if (npoints > 0) {
	ymax = STATS_max
}
if (npoints > 0 && alternate) {
	stats data index 1 using (count_of[int($1) + 1] = count_of[int($1) + 1] + 1, \
		ndropped = ndropped + ($6 > 0), nother = nother + (strcol(2) eq 'other'), 0) nooutput
}
if (npoints > 0 && !alternate) {
	stats data index 1 using (int($1) > 0 ? (count_of[int($1)] = count_of[int($1)] + 1, 0) : 0) \
		nooutput
}
do for [k = 1:np] {
	ymax = max2(ymax, max2(ok(med_on[k]), max2(ok(med_off[k]), ok(plain[k]))))
}
xmax = 0
do for [k = 1:np] {
	xmax = max2(xmax, span[k])
}
xmax = xmax > 0 ? xmax : 1.0

# What each style shows: a paper's caption carries the title, the subtitle, the provenance
# and the medians; a talk keeps a title and drops the rest.
paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0
show_stats = !paper

# Numbers as the axis shows them: thousands as k, millions as M.
yscale = ymax >= 2e6 ? 1e6 : (ymax >= 2e3 ? 1e3 : 1)
ysuffix = yscale == 1e6 ? 'M' : (yscale == 1e3 ? 'k' : '')
num(v) = v != v ? 'n/a' : (v >= 1e6 ? sprintf('%.2fM', v / 1e6) : \
	(v >= 1e4 ? sprintf('%.1fk', v / 1e3) : (v >= 1e3 ? sprintf('%.2fk', v / 1e3) : \
	sprintf('%.0f', v))))
# A panel's title (its name, and the other sets of its group: their slices are triangles)
# and its medians.
head(p) = withs[p] ne '' ? sprintf('%s (▲ %s)', names[p], withs[p]) : names[p]
stats_text(p) = count_of[p] == 0 ? '' : (alternate ? sprintf('off %s, on %s', \
	num(med_off[p]), num(med_on[p])) : sprintf('median %s', num(med_on[p])))
empty_text = alternate ? 'no slices' : 'no samples'

# Widths, in inches. Left of the grid: the y axis' name (turned) and the tics' labels.
ytic_w = tw(sprintf('%d%s', ceil(max2(ymax, 1) / yscale * 1.5), ysuffix), 1)
left = pt(2.0) + ytic_w + pt(0.9)
right = pt(1.0)
grid_w = W - left - right
# Between columns: room for an x tic's label at the end of one panel and the start of the next.
xtic_w = tw(alternate ? sprintf('%g', ceil(xmax)) . (xmax < 5 ? '.5' : '') : \
	sprintf('%d', nrounds), 1)
hgap = max2(xtic_w, pt(2)) + pt(1.2)
# The widest title (and medians, when they go on its line) a column must hold.
head_w = 0
stats_w = 0
do for [k = 1:np] {
	head_w = max2(head_w, tw(head(k), 1))
	stats_w = max2(stats_w, show_stats ? tw(stats_text(k), 0.9) : 0)
}
# As many columns as fit, up to as square a grid as the canvas takes (panels wider than
# high). A title may reach over the gap to the next column (titles are a row of their own),
# and past the last column: the right margin then grows by what it needs, ov(c).
ov0(c) = max2(0, head_w + pt(0.4) - (grid_w - (c - 1) * hgap) / c)
ov(c) = c > 1 ? ov0(c) * c / (c - 1.0) : 0
fits(c) = (c == 1 || ov(c) <= hgap * 0.8) && \
	max2(stats_w + pt(0.4), pt(9)) <= (grid_w - ov(c) - (c - 1) * hgap) / c
cols = 1
do for [c = 2:min2(max2(np, 1), ceil(sqrt(max2(np, 1) * W / H * 0.9)))] {
	if (fits(c)) {
		cols = c
	}
}
# The rows filled evenly.
rows = int(ceil(max2(np, 1) * 1.0 / cols))
cols = int(ceil(max2(np, 1) * 1.0 / rows))
right = right + ov(cols)
grid_w = grid_w - ov(cols)
panel_w = (grid_w - (cols - 1) * hgap) / cols
# The medians beside the name when both fit, else on a line of their own.
stats_beside = show_stats && head_w + stats_w + pt(1.5) <= panel_w
head_lines = 1 + (show_stats && !stats_beside)
head_h = pt(0.35) + head_lines * pt(1.35) + pt(0.55)

# The key: a sample (a point, a line or both) and a text an entry, in one row, or more where
# the canvas is too narrow.
array key_text[6]
array key_pt[6]
array key_lc[6]
array key_ln[6]
nkeys = 0
if (npoints > 0 && alternate) {
	nkeys = 1; key_text[1] = 'probes on'; key_pt[1] = 7; key_lc[1] = on_colour; key_ln[1] = ''
	nkeys = 2; key_text[2] = 'all probes off'; key_pt[2] = 6; key_lc[2] = off_colour
	key_ln[2] = ''
	if (nother > 0) {
		nkeys = nkeys + 1; key_text[nkeys] = 'other set (▲) on'; key_pt[nkeys] = 9
		key_lc[nkeys] = other_colour; key_ln[nkeys] = ''
	}
	nkeys = nkeys + 1; key_text[nkeys] = 'medians'; key_pt[nkeys] = 0
	key_lc[nkeys] = text_colour; key_ln[nkeys] = 'dt 2 lw lwx(1.3)'
	nkeys = nkeys + 1; key_text[nkeys] = 'nothing armed'; key_pt[nkeys] = 0
	key_lc[nkeys] = plain_colour; key_ln[nkeys] = 'lw lwx(0.8)'
	if (ndropped > 0) {
		nkeys = nkeys + 1; key_text[nkeys] = 'unit left out'; key_pt[nkeys] = 2
		key_lc[nkeys] = drop_colour; key_ln[nkeys] = ''
	}
}
if (npoints > 0 && !alternate) {
	nkeys = 1; key_text[1] = 'its runs'; key_pt[1] = 7; key_lc[1] = on_colour
	key_ln[1] = 'lw lwx(1)'
	nkeys = 2; key_text[2] = sprintf('no tracing (baseline, median %s)', num(base_med))
	key_pt[2] = 6; key_lc[2] = base_colour; key_ln[2] = 'lw lwx(1)'
	nkeys = 3; key_text[3] = 'medians'; key_pt[3] = 0; key_lc[3] = text_colour
	key_ln[3] = 'dt 2 lw lwx(1.3)'
}
key_sample_of(k) = key_ln[k] ne '' ? pt(3.0) : pt(1.8)
key_gap = pt(1.8)
array key_x[6]
array key_row[6]
array key_row_w[6]
# Rows of as even a length as the widths allow.
key_avail = W - pt(2)
kx = 0
do for [k = 1:nkeys] {
	kx = kx + key_sample_of(k) + tw(key_text[k], 1) + (k > 1 ? key_gap : 0)
}
key_per_row = kx > key_avail ? ceil(nkeys * 1.0 / ceil(kx / key_avail)) : max2(nkeys, 1)
key_rows = 0
kx = 0
in_row = 0
do for [k = 1:nkeys] {
	w = key_sample_of(k) + tw(key_text[k], 1)
	if (k == 1 || kx + w > key_avail || in_row == key_per_row) {
		key_rows = key_rows + 1
		kx = 0
		in_row = 0
	}
	in_row = in_row + 1
	key_x[k] = kx
	key_row[k] = key_rows
	key_row_w[key_rows] = kx + w
	kx = kx + w + key_gap
}
key_lines = nkeys > 0 ? key_rows : (np > 0 ? 1 : 0)

# Heights, in inches, from the top down: the texts above, the rows, the texts below.
above = pt(0.5) + (show_title ? pt(2.3) : 0) + (show_sub ? pt(1.7) : 0) + \
	(note_lines ? note_lines * pt(1.5) + pt(0.2) : 0) + key_lines * pt(1.7) + pt(0.4)
below = pt(1.5) + pt(2.0) + (show_foot ? footer_lines * pt(1.35) + pt(0.9) : pt(0.6))
vgap = pt(0.9)
min_plot_h = style eq "talk" ? pt(4) : pt(6.4)
plot_h = max2(min_plot_h, (H - above - below - rows * head_h - (rows - 1) * vgap) / rows)
grid_h = rows * (head_h + plot_h) + (rows - 1) * vgap
H = max2(H, above + grid_h + below)

# The axes every panel shares.
ytop = ymax > 0 ? ymax / yscale : 1.0
ystep = nice(ytop / max2(1, min2(6, floor(plot_h / pt(1.9)))))
ytop = ceil(ytop / ystep * 1.02) * ystep
xlabel_text = alternate ? 'seconds from the alternation''s first slice' : \
	'round (in each, the measured window of a run, start to end)'
if (alternate) {
	xstep = nice(xmax / max2(1, min2(8, floor(panel_w / (xtic_w + pt(2.5))))))
	xlo = 0
	xhi = xmax
} else {
	xstep = max2(1, ceil(nrounds * 1.0 / max2(1, min2(10, floor(panel_w / (xtic_w + pt(2.5)))))))
	xlo = 0.5
	xhi = nrounds + 0.5
}

# Where panel p goes, as screen fractions: column, row from the top (both from 0).
col_of(p) = (int(p) - 1) % cols
row_of(p) = (int(p) - 1) / cols
px0(p) = (left + col_of(p) * (panel_w + hgap)) / W
px1(p) = (left + col_of(p) * (panel_w + hgap) + panel_w) / W
ptop(p) = 1 - (above + row_of(p) * (head_h + plot_h + vgap) + head_h) / H
pbot(p) = ptop(p) - plot_h / H
# The title's line and the medians' line under it (a text's position is its middle).
phead1(p) = ptop(p) + (pt(0.55) + (head_lines - 0.5) * pt(1.35)) / H
phead2(p) = ptop(p) + (pt(0.55) + 0.5 * pt(1.35)) / H
# A panel shows its x tics' labels when no panel is under it.
below_none(p) = int(p) + cols > np
y_of(inches) = 1 - inches / H
y_title = y_of(pt(0.5) + pt(1.2))
y_sub = y_of(pt(0.5) + (show_title ? pt(2.3) : 0) + pt(0.85))
y_note = y_of(pt(0.5) + (show_title ? pt(2.3) : 0) + (show_sub ? pt(1.7) : 0) + pt(0.85))
y_key(r) = y_of(pt(0.5) + (show_title ? pt(2.3) : 0) + (show_sub ? pt(1.7) : 0) + \
	(note_lines ? note_lines * pt(1.5) + pt(0.2) : 0) + (r - 1) * pt(1.7) + pt(0.85))
y_xlabel = y_of(above + grid_h + pt(1.5) + pt(1.3))
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H

set termoption noenhanced
set border 3 lc rgb text_colour lw lwx(1)
set tics textcolor rgb text_colour
set xtics nomirror out scale 0.5 font ''.fnt(1) offset 0, 0.2
set ytics nomirror out scale 0.5 font ''.fnt(1)
set ytics 0, ystep
set grid ytics lt 1 lc rgb grid_colour lw 1
if (alternate) {
	set xtics 0, xstep
} else {
	set xtics 1, xstep
}
# Under --method runs, a dotted line between rounds (minor tics, where every round is labelled).
if (!alternate && xstep == 1 && nrounds > 1) {
	set mxtics 2
	set grid ytics mxtics lt 1 lc rgb grid_colour lw 1, lt 1 lc rgb '#B0B0B0' lw 1 dt 3
}
set xrange [xlo : xhi]
set yrange [0 : ytop]
set key off
ylabel_text = sprintf('throughput (%s/s)', op_names)

# The texts of the whole figure, set by each draw and drawn with the first panel only (a
# multiplot draws every label with every panel).
frame = 'set label 1 title at screen 0.5, screen y_title center font "".fnt(1.6); ' . \
	'set label 7 xlabel_text at screen (left + grid_w / 2) / W, screen y_xlabel center ' . \
	'font "".fnt(1.05) textcolor rgb text_colour; ' . \
	'set label 8 ylabel_text at screen pt(1.0) / W, screen y_of(above + grid_h / 2) ' . \
	'center rotate by 90 font "".fnt(1.05) textcolor rgb text_colour; '
if (!show_title) frame = frame . 'unset label 1; '
if (show_sub) frame = frame . 'set label 2 subtitle at screen 0.5, screen y_sub center ' . \
	'font "".fnt(1.1) textcolor rgb text_colour; '
if (note ne '') frame = frame . 'set label 6 note_text at screen 0.5, screen y_note center ' . \
	'font "".fnt(1.05) textcolor rgb note_colour; '
if (show_foot) frame = frame . 'set label 3 footer at screen pt(1) / W, screen foot_top left ' . \
	'font "".fnt(0.95) textcolor rgb text_colour; '
if (np > 0 && npoints == 0) frame = frame . sprintf('set label 5 "%s" at screen 0.5, ' . \
	'screen y_key(1) center font "".fnt(1.1) textcolor rgb note_colour; ', alternate ? \
	'no slices in throughput.dat' : 'no throughput samples in throughput.dat')
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
			'ps pscale(ps_pt * 1.15) lw lwx(1) lc rgb key_lc[%d]; ', 40 + k, (kx0 + kx1) / 2, \
			ky, key_pt[k], k)
	}
}
unframe = 'unset label; unset arrow; '

# A panel: its place, its tics' labels where needed, its title above it.
panel = 'set lmargin at screen px0(p); set rmargin at screen px1(p); ' . \
	'set tmargin at screen ptop(p); set bmargin at screen pbot(p); ' . \
	'set format y (col_of(p) == 0 ? "%g".ysuffix : ""); ' . \
	'set format x (below_none(p) ? "%g" : ""); ' . \
	'set label 101 head(p) at screen px0(p), screen phead1(p) left font "".fnt(1) ' . \
	'textcolor rgb "#000000"; ' . \
	'if (count_of[p] == 0) { set label 103 empty_text at graph 0.5, graph 0.5 center ' . \
	'font "".fnt(0.9) textcolor rgb empty_colour } else { unset label 103 }; '
if (show_stats && stats_beside) panel = panel . 'set label 102 stats_text(p) at screen px1(p), ' . \
	'screen phead1(p) right font "".fnt(0.9) textcolor rgb text_colour; '
if (show_stats && !stats_beside) panel = panel . 'set label 102 stats_text(p) at ' . \
	'screen px0(p), screen phead2(p) left font "".fnt(0.9) textcolor rgb text_colour; '

# Its points (ps 1 is a radius of 3 pt): 1.5 pt in a lab, smaller in a paper's panels,
# larger on a slide; reference lines under them, the medians over them.
ps_pt = (paper ? 1.25 : (lab ? 1.5 : 3.0)) / 3
if (alternate) {
	panel_plot = 'plot plain[p] / yscale with lines lw lwx(0.8) lc rgb plain_colour notitle, ' . \
		'data index 1 using 4:(int($1) == p - 1 && strcol(2) eq "on" ? $5 / yscale : NaN) ' . \
		'with points pt 7 ps pscale(ps_pt) lc rgb on_colour notitle, ' . \
		'data index 1 using 4:(int($1) == p - 1 && strcol(2) eq "other" ? $5 / yscale : ' . \
		'NaN) with points pt 9 ps pscale(ps_pt * 1.15) lc rgb other_colour notitle, ' . \
		'data index 1 using 4:(int($1) == p - 1 && strcol(2) eq "off" ? $5 / yscale : NaN) ' . \
		'with points pt 6 ps pscale(ps_pt) lw lwx(0.8) lc rgb off_colour notitle, ' . \
		'data index 1 using 4:(int($1) == p - 1 && $6 > 0 ? $5 / yscale : NaN) ' . \
		'with points pt 2 ps pscale(ps_pt * 1.6) lw lwx(1) lc rgb drop_colour notitle, ' . \
		'med_off[p] / yscale with lines dt 2 lw lwx(1.3) lc rgb off_colour notitle, ' . \
		'med_on[p] / yscale with lines dt 2 lw lwx(1.3) lc rgb on_colour notitle'
} else {
	panel_plot = 'plot data index 1 using ($4 + 0.5):(int($1) == 0 ? $5 / yscale : NaN) ' . \
		'with linespoints pt 6 ps pscale(ps_pt) lw lwx(0.8) lc rgb base_colour notitle, ' . \
		'data index 1 using ($4 + 0.5):(int($1) == p ? $5 / yscale : NaN) ' . \
		'with linespoints pt 7 ps pscale(ps_pt) lw lwx(1) lc rgb on_colour notitle, ' . \
		'med_off[p] / yscale with lines dt 2 lw lwx(1.3) lc rgb base_colour notitle, ' . \
		'med_on[p] / yscale with lines dt 2 lw lwx(1.3) lc rgb on_colour notitle'
}
if (npoints == 0) panel_plot = 'plot NaN notitle'

draw = 'set multiplot; eval frame; ' . \
	'do for [p = 1:np] { eval panel; eval panel_plot; if (p == 1) { eval unframe } }; ' . \
	'unset multiplot'
if (np == 0) draw = 'eval frame; unset label 7; unset label 8; unset border; unset tics; ' . \
	'unset grid; set label 5 "no probe sets in throughput.dat" at screen 0.5, screen 0.5 ' . \
	'center font "".fnt(1.2); plot NaN notitle'
