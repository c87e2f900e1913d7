# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of cost.gp: what each traced event costs, one row per probe set
# (the costliest at the top), in two panels that share the rows: the cost of
# one event in nanoseconds (the slowdown divided among the events: (1/traced -
# 1/untraced throughput) / events per operation) as a dot with the slowdown's
# 95% CI per event as a whisker, on a log axis when the costs span more than
# 20x (logx = 1 in the header); and the events recorded per operation as a
# bar. Each panel's numbers stand in a column of their own at its right, and
# what happened to the events in a last column: lost (dropped, never
# recorded) in vermillion, overwritten (recorded, then overwritten by the
# flight recorder: counted in the events, and so in the cost) in grey.
# loadbench writes the script into a results directory as a header that sets
# the strings title, subtitle, footer (footer_lines lines), note (a warning
# such as emulated timings, or '') and op_name, and logx; then the style's
# lines (style, W, H, dpi, fs, fnt(k), pt(k)); then this file; then the lines
# that render 'draw' as cost.png, cost.svg and cost.pdf. gnuplot reads
# cost.dat (columns: name, ns_per_event, events_per_op, events, lost_events,
# lost_pct, overwritten_pct, slowdown_pct, mark, ns_ci_lo, ns_ci_hi), sorted
# by cost, smallest first.

if (!exists('title')) title = 'What each traced event costs'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 0
if (!exists('note')) note = ''
if (!exists('op_name')) op_name = 'operation'
if (!exists('logx')) logx = 0
if (!exists('style')) style = 'lab'; W = 600 / 72.0; H = 350 / 72.0; dpi = 144; fs = 7; \
	fnt(k) = sprintf('sans,%.3g', fs * k); pt(k) = fs * k / 72.0

data = 'cost.dat'
set datafile missing 'NaN'

# Okabe-Ito colours (colour-blind safe); the cost a dot, the events a bar.
cost_colour = '#0072B2'
epo_colour = '#009E73'
lost_colour = 0xD55E00
overwritten_colour = 0x404040
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'

undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? int(STATS_records) : 0
cost_hi = 1.0
cost_lo = 0.0
pos_lo = 1.0
epo_hi = 1.0
marks = 0
name_w = 4
mark_w = 0
# (Rows whose column is NaN are skipped; a column without any number leaves STATS_* unset.)
if (n > 0) {
	undefine STATS_*
	stats data using (valid(11) ? max2($2, $11) : $2) nooutput
	cost_hi = exists('STATS_max') ? max2(STATS_max, 1) : 1
	undefine STATS_*
	stats data using (valid(10) ? min2($2, $10) : $2) nooutput
	cost_lo = exists('STATS_min') ? min2(STATS_min, 0) : 0
	# The smallest cost above 0, where a log axis starts (a whisker below it is cut).
	undefine STATS_*
	stats data using ($2 > 0 ? $2 : NaN) nooutput
	pos_lo = exists('STATS_min') ? STATS_min : 1
	undefine STATS_*
	stats data using 3 nooutput
	epo_hi = exists('STATS_max') ? max2(STATS_max, 0.1) : 1
	undefine STATS_*
	stats data using (strlen(strcol(1))) nooutput
	name_w = exists('STATS_max') ? STATS_max : 4
	undefine STATS_*
	stats data using (strcol(9) ne 'none' ? strlen(strcol(9)) : 0) nooutput
	mark_w = exists('STATS_max') ? STATS_max : 0
	marks = mark_w > 0
}

paper = style eq 'paper'
lab = style eq 'lab'
show_title = !paper
show_sub = lab && subtitle ne ''
show_foot = lab && footer_lines > 0
show_how = lab

ns_text(v) = abs(v) >= 1000 ? sprintf('%.2f us', v / 1000) : sprintf('%.0f ns', v)
ns_short(v) = abs(v) >= 1000 ? sprintf('%.1f us', v / 1000) : sprintf('%.0f ns', v)
# The cost's column: the number, and (a lab notebook) its interval.
with_ci = lab
cost_of(c) = !valid(2) ? 'n/a' : (with_ci && valid(10) && valid(11) ? \
	sprintf('%s [%s, %s]', ns_text($2), ns_short($10), ns_short($11)) : ns_text($2)) . \
	($2 < 0 ? ' (noise)' : '')
cost_chars = with_ci ? 26 : 13
epo_chars = 6
mark_colour(lost) = lost > 0 ? lost_colour : overwritten_colour

# Heights, in inches (as slowdown.gp): a row holds a name at 1x type; the panels' heads
# take a second line where one is too wide for its panel and numbers (a talk's type).
row = pt(1.9)
head_lines = 1
above = (show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + (note_lines ? note_lines * pt(1.45) + pt(0.45) : 0) + \
	pt(2.4)
how_lines = show_how ? (marks ? 2 : 1) : 0
below = pt(3.3) + how_lines * pt(1.4) + \
	(show_foot ? footer_lines * pt(1.35) + pt(1.2) : pt(0.8))
H = max2(H, above + max2(n, 2) * row + below)
# Widths, in inches, left to right: names, the cost panel and its numbers, a gap, the
# events panel and its numbers, the marks.
names_w = name_w * pt(0.64) + pt(1.2)
cost_col = cost_chars * pt(0.62) + pt(1.2)
epo_col = epo_chars * pt(0.62) + pt(1.2)
mark_col = marks ? mark_w * pt(0.6) + pt(0.8) : 0
panels = max2(W - names_w - cost_col - epo_col - mark_col - pt(1), pt(8))
W = names_w + panels + cost_col + epo_col + mark_col + pt(1)
cost_w = panels * 0.6
epo_w = panels - cost_w
x_cost = names_w
x_epo = x_cost + cost_w + cost_col
x_marks = x_epo + epo_w + epo_col
fits(s, w) = strlen(s) * pt(1.05) * 0.66 < w - pt(1)
cost_head = logx ? 'cost of one event (ns, log scale)' : 'cost of one event (ns)'
epo_head = sprintf('events per %s', op_name)
if (!fits(cost_head, cost_w + cost_col) || !fits(epo_head, epo_w + epo_col)) {
	head_lines = 2
	cost_head = logx ? "cost of one event\n(ns, log scale)" : "cost of one event\n(ns)"
	epo_head = sprintf("events per\n%s", op_name)
	above = above + pt(1.3)
	H = max2(H, above + max2(n, 2) * row + below)
}
# Tics a label and a gap apart (1, 2 or 5 times a power of 10).
nice(x) = (m = 10.0 ** floor(log10(x)), x / m <= 1 ? m : (x / m <= 2 ? 2 * m : \
	(x / m <= 5 ? 5 * m : 10 * m)))
tics_in(w, chars) = max2(floor(w / (pt(0.62) * chars + pt(1.5))), 1)
cost_step = nice((cost_hi - cost_lo) * 1.0 / tics_in(cost_w, 6))
epo_step = nice(epo_hi * 1.0 / tics_in(epo_w, 4))
# The log axis: from below the cheapest to above the dearest, a decade or more.
log_lo = 10.0 ** floor(log10(pos_lo * 0.8))
log_hi = 10.0 ** ceil(log10(cost_hi * 1.05))
# Decades per tic on the log axis, as many tics as fit.
log_step = 10.0 ** max2(ceil(log10(log_hi / log_lo) / tics_in(cost_w, 6)), 1)
# Centred on [x0, x0 + w] (inches), moved in so that it stays on the canvas.
centre(x0, w, chars, k) = (c = x0 + w / 2, tw = chars * pt(k) * 0.66, \
	c + tw / 2 > W - pt(0.5) ? W - pt(0.5) - tw / 2 : (c - tw / 2 < pt(0.5) ? \
	pt(0.5) + tw / 2 : c)) / W
y_of(inches) = 1 - inches / H
y_title = y_of(pt(1.9))
y_sub = y_of((show_title ? pt(2.6) : 0) + pt(1.3))
y_note = y_of((show_title ? pt(2.6) : 0) + (show_sub ? pt(1.9) : 0) + pt(1.3))
y_heads = y_of(above - pt(0.9) - (head_lines - 1) * pt(1.3))
graph_top = y_of(above)
graph_bottom = below / H
y_xlabel = (below - pt(3.0)) / H
y_how = (below - pt(3.0) - pt(1.4)) / H
foot_top = (show_foot ? footer_lines * pt(1.35) : 0) / H

how = 'cost = (1/traced - 1/untraced throughput) / events per ' . op_name . \
	'; whiskers: the slowdown''s 95% CI, per event'
how2 = 'lost: dropped, never recorded; overwritten: recorded, then overwritten ' . \
	'(in the events, so in the cost)'

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set xtics nomirror out scale 0.6 font ''.fnt(1)
set grid xtics lt 1 lc rgb grid_colour lw 1
set key off
set yrange [-0.6 : max2(n, 1) - 0.4]
set tmargin at screen graph_top
set bmargin at screen graph_bottom
set x2range [0 : 1]

# The texts, set by each draw (the panels after the first unset them, so that each is drawn
# once per figure and again in the next format's).
labels = 'set label 7 cost_head at screen centre(x_cost, cost_w, strlen(cost_head), 1.05), ' . \
	'screen y_heads center font "".fnt(1.05) textcolor rgb text_colour; ' . \
	'set label 8 epo_head at screen centre(x_epo, epo_w, strlen(epo_head), 1.05), ' . \
	'screen y_heads center font "".fnt(1.05) textcolor rgb text_colour; '
if (show_title) labels = labels . 'set label 1 title at screen 0.5, screen y_title center ' . \
	'font "".fnt(1.6); '
if (show_sub) labels = labels . 'set label 2 subtitle at screen 0.5, screen y_sub center ' . \
	'font "".fnt(1.1) textcolor rgb text_colour; '
if (note ne '') labels = labels . 'set label 6 note_text at screen 0.5, screen y_note center ' . \
	'font "".fnt(1.05) textcolor rgb note_colour; '
if (marks) labels = labels . 'set label 9 "lost or overwritten" at screen ' . \
	'(x_marks + pt(0.8)) / W, screen y_heads left font "".fnt(1.05) textcolor rgb text_colour; '
if (show_how) labels = labels . 'set label 10 how at screen 0.5, screen y_how center ' . \
	'font "".fnt(0.9) textcolor rgb text_colour; '
if (show_how && marks) labels = labels . 'set label 11 how2 at screen 0.5, ' . \
	'screen y_how - pt(1.4) / H center font "".fnt(0.9) textcolor rgb text_colour; '
if (show_foot) labels = labels . 'set label 3 footer at screen pt(1) / W, screen foot_top ' . \
	'left font "".fnt(0.95) textcolor rgb text_colour; '
if (n == 0) labels = labels . 'set label 5 "no probe sets in cost.dat" at screen 0.5, ' . \
	'screen 0.5 center font "".fnt(1.2); '

# Left: the cost, a dot and its whisker, the names on its axis, its numbers to its right.
left = 'set lmargin at screen x_cost / W; set rmargin at screen (x_cost + cost_w) / W; ' . \
	'set ytics nomirror scale 0 font "".fnt(1); ' . \
	(logx ? 'set logscale x; set xrange [log_lo : log_hi]; set xtics log_step; ' . \
		'set format x "%g"; ' : \
		'unset logscale x; set xrange [cost_lo < 0 ? cost_lo * 1.1 : 0 : cost_hi * 1.05]; ' . \
		'set xtics cost_step; set format x "%g"; set xzeroaxis; ') . \
	'plot data using (logx ? max2($2, log_lo) : $2):0:' . \
	'(logx ? max2(valid(10) ? $10 : $2, log_lo) : (valid(10) ? $10 : $2)):' . \
	'(logx ? max2(valid(11) ? $11 : $2, log_lo) : (valid(11) ? $11 : $2)):ytic(1) ' . \
	'with xerrorbars lc rgb text_colour lw 1.2 pt 7 ps 0, ' . \
	'data using (logx ? ($2 > 0 ? $2 : NaN) : $2):0 with points pt 7 ps fs / 6.0 lc rgb cost_colour, ' . \
	'data using (1):0:(cost_of(0)) axes x2y1 with labels left offset char 1, 0 ' . \
	'font "".fnt(0.95) textcolor rgb text_colour'
# Right: events per operation, a bar from 0, its numbers, then the marks.
right = 'set lmargin at screen x_epo / W; set rmargin at screen (x_epo + epo_w) / W; ' . \
	'unset logscale x; set xrange [0 : epo_hi * 1.05]; set xtics epo_step; ' . \
	'set format x "%g"; set ytics format ""; unset xzeroaxis; ' . \
	'plot data using (0):0:(0):($3):($0 - 0.32):($0 + 0.32) with boxxyerror lc rgb epo_colour, ' . \
	'data using (1):0:(valid(3) ? sprintf("%.2f", $3) : "n/a") axes x2y1 with labels left ' . \
	'offset char 1, 0 font "".fnt(0.95) textcolor rgb text_colour' . \
	(marks ? ', data using (1):0:(strcol(9) ne "none" ? strcol(9) : ""):(mark_colour($5)) ' . \
		'axes x2y1 with labels left offset screen (x_marks + pt(0.8) - x_epo - epo_w) / W, 0 ' . \
		'tc rgb variable ' . \
		'font "".fnt(0.95)' : '')
draw = labels . 'set multiplot; ' . left . '; unset label; ' . right . '; unset multiplot'
if (n == 0) draw = labels . 'set xrange [0 : 1]; set yrange [0 : 1]; set border 0; ' . \
	'unset xtics; unset ytics; plot NaN notitle'
