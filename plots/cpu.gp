# SPDX-License-Identifier: GPL-2.0-or-later
#
# Template of cpu.gp: one horizontal stacked bar per probe set, the
# baseline on top: the CPU time per operation of the workload's processes in
# user mode (blue) and in the kernel (sky blue), and of the tracer's own
# user-space tasks (vermillion: reader or consumer threads, a tracing
# process, daemons), in microseconds, the total at the end of each bar; a
# black tick marks the machine's busy time per operation (/proc/stat, every
# CPU). A bar more than 4 times the median bar (strace's, say) is cut at the
# edge and its total marked with an arrow, so that the others stay readable.
# loadbench writes the script into a results directory as a header
# that sets the strings title, subtitle, footer (footer_lines lines), note
# and op_name, followed by this file; gnuplot runs there and reads cpu.dat
# (columns: name, user_us, sys_us, tracer_us, machine_us, steal_pct, tasks).
# It writes cpu.png, cpu.svg and, with cairo's PDF terminal, cpu.pdf.

if (!exists('title')) title = 'CPU time per operation: the workload and the tracer'
if (!exists('subtitle')) subtitle = ''
if (!exists('footer')) footer = ''
if (!exists('footer_lines')) footer_lines = 2
if (!exists('note')) note = ''
if (!exists('op_name')) op_name = 'operation'

data = 'cpu.dat'
set datafile missing 'NaN'

user_colour = '#0072B2'
sys_colour = '#56B4E9'
tracer_colour = '#D55E00'
note_colour = '#D55E00'
text_colour = '#404040'
grid_colour = '#D9D9D9'

max2(a, b) = a > b ? a : b
min2(a, b) = a < b ? a : b
nz(v) = v == v ? v : 0
undefine STATS_*
stats data using 0 nooutput
n = exists('STATS_records') ? int(STATS_records) : 0
hi = 1
name_len = 8
if (n > 0) {
	undefine STATS_*
	stats data using (nz($2) + nz($3) + nz($4)) nooutput
	hi = exists('STATS_max') ? max2(STATS_max, 0.1) : 1
	med = exists('STATS_median') ? max2(STATS_median, 0.1) : hi
	undefine STATS_*
	stats data using 5 nooutput
	hi = exists('STATS_max') ? max2(hi, STATS_max) : hi
	undefine STATS_*
	stats data using (strlen(strcol(1))) nooutput
	name_len = exists('STATS_max') ? STATS_max : 8
}
if (!exists('med')) med = hi
cap = min2(hi, 4 * med)
tic_step(span) = (tic_m = 10 ** floor(log10(span / 4)), tic_r = span / 4 / tic_m, \
	(tic_r <= 1 ? 1 : tic_r <= 2 ? 2 : tic_r <= 5 ? 5 : 10) * tic_m)
row_font = n > 10 ? fnt(1.06) : (n > 6 ? fnt(1.25) : fnt(1.44))
value_font = n > 10 ? fnt(0.96) : (n > 6 ? fnt(1.15) : fnt(1.35))

foot_top = 0.03 + (max2(footer_lines, 1) - 1) * 0.024
top = note ne '' ? 0.74 : 0.78
bottom = foot_top + 0.2
names_right = min2(0.06 + name_len * 0.0085, 0.3)

set encoding utf8
set termoption noenhanced
set style fill solid 1.0 border lc rgb '#1F1F1F'
set border 3 lc rgb text_colour lw 1.2
set tics textcolor rgb text_colour
set ytics nomirror scale 0 font row_font
set xtics nomirror out scale 0.6 font ''.fnt(1.15)
set grid xtics lt 1 lc rgb grid_colour lw 1
set yrange [n - 0.5 : -0.5]
set xrange [0 : cap * 1.3]
set xtics tic_step(cap * 1.3)
set tmargin at screen top
set bmargin at screen bottom
set lmargin at screen names_right
set rmargin at screen 0.97
set xlabel sprintf('CPU time per %s (us)', op_name) font ''.fnt(1.25) textcolor rgb text_colour
set key top right font ''.fnt(1.15) textcolor rgb text_colour samplen 1.5

labels = 'set label 1 title at screen 0.5, screen 0.945 center font "' . fnt(2.29) . '"; ' . \
	'set label 2 subtitle at screen 0.5, screen 0.885 center font "' . fnt(1.33) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 3 footer at screen 0.012, screen foot_top left font "' . fnt(1.05) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 4 "workload: its processes'' CPU clocks, split as their user and system ' . \
	'ticks; tracer: its own threads and processes;\ntick: the machine''s busy time ' . \
	'(/proc/stat, every CPU); a bar beyond the axis is cut, its total marked →" ' . \
	'at screen 0.5, screen foot_top + 0.075 center font "' . fnt(1.14) . '" ' . \
	'textcolor rgb text_colour; ' . \
	'set label 6 note at screen 0.5, screen 0.845 center font "' . fnt(1.33) . '" ' . \
	'textcolor rgb note_colour'
total(i) = nz(column(2)) + nz(column(3)) + nz(column(4))
draw = labels . '; ' . \
	'plot data using (nz($2) / 2):0:(nz($2) / 2):(0.3) with boxxyerror ' . \
	'lc rgb user_colour title "workload, user", ' . \
	'data using (nz($2) + nz($3) / 2):0:(nz($3) / 2):(0.3) with boxxyerror ' . \
	'lc rgb sys_colour title "workload, kernel", ' . \
	'data using (nz($2) + nz($3) + nz($4) / 2):0:(nz($4) / 2):(0.3) with boxxyerror ' . \
	'lc rgb tracer_colour title "tracer''s own tasks", ' . \
	'data using 5:0:(0):(0.38) with boxxyerror lc rgb "#000000" lw 3 title "machine busy", ' . \
	'data using (total(0) > cap * 1.3 ? cap * 1.3 : NaN):0:' . \
	'(sprintf("%.2f →", total(0))) with labels ' . \
	'right offset char -0.6, 0 font value_font notitle, ' . \
	'data using (total(0) > cap * 1.3 ? NaN : max2(total(0), nz($5))):0:' . \
	'(sprintf("%.2f", total(0))) ' . \
	'with labels left ' . \
	'offset char 0.6, 0 font value_font notitle, ' . \
	'data using (0):0:ytic(1) with points ps 0 notitle'
if (n == 0) draw = labels . '; set label 5 "no probe sets in cpu.dat" at screen 0.5, ' . \
	'screen 0.5 center font "' . fnt(1.71) . '"; unset ytics; set yrange [0 : 1]; plot NaN notitle'
