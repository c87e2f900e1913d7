# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of compare.gp: the throughput slowdown of each probe set in
# several results directories (kernels, machines, engines, workloads), one
# row per probe set (largest at the top), a mark per directory in its own
# colour and shape, side by side within the row, with its 95% confidence
# interval as a whisker; the key above names each directory. loadbench
# compare writes the script as a header that sets the strings title,
# subtitle, footer (what the runs share, footer_lines lines) and note (a
# warning, or ''); then the style's lines (style, W, H, dpi, fs, fnt(k),
# pt(k)); then this file; then the lines that render 'draw' as compare.png,
# compare.svg and compare.pdf. gnuplot reads compare.dat (index 0: member,
# label, baseline_median, baseline_runs; index 1: group, member, name,
# slowdown_pct, ci95_low, ci95_high, throughput_median; index 2: group,
# name; groups sorted by slowdown, smallest first).

if (!exists('title')) title = 'Throughput slowdown under tracing, compared'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('style')) style = 'lab'; W = 600 / 72.0; H = 350 / 72.0; dpi = 144; fs = 7; \
	fnt(k) = sprintf('sans,%.3g', fs * k); pt(k) = fs * k / 72.0

data = 'compare.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe) and a shape each, so that grey print tells them apart.
array colours[7] = [0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0x000000]
array shapes[7] = [7, 5, 9, 13, 11, 15, 3]
colour(m) = colours[int(m) % 7 + 1]
shape(m) = shapes[int(m) % 7 + 1]
whisker_colour = '#000000'
text_colour = '#404040'
note_colour = '#D55E00'
grid_colour = '#D9D9D9'

kops(t) = t >= 1e6 ? sprintf('%.2fM', t / 1e6) : sprintf('%.1fk', t / 1e3)

undefine STATS_*
stats data index 0 using 1 nooutput
k = exists('STATS_records') ? int(STATS_records) : 0
array labels[k > 0 ? k : 1]
array bases[k > 0 ? k : 1]
if (k > 0) {
	stats data index 0 using (labels[int($1) + 1] = strcol(2), bases[int($1) + 1] = $3, 0) \
		nooutput
}
ngroups = 0
name_w = 4
hi = 1.0
lo = 0.0
if (k > 0) {
	undefine STATS_*
	stats data index 2 using 1 nooutput
	ngroups = exists('STATS_records') ? int(STATS_records) : 0
}
if (ngroups > 0) {
	undefine STATS_*
	stats data index 2 using (strlen(strcol(2))) nooutput
	name_w = exists('STATS_max') ? STATS_max : 4
	undefine STATS_*
	stats data index 1 using (valid(6) ? max2($4, $6) : $4) nooutput
	hi = exists('STATS_max') ? max2(STATS_max, 0) : 1
	undefine STATS_*
	stats data index 1 using (valid(5) ? min2($4, $5) : $4) nooutput
	lo = exists('STATS_min') ? min2(STATS_min, 0) : 0
}
span = max2(hi - lo, 1)

paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0

# The key: a line per directory, wrapped after a ', ' to the canvas' width.
key_chars = max2(floor((W - pt(4)) / pt(0.64)), 20)
last_comma(s, i) = i < 2 ? 0 : (s[i:i + 1] eq ', ' ? i : last_comma(s, i - 1))
wrap_key(s, w) = strlen(s) <= w ? s : (wrap_at = last_comma(s, w), wrap_at < 2 ? s : \
	s[1:wrap_at] . "\n    " . wrap_key(s[wrap_at + 2:], w - 4))
key_title(i) = wrap_key(sprintf('%s, baseline %s ops/s', labels[i], kops(bases[i])), key_chars)
lines_of(s) = strlen(s) <= 1 ? 1 : (s[1:1] eq "\n") + lines_of(s[2:])
key_lines = 0
do for [i = 1:k] { key_lines = key_lines + lines_of(key_title(i)) }

# Heights, in inches: a row holds a name, or its marks one above another with room.
row = max2(pt(1.9), k * pt(0.8))
key_h = key_lines * pt(1.3) + k * pt(0.3)
above = (show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + (note_lines ? note_lines * pt(1.45) + pt(0.45) : 0) + \
	key_h + pt(1.2)
below = pt(3.3) + (show_foot ? footer_lines * pt(1.35) + pt(0.9) : pt(0.8))
H = max2(H, above + max2(ngroups, 2) * row + below)
left = name_w * pt(0.64) + pt(1.2)
right = pt(1.5)
graph_w = W - left - right
nice(x) = (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
tic_step = nice(span * 1.0 / max2(floor(graph_w / (pt(0.62) * 5 + pt(1.5))), 1))
centre_x(chars, k) = (c = left + graph_w / 2, w = chars * pt(k) * 0.66, \
	c + w / 2 > W - pt(0.5) ? W - pt(0.5) - w / 2 : (c - w / 2 < pt(0.5) ? pt(0.5) + w / 2 : c)) / W
y_of(inches) = 1 - inches / H
y_title = y_of(pt(1.9))
y_sub = y_of((show_title ? pt(2.6) : 0) + pt(1.3))
y_note = y_of((show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + pt(1.3))
key_top = (show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + (note_lines ? note_lines * pt(1.45) + pt(0.45) : 0) + \
	pt(1.2)
graph_top = y_of(above)
graph_bottom = below / H
y_xlabel = (below - pt(3.0)) / H
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H
# A directory's marks sit one above another inside a row, 70% of it together.
dy = k > 0 ? 0.7 / k : 0.7
ypos(g, m) = g + ((k - 1) / 2.0 - m) * dy
# A whisker's flat heads: a third of a mark's share of the row tall.
head = 0.35 * dy * row / H

set encoding utf8
set termoption noenhanced
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set ytics nomirror scale 0 font ''.fnt(1)
set xtics nomirror out scale 0.6 font ''.fnt(1)
set xtics tic_step
set format x '%g%%'
set grid xtics lt 1 lc rgb grid_colour lw 1
set yzeroaxis lt 1 lc rgb text_colour lw 1.2
set key off
set yrange [-0.6 : max2(ngroups, 1) - 0.4]
set xrange [lo < 0 ? lo - 0.04 * span : 0 : hi + 0.04 * span]
set lmargin at screen left / W
set rmargin at screen 1 - right / W
set tmargin at screen graph_top
set bmargin at screen graph_bottom

if (show_title) set label 1 title at screen 0.5, screen y_title center font ''.fnt(1.6)
if (show_sub) set label 2 subtitle at screen 0.5, screen y_sub center font ''.fnt(1.0) \
	textcolor rgb text_colour
if (note ne '') set label 6 note_text at screen 0.5, screen y_note center font ''.fnt(1.05) \
	textcolor rgb note_colour
if (show_foot) set label 3 footer at screen pt(1) / W, screen foot_top left \
	font ''.fnt(0.95) textcolor rgb text_colour
xlabel_text = 'throughput slowdown vs. no tracing'
set label 7 xlabel_text at screen centre_x(strlen(xlabel_text), 1.1), screen y_xlabel center \
	font ''.fnt(1.1) textcolor rgb text_colour
# The key: each directory's mark, then its label (what differs) and its baseline.
key_y = key_top
do for [i = 1:k] {
	set label 100 + i key_title(i) at screen pt(1.2) / W, screen y_of(key_y + pt(0.7)) left \
		point pt shapes[(i - 1) % 7 + 1] ps fs / 6.0 lc rgb colours[(i - 1) % 7 + 1] \
		offset char 1.5, 0 font ''.fnt(1) textcolor rgb text_colour
	key_y = key_y + lines_of(key_title(i)) * pt(1.3) + pt(0.3)
}
if (ngroups == 0) set label 5 'no probe sets in compare.dat' at graph 0.5, graph 0.5 center \
	font ''.fnt(1.2)

draw = 'plot data index 1 using 5:(ypos($1, $2)):($6 - $5):(0) with vectors heads ' . \
	'size screen head, 90 lc rgb whisker_colour lw 1.2, ' . \
	'data index 1 using 4:(ypos($1, $2)):(shape($2)):(colour($2)) with points ' . \
	'pt variable ps fs / 6.0 lc rgb variable, ' . \
	'data index 2 using (NaN):1:ytic(2) with points ps 0'
if (ngroups == 0) draw = 'plot NaN notitle'
