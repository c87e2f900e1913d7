# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of cost.gp: two bar charts side by side, per probe set, in the
# order of slowdown.gp: the cost of one traced event in nanoseconds (the
# slowdown divided among the events: (1/traced - 1/baseline throughput) /
# events per operation), and the events recorded per operation. A probe set
# that lost events (never recorded: dropped) has that share printed in
# vermillion over its bars. loadbench writes the script into a results
# directory as a header that sets the strings title, subtitle and footer,
# followed by this file; gnuplot runs there and reads cost.dat (columns:
# name, ns_per_event, events_per_op, events, lost_events, lost_pct,
# overwritten_pct, slowdown_pct). It writes cost.png, cost.svg and, with
# cairo's PDF terminal, cost.pdf.

if (!exists('title')) title = 'What each traced event costs'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''

data = 'cost.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe).
cost_colour = '#0072B2'
epo_colour = '#009E73'
lost_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'

max2(a, b) = a > b ? a : b
undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? STATS_records : 0
cost_hi = 1
epo_hi = 1
lost_any = 0
# (Rows whose column is NaN are skipped; a column without any number leaves STATS_max unset.)
if (n > 0) {
	undefine STATS_*
	stats data using 2 nooutput
	cost_hi = exists('STATS_max') ? max2(STATS_max, 1) : 1
	undefine STATS_*
	stats data using 3 nooutput
	epo_hi = exists('STATS_max') ? max2(STATS_max, 0.1) : 1
	undefine STATS_*
	stats data using 5 nooutput
	lost_any = exists('STATS_max') ? STATS_max > 0 : 0
}

many = n > 6
value_font = n > 8 ? ',11' : ',15'
lost_text(lost, pct) = lost > 0 ? sprintf('%.2g%% lost', pct) : ''
ns_text(v) = v >= 1000 ? sprintf('%.2f us', v / 1000) : sprintf('%.0f ns', v)

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set boxwidth 0.6
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror scale 0 font ',15'
set ytics nomirror out scale 0.6 font ',13'
set grid ytics lt 1 lc rgb grid_colour lw 1
set key off
slots = max2(n, 2)
set xrange [(n - 1) / 2.0 - slots / 2.0 : (n - 1) / 2.0 + slots / 2.0]
if (many) set xtics rotate by 30 right font ',13'

# The texts, set again before each terminal's plot: the right panel removes them so that
# they are drawn once.
labels = 'set label 1 title at screen 0.5, screen 0.945 center font ",24"; ' . \
	'set label 2 subtitle at screen 0.5, screen 0.885 center font ",14" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 3 footer at screen 0.012, screen 0.065 left font ",11" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 4 (lost_any ? "vermillion: the share of events lost (dropped, never ' . \
	'recorded)" : "no events were lost") at screen 0.5, screen 0.125 center font ",12" ' . \
	'textcolor rgb (lost_any ? lost_colour : text_colour)'
if (n == 0) set label 5 'no probe sets in cost.dat' at screen 0.5, screen 0.5 center \
	font ',18'; unset xtics

# Left: ns per event (value above the bar; the lost share above it).
left = 'set lmargin at screen 0.07; set rmargin at screen 0.48; ' . \
	'set yrange [0 : cost_hi * 1.25]; set format y "%g"; ' . \
	'set title "cost of one event (ns)" font ",16" textcolor rgb text_colour; ' . \
	'plot data using 0:2:xticlabels(1) with boxes lc rgb cost_colour, ' . \
	'data using 0:(valid(2) ? $2 : NaN):(ns_text($2)) with labels offset 0, char 0.8 ' . \
	'font value_font, ' . \
	'data using 0:(valid(2) ? $2 : 0):(lost_text($5, $6)) with labels offset 0, char 2.0 ' . \
	'font value_font tc rgb lost_colour'
right = 'unset label 1; unset label 2; unset label 3; unset label 4; ' . \
	'set lmargin at screen 0.56; set rmargin at screen 0.97; ' . \
	'set yrange [0 : epo_hi * 1.25]; set format y "%g"; ' . \
	'set title "events per operation (round trip)" font ",16" textcolor rgb text_colour; ' . \
	'plot data using 0:3:xticlabels(1) with boxes lc rgb epo_colour, ' . \
	'data using 0:(valid(3) ? $3 : NaN):(sprintf("%.1f", $3)) with labels offset 0, ' . \
	'char 0.8 font value_font, ' . \
	'data using 0:(valid(3) ? $3 : 0):(lost_text($5, $6)) with labels offset 0, char 2.0 ' . \
	'font value_font tc rgb lost_colour'
draw = labels . '; set multiplot; set tmargin at screen 0.78; ' . \
	'set bmargin at screen (many ? 0.3 : 0.2); ' . left . '; ' . right . \
	'; unset multiplot'
if (n == 0) draw = labels . '; unset label 4; set yrange [0 : 1]; set border 0; ' . \
	'unset ytics; plot NaN notitle'

set terminal pngcairo size 1200, 700 font 'sans,14' background rgb 'white' noenhanced
set output 'cost.png'
eval draw
set output

set terminal svg size 1200, 700 dynamic font 'sans,14' background rgb 'white' noenhanced
set output 'cost.svg'
eval draw
set output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
	set terminal pdfcairo size 1200 / 72.0, 700 / 72.0 font 'sans,14' noenhanced
	set output 'cost.pdf'
	eval draw
	set output
}
