# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of compare.gp: the throughput slowdown of each probe set in
# several results directories (kernels, machines, engines, workloads) as
# grouped bars: one group per probe set, one bar per results directory,
# with the 95% confidence interval as a whisker and the value on the bar.
# loadbench compare writes the script as a header that sets the strings
# title, subtitle and footer (one line per results directory) and the
# number footer_lines, followed by this file; gnuplot reads compare.dat
# (index 0: member, label, baseline_median, baseline_runs; index 1: group,
# member, name, slowdown_pct, ci95_low, ci95_high, throughput_median;
# index 2: group, name). It writes compare.png, compare.svg and, with
# cairo's PDF terminal, compare.pdf.

if (!exists('title')) title = 'Throughput slowdown under tracing, compared'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2

data = 'compare.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe), one per results directory.
array colours[7] = [0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0x000000]
colour(m) = colours[int(m) % 7 + 1]
whisker_colour = '#000000'
text_colour = '#404040'
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
hi = 1
lo = 0
if (k > 0) {
	undefine STATS_*
	stats data index 2 using 1 nooutput
	ngroups = exists('STATS_records') ? int(STATS_records) : 0
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
ymax = hi + 0.14 * span
ymin = lo < 0 ? lo - 0.14 * span : 0

# Bars of one group side by side, 80% of a group's width together.
bw = k > 0 ? 0.8 / k : 0.8
xpos(g, m) = g + (m - (k - 1) / 2.0) * bw
pct(y) = sprintf('%.1f%%', y)
value_font = k * ngroups > 12 ? ',10' : ',14'
key_title(i) = sprintf('%s (baseline %s ops/s)', labels[i], kops(bases[i]))

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set boxwidth bw * 0.9
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror scale 0 font ',17'
set ytics nomirror out scale 0.6 font ',14'
set format y '%g%%'
set grid ytics lt 1 lc rgb grid_colour lw 1
set xzeroaxis lt 1 lc rgb text_colour lw 1.2
set ylabel 'throughput slowdown vs. no tracing' font ',15' textcolor rgb text_colour \
	offset -1, 0
slots = max2(ngroups, 2)
set xrange [(ngroups - 1) / 2.0 - slots / 2.0 : (ngroups - 1) / 2.0 + slots / 2.0]
set yrange [ymin : ymax]
set key at screen 0.11, screen 0.85 left top horizontal Left reverse samplen 1.5 width 2 \
	maxrows (k > 2 ? 2 : 1) font ',13' textcolor rgb text_colour noautotitle

bottom = 0.05 + 0.03 * footer_lines
set lmargin at screen 0.11
set rmargin at screen 0.97
set tmargin at screen (k > 2 ? 0.76 : 0.79)
set bmargin at screen bottom + 0.1

set label 1 title at screen 0.5, screen 0.945 center font ',24'
set label 2 subtitle at screen 0.5, screen 0.895 center font ',14' textcolor rgb text_colour
set label 3 footer at screen 0.012, screen bottom - 0.02 left font ',11' \
	textcolor rgb text_colour
if (ngroups == 0) set label 5 'no probe sets in compare.dat' at graph 0.5, graph 0.5 center \
	font ',18'; unset xtics

draw = 'plot for [i = 1:k] keyentry with boxes lc rgb colours[(i - 1) % 7 + 1] ' . \
	'title key_title(i), ' . \
	'data index 1 using (xpos($1, $2)):4:(colour($2)) with boxes lc rgb variable, ' . \
	'data index 1 using (xpos($1, $2)):5:(0):($6 - $5) with vectors heads ' . \
	'size screen 0.006, 90 lc rgb whisker_colour lw 1.5, ' . \
	'data index 1 using (xpos($1, $2)):(valid(4) && $4 >= 0 ? ' . \
	'max2($4, valid(6) ? $6 : $4) : NaN):(pct($4)) with labels offset 0, char 0.8 ' . \
	'font value_font, ' . \
	'data index 1 using (xpos($1, $2)):(valid(4) && $4 < 0 ? ' . \
	'min2($4, valid(5) ? $5 : $4) : NaN):(pct($4)) with labels offset 0, char -0.8 ' . \
	'font value_font, ' . \
	'data index 2 using 1:(NaN):xticlabels(2) with points ps 0'
if (ngroups == 0) draw = 'plot NaN notitle'

set terminal pngcairo size 1200, 700 font 'sans,14' background rgb 'white' noenhanced
set output 'compare.png'
eval draw
set output

set terminal svg size 1200, 700 dynamic font 'sans,14' background rgb 'white' noenhanced
set output 'compare.svg'
eval draw
set output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
	set terminal pdfcairo size 1200 / 72.0, 700 / 72.0 font 'sans,14' noenhanced
	set output 'compare.pdf'
	eval draw
	set output
}
