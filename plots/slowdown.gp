# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of slowdown.gp: a bar chart of the throughput slowdown (%) each
# probe set causes, with its 95% confidence interval as a whisker and the
# value printed on the bar, over a grey band where a slowdown cannot be told
# from noise (2 x the baseline's coefficient of variation). loadbench writes
# the script into a results directory as a header that sets the strings
# title, subtitle, footer (footer_lines lines), note (a warning such as
# emulated timings, or '') and op_name, and the number noise_pct (NaN when
# unknown), followed by this file; gnuplot runs there and reads slowdown.dat from the
# working directory (columns: name, slowdown_pct, ci95_low, ci95_high,
# throughput_median). Under --method alternate the header also sets
# alternate = 1 and the whisker texts ci_label and no_ci_label, and
# slowdown.dat has the columns units, ci_half_width and precision_reached:
# each bar's label says over how many units its interval is. It writes
# slowdown.png, slowdown.svg and, when gnuplot has cairo's PDF terminal,
# slowdown.pdf.

if (!exists('title')) title = 'Throughput slowdown under tracing'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''
if (!exists('noise_pct')) noise_pct = NaN
if (!exists('alternate')) alternate = 0
if (!exists('ci_label')) ci_label = 'whiskers: 95% confidence interval'
if (!exists('no_ci_label')) no_ci_label = 'no confidence interval: it needs 2 or more rounds'

data = 'slowdown.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe): blue bars, black whiskers, grey text.
bar_colour = '#0072B2'
note_colour = '#D55E00'
noise_colour = '#EBEBEB'
whisker_colour = '#000000'
text_colour = '#404040'
grid_colour = '#D9D9D9'

# Rows, and the data's extent including the confidence intervals.
undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? STATS_records : 0
max2(a, b) = a > b ? a : b
min2(a, b) = a < b ? a : b
top(y, hi) = max2(y, hi)
bottom(y, lo) = min2(y, lo)
hi = 1
lo = 0
if (n > 0) {
	undefine STATS_*
	stats data using (valid(4) ? max2($2, $4) : $2) nooutput
	hi = exists('STATS_max') ? max2(STATS_max, 0) : 1
	undefine STATS_*
	stats data using (valid(3) ? min2($2, $3) : $2) nooutput
	lo = exists('STATS_min') ? min2(STATS_min, 0) : 0
}
# Whether any probe set has a confidence interval (none with a single round).
has_ci = 0
if (n > 0) {
	undefine STATS_*
	stats data using ($4 - $3) nooutput
	has_ci = exists('STATS_max')
}
span = max2(hi - lo, 1)
# Room above the highest bar for its label (and below a negative one).
ymax = hi + 0.14 * span
ymin = lo < 0 ? lo - 0.14 * span : 0

# Labels: the slowdown on each bar, above the whisker (below it when negative);
# under each bar the probe set's name and throughput (just the name, slanted,
# when there are many, or when the labels side by side would run into each
# other: about 90 characters of the 17-point font fit across).
name_w = 0
if (n > 0) {
	undefine STATS_*
	stats data using (strlen(strcol(1))) nooutput
	name_w = exists('STATS_max') ? STATS_max : 0
}
label_w = max2(name_w, alternate ? 20 : 11)
many = n > 8 || n * label_w > 90
pct(y) = sprintf('%.1f%%', y)
kops(t) = t >= 1e6 ? sprintf('%.2fM ops/s', t / 1e6) : sprintf('%.1fk ops/s', t / 1e3)
units_of(col) = alternate && valid(col) ? sprintf(', %d units', int(column(col))) : ''
xlabel_of(col) = !many && valid(5) && $5 > 0 ? \
	sprintf("%s\n%s%s", strcol(col), kops($5), units_of(6)) : strcol(col)
value_font = n > 12 ? ',12' : ',16'

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set boxwidth 0.6
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror scale 0 font ',17'
set ytics nomirror out scale 0.6 font ',15'
set format y '%g%%'
set grid ytics lt 1 lc rgb grid_colour lw 1
set xzeroaxis lt 1 lc rgb text_colour lw 1.2
set ylabel 'throughput slowdown vs. no tracing' font ',16' textcolor rgb text_colour offset -1, 0
set key off
# At least three bar widths of room, so that one or two bars stay bar-shaped.
slots = max2(n, 3)
set xrange [(n - 1) / 2.0 - slots / 2.0 : (n - 1) / 2.0 + slots / 2.0]
set yrange [ymin : ymax]
if (many) set xtics rotate by 30 right font ',14'

set lmargin at screen 0.11
set rmargin at screen 0.97
# The footer's first line sits at foot_top, its last near the bottom edge.
foot_top = 0.03 + (max2(footer_lines, 1) - 1) * 0.024
top = note ne '' ? 0.78 : 0.82
set tmargin at screen top
set bmargin at screen foot_top + (many ? 0.265 : 0.155)

set label 1 title at screen 0.5, screen 0.945 center font ',24'
set label 2 subtitle at screen 0.5, screen 0.885 center font ',16' textcolor rgb text_colour
set label 3 footer at screen 0.012, screen foot_top left font ',11' textcolor rgb text_colour
set label 4 (has_ci ? ci_label : no_ci_label) at screen 0.97, screen top + 0.025 \
	right font ',12' textcolor rgb text_colour
if (note ne '') set label 6 note at screen 0.5, screen 0.845 center font ',14' \
	textcolor rgb note_colour
# Slowdowns inside +-noise_pct cannot be told from the baseline's own variation.
if (n > 0 && noise_pct == noise_pct && noise_pct > 0) {
	set object 1 rect from graph 0, first -noise_pct to graph 1, first noise_pct \
		behind fillcolor rgb noise_colour fillstyle solid 1.0 noborder
	set label 7 sprintf('grey band: within noise (± 2 × baseline CV = ± %.1f%%)', \
		noise_pct) at screen 0.11, screen top + 0.025 left font ',12' \
		textcolor rgb text_colour
}
if (n == 0) set label 5 'no probe sets in slowdown.dat' at graph 0.5, graph 0.5 center \
	font ',18'; unset xtics

# Whiskers are vectors with flat heads (yerrorbars leave a gap at the point).
draw = 'plot data using 0:2 with boxes lc rgb bar_colour, ' . \
	'data using 0:3:(0):($4 - $3) with vectors heads size screen 0.01, 90 ' . \
	'lc rgb whisker_colour lw 2, ' . \
	'data using 0:(valid(2) && $2 >= 0 ? top($2, valid(4) ? $4 : $2) : NaN):(pct($2)) ' . \
	'with labels offset 0, char 0.9 font value_font, ' . \
	'data using 0:(valid(2) && $2 < 0 ? bottom($2, valid(3) ? $3 : $2) : NaN):(pct($2)) ' . \
	'with labels offset 0, char -0.9 font value_font, ' . \
	'data using 0:(valid(2) ? NaN : 0):("n/a") with labels offset 0, char 0.9 ' . \
	'font value_font, ' . \
	'data using 0:(ymin):xticlabels(xlabel_of(1)) with points pt 7 ps 0'
if (n == 0) draw = 'plot NaN notitle'

set terminal pngcairo size 1200, 700 font 'sans,14' background rgb 'white' noenhanced
set output 'slowdown.png'
eval draw
set output

set terminal svg size 1200, 700 dynamic font 'sans,14' fontscale 1.3 background rgb 'white' \
	noenhanced
set output 'slowdown.svg'
eval draw
set output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
	set terminal pdfcairo size 1200 / 144.0, 700 / 144.0 font 'sans,14' noenhanced
	set output 'slowdown.pdf'
	eval draw
	set output
}
