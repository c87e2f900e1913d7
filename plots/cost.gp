# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of cost.gp: two horizontal bar charts side by side, one row per
# probe set in the order of slowdown.gp (top to bottom): the cost of one
# traced event in nanoseconds (the slowdown divided among the events:
# (1/traced - 1/baseline throughput) / events per operation), and the
# events recorded per operation, with what happened to them in a column on
# the right: lost (dropped, never recorded) in vermillion, overwritten
# (recorded, then overwritten by the flight recorder: counted in the
# events, and so in the cost) in grey. loadbench writes the script into a
# results directory as a header that sets the strings title, subtitle,
# footer (footer_lines lines), note (a warning such as emulated timings, or
# '') and op_name, followed by this file; gnuplot runs there and reads
# cost.dat (columns: name, ns_per_event, events_per_op, events,
# lost_events, lost_pct, overwritten_pct, slowdown_pct, mark, ns_ci_lo,
# ns_ci_hi: the cost's 95% CI, drawn as whiskers where it has one). It writes
# cost.png, cost.svg and, with cairo's PDF terminal, cost.pdf.

if (!exists('title')) title = 'What each traced event costs'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''
if (!exists('op_name')) op_name = 'operation'

data = 'cost.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe).
cost_colour = '#0072B2'
epo_colour = '#009E73'
lost_colour = 0xD55E00
overwritten_colour = 0x404040
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'

max2(a, b) = a > b ? a : b
min2(a, b) = a < b ? a : b
undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? int(STATS_records) : 0
cost_hi = 1
cost_lo = 0
epo_hi = 1
lost_any = 0
ci_any = 0
overwritten_any = 0
name_len = 4
# (Rows whose column is NaN are skipped; a column without any number leaves STATS_max unset.)
if (n > 0) {
	undefine STATS_*
	stats data using 2 nooutput
	cost_hi = exists('STATS_max') ? max2(STATS_max, 1) : 1
	cost_lo = exists('STATS_min') ? min2(STATS_min, 0) : 0
	# The whiskers: the CI's ends widen the panel too.
	undefine STATS_*
	stats data using 11 nooutput
	cost_hi = exists('STATS_max') ? max2(STATS_max, cost_hi) : cost_hi
	ci_any = exists('STATS_max')
	undefine STATS_*
	stats data using 10 nooutput
	cost_lo = exists('STATS_min') ? min2(STATS_min, cost_lo) : cost_lo
	undefine STATS_*
	stats data using 3 nooutput
	epo_hi = exists('STATS_max') ? max2(STATS_max, 0.1) : 1
	undefine STATS_*
	stats data using 5 nooutput
	lost_any = exists('STATS_max') ? STATS_max > 0 : 0
	undefine STATS_*
	stats data using 7 nooutput
	overwritten_any = exists('STATS_max') ? STATS_max > 0 : 0
	undefine STATS_*
	stats data using (strlen(strcol(1))) nooutput
	name_len = exists('STATS_max') ? STATS_max : 4
}
marks = lost_any || overwritten_any

ns_text(v) = (abs(v) >= 1000 ? sprintf('%.2f us', v / 1000) : sprintf('%.0f ns', v)) . \
	(v < 0 ? ' (below 0: noise)' : '')
# A tic step that gives about four tics over @span: 1, 2 or 5 times a power of ten.
tic_step(span) = (tic_m = 10 ** floor(log10(span / 4)), tic_r = span / 4 / tic_m, \
	(tic_r <= 1 ? 1 : tic_r <= 2 ? 2 : tic_r <= 5 ? 5 : 10) * tic_m)
row_font = n > 10 ? fnt(1.06) : (n > 6 ? fnt(1.25) : fnt(1.44))
value_font = n > 10 ? fnt(0.96) : (n > 6 ? fnt(1.15) : fnt(1.35))
mark_colour(lost) = lost > 0 ? lost_colour : overwritten_colour

# Layout: the names left of the cost panel, the events panel, the column of
# marks right of it; the footer's first line at foot_top, its last near the bottom edge.
foot_top = 0.03 + (max2(footer_lines, 1) - 1) * 0.024
top = note ne '' ? 0.74 : 0.78
bottom = foot_top + (marks ? 0.16 : 0.12)
names_right = min2(0.06 + name_len * 0.0085, 0.3)
cost_right = names_right + (marks ? 0.66 : 0.85) * (0.97 - names_right) / 2 - 0.03
epo_left = cost_right + 0.06
epo_right = marks ? 0.72 : 0.97

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set ytics nomirror scale 0 font row_font
set xtics nomirror out scale 0.6 font ''.fnt(1.15)
set grid xtics lt 1 lc rgb grid_colour lw 1
set key off
set yrange [n - 0.5 : -0.5]
set tmargin at screen top
set bmargin at screen bottom

# The texts, set again before each terminal's plot: the right panel removes them so that
# they are drawn once.
labels = 'set label 1 title at screen 0.5, screen 0.945 center font "' . fnt(2.29) . '"; ' . \
	'set label 2 subtitle at screen 0.5, screen 0.885 center font "' . fnt(1.33) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 3 footer at screen 0.012, screen foot_top left font "' . fnt(1.05) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 4 "cost = (1/traced - 1/baseline throughput) / events per " . op_name . ' . \
	'(ci_any ? "; whiskers: the 95% CI of the slowdown, per event" : "") . ' . \
	'(marks ? ".\nlost: dropped, never recorded. overwritten: recorded, then overwritten ' . \
	'by the flight recorder (counted in the events, so in the cost)." : ".") ' . \
	'at screen 0.5, screen foot_top + (marks ? 0.075 : 0.05) center font "' . fnt(1.14) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 6 note at screen 0.5, screen 0.845 center font "' . fnt(1.33) . '" ' . \
	'textcolor rgb note_colour'
if (n == 0) set label 5 'no probe sets in cost.dat' at screen 0.5, screen 0.5 center \
	font ''.fnt(1.73); unset ytics

# Left: ns per event (value right of the bar; a negative cost, noise, left of zero).
left = 'set lmargin at screen names_right; set rmargin at screen cost_right; ' . \
	'set xrange [cost_lo < 0 ? cost_lo * 1.3 - 0.05 * cost_hi : 0 : cost_hi * 1.3]; ' . \
	'set xtics tic_step(cost_hi * 1.3 - min2(cost_lo * 1.3, 0)); ' . \
	'set format x "%g"; set yzeroaxis lt 1 lc rgb text_colour lw 1.2; ' . \
	'set title "cost of one event (ns)" font "' . fnt(1.52) . '" textcolor rgb text_colour; ' . \
	'plot data using ($2 / 2):0:(abs($2) / 2):(0.3) with boxxyerror lc rgb cost_colour, ' . \
	'data using 2:0:10:11 with xerrorbars lc rgb text_colour lw 1.5 pt 7 ps 0, ' . \
	'data using (valid(11) ? max2($11, 0) : valid(2) ? max2($2, 0) : 0):0:' . \
	'(valid(2) ? ns_text($2) : "n/a") with labels left offset char 0.6, 0 font value_font, ' . \
	'data using (0):0:ytic(1) with points ps 0'
# Right: events per operation, and the marks beyond the panel's right edge.
right = 'unset label 1; unset label 2; unset label 3; unset label 4; unset label 6; ' . \
	'set lmargin at screen epo_left; set rmargin at screen epo_right; ' . \
	'set xrange [0 : epo_hi * 1.25]; set xtics tic_step(epo_hi * 1.25); ' . \
	'set format x "%g"; set ytics format ""; ' . \
	'set title sprintf("events per %s", op_name) font "' . fnt(1.52) . '" textcolor rgb text_colour; ' . \
	'set label 8 (marks ? "lost or overwritten" : "") at screen epo_right + 0.01, ' . \
	'screen top + 0.015 left font "' . fnt(1.24) . '" textcolor rgb text_colour; ' . \
	'plot data using ($3 / 2):0:($3 / 2):(0.3) with boxxyerror lc rgb epo_colour, ' . \
	'data using (valid(3) ? $3 : 0):0:(valid(3) ? sprintf("%.1f", $3) : "n/a") ' . \
	'with labels left offset char 0.6, 0 font value_font, ' . \
	'data using (epo_hi * 1.25):0:(strcol(9) ne "none" ? strcol(9) : ""):' . \
	'(mark_colour($5)) with labels left offset char 1.5, 0 font value_font ' . \
	'tc rgb variable; unset label 8'
draw = labels . '; set multiplot; ' . left . '; ' . right . '; unset multiplot'
if (n == 0) draw = labels . '; unset label 4; set xrange [0 : 1]; set yrange [0 : 1]; ' . \
	'set border 0; ' . \
	'unset xtics; plot NaN notitle'
