# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of compare.gp: the throughput slowdown of each probe set in
# several results directories (kernels, machines, engines, workloads) as
# grouped bars: one group per probe set, one bar per results directory,
# with the 95% confidence interval as a whisker and the value on the bar.
# loadbench compare writes the script as a header that sets the strings
# title, subtitle, footer (what the runs share, footer_lines lines) and note
# (a warning, or ''), followed by this file; gnuplot reads compare.dat
# (index 0: member, label, baseline_median, baseline_runs; index 1: group,
# member, name, slowdown_pct, ci95_low, ci95_high, throughput_median;
# index 2: group, name). It writes compare.png, compare.svg and, with
# cairo's PDF terminal, compare.pdf.

if (!exists('title')) title = 'Throughput slowdown under tracing, compared'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''

data = 'compare.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe), one per results directory.
array colours[7] = [0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0x000000]
colour(m) = colours[int(m) % 7 + 1]
whisker_colour = '#000000'
text_colour = '#404040'
note_colour = '#D55E00'
grid_colour = '#D9D9D9'

max2(a, b) = a > b ? a : b
min2(a, b) = a < b ? a : b
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
name_len = 4
hi = 1
lo = 0
if (k > 0) {
	undefine STATS_*
	stats data index 2 using 1 nooutput
	ngroups = exists('STATS_records') ? int(STATS_records) : 0
}
if (ngroups > 0) {
	undefine STATS_*
	stats data index 2 using (strlen(strcol(2))) nooutput
	name_len = exists('STATS_max') ? STATS_max : 4
}
# (Rows with a NaN in a column used are skipped; without any number STATS_* stay unset.)
if (ngroups > 0) {
	undefine STATS_*
	stats data index 1 using 4 nooutput
	hi = exists('STATS_max') ? max2(STATS_max, 0) : 1
	lo = exists('STATS_min') ? min2(STATS_min, 0) : 0
	undefine STATS_*
	stats data index 1 using 6 nooutput
	hi = exists('STATS_max') ? max2(STATS_max, hi) : hi
	undefine STATS_*
	stats data index 1 using 5 nooutput
	lo = exists('STATS_min') ? min2(STATS_min, lo) : lo
}
span = max2(hi - lo, 1)
# Room for the values: above the bars, and more when they stand upright (three or more runs).
upright = k > 2
ymax = hi + (upright ? 0.22 : 0.14) * span
ymin = lo < 0 ? lo - (upright ? 0.05 : 0.14) * span : 0

# Bars of one group side by side, 80% of a group's width together.
bw = k > 0 ? 0.8 / k : 0.8
xpos(g, m) = g + (m - (k - 1) / 2.0) * bw
pct(y) = sprintf('%.1f%%', y)
value_font = k * ngroups > 12 ? fnt(0.96) : (upright ? fnt(1.15) : fnt(1.35))
# Probe-set names slant when they would not fit side by side (~1000 px, 10 px a character).
slant = ngroups * (name_len + 2) * 10 > 1000
# A key entry: the label (what differs), then the baseline; wrapped after a ', ' at key_width
# characters onto indented lines.
key_width = 115
last_comma(s, i) = i < 2 ? 0 : (s[i:i + 1] eq ', ' ? i : last_comma(s, i - 1))
wrap(s, w) = strlen(s) <= w ? s : (wrap_at = last_comma(s, w), wrap_at < 2 ? s : \
	s[1:wrap_at] . "\n    " . wrap(s[wrap_at + 2:], w - 4))
key_title(i) = wrap(sprintf('%s, baseline %s ops/s', labels[i], kops(bases[i])), key_width)
lines_of(s) = strlen(s) <= 1 ? 1 : (s[1:1] eq "\n") + lines_of(s[2:])

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set boxwidth bw * 0.9
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror scale 0 font ''.fnt(1.63)
if (slant) set xtics rotate by 30 right font ''.fnt(1.35)
set ytics nomirror out scale 0.6 font ''.fnt(1.35)
set format y '%g%%'
set grid ytics lt 1 lc rgb grid_colour lw 1
set xzeroaxis lt 1 lc rgb text_colour lw 1.2
set ylabel 'throughput slowdown vs. no tracing' font ''.fnt(1.44) textcolor rgb text_colour \
	offset -1, 0
slots = max2(ngroups, 2)
set xrange [(ngroups - 1) / 2.0 - slots / 2.0 : (ngroups - 1) / 2.0 + slots / 2.0]
set yrange [ymin : ymax]
# From the top: title, subtitle, note, the key (a coloured square and the wrapped entry per
# run, drawn as objects and labels: gnuplot's key overlaps entries of several lines), the
# plot; at the bottom the footer, its first line at foot_top.
key_y = note ne '' ? 0.815 : 0.85
do for [i = 1:k] {
	set object 100 + i rect from screen 0.11, screen key_y - 0.011 \
		to screen 0.125, screen key_y + 0.011 front fillcolor rgb colours[(i - 1) % 7 + 1] \
		fillstyle solid 1.0 border lc rgb '#1F1F1F'
	set label 100 + i key_title(i) at screen 0.135, screen key_y left font ''.fnt(1.25) \
		textcolor rgb text_colour
	key_y = key_y - 0.03 * lines_of(key_title(i)) - 0.006
}
set key off
foot_top = 0.03 + (footer_lines > 1 ? footer_lines - 1 : 0) * 0.024
set lmargin at screen 0.11
set rmargin at screen 0.97
set tmargin at screen key_y - 0.02
set bmargin at screen foot_top + (slant ? 0.16 : 0.1)

set label 1 title at screen 0.5, screen 0.945 center font ''.fnt(2.31)
set label 2 subtitle at screen 0.5, screen 0.895 center font ''.fnt(1.35) textcolor rgb text_colour
set label 3 footer at screen 0.012, screen foot_top left font ''.fnt(1.06) \
	textcolor rgb text_colour
if (note ne '') set label 6 note at screen 0.5, screen 0.855 center font ''.fnt(1.25) \
	textcolor rgb note_colour
if (ngroups == 0) set label 5 'no probe sets in compare.dat' at graph 0.5, graph 0.5 center \
	font ''.fnt(1.73); unset xtics

draw = 'plot data index 1 using (xpos($1, $2)):4:(colour($2)) with boxes lc rgb variable, ' . \
	'data index 1 using (xpos($1, $2)):5:(0):($6 - $5) with vectors heads ' . \
	'size screen 0.006, 90 lc rgb whisker_colour lw 1.5, ' . \
	(upright ? \
	'data index 1 using (xpos($1, $2)):(valid(4) ? max2(0, valid(6) ? $6 : $4) : NaN):' . \
	'(pct($4)) with labels rotate by 90 left offset 0, char 0.4 font value_font, ' : \
	'data index 1 using (xpos($1, $2)):(valid(4) && $4 >= 0 ? ' . \
	'max2($4, valid(6) ? $6 : $4) : NaN):(pct($4)) with labels offset 0, char 0.8 ' . \
	'font value_font, ' . \
	'data index 1 using (xpos($1, $2)):(valid(4) && $4 < 0 ? ' . \
	'min2($4, valid(5) ? $5 : $4) : NaN):(pct($4)) with labels offset 0, char -0.8 ' . \
	'font value_font, ') . \
	'data index 2 using 1:(NaN):xticlabels(2) with points ps 0'
if (ngroups == 0) draw = 'plot NaN notitle'
