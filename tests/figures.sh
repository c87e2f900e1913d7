#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a default run leaves for a paper or a talk (root: a real ftrace run):
# - the progress line (probe set, round, run, elapsed/total, rate) on stderr
#   when it is a terminal (run under script(1)), rewritten in place, never on
#   stdout; none when stderr is a file; none with --quiet;
# - summary.txt (the text report), results.json, and every figure as PNG,
#   SVG, PDF with its .gp and .dat;
# - without gnuplot in PATH: results and .gp/.dat still written, one warning
#   line saying how to get gnuplot, and the last line does not claim figures;
#   'loadbench plot DIR' then renders them;
# - 'loadbench compare' of two real runs of different workloads names them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here ftrace
command -v script >/dev/null || skip "script(1) (util-linux) is not installed"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
short=(--probeset ftrace --duration 0.5 --warmup 0.2 --method runs --repeat 2)

note "a run with stderr on a terminal: the progress line there, not on stdout"
LB_TEST_TAG=$LB_TAG script -qefc "stty cols 200; $(printf '%q ' "$LOADBENCH" "${short[@]}" --output "$tmp/tty") >$(printf '%q' "$tmp/tty.out")" \
	"$tmp/tty.log" >/dev/null || fail "the run under script failed: $(tail -5 "$tmp/tty.log")"
grep -qa $'\r\e\\[Kloadbench: baseline, round 1/2 (run 1/4), [0-9]* s of ~[0-9]* s, ' "$tmp/tty.log" ||
	fail "no progress line for the baseline on the terminal: $(head -c 600 "$tmp/tty.log" | cat -A)"
grep -qa 'loadbench: ftrace, round 2/2 (run 4/4), [0-9]* s of ~[0-9]* s, ' "$tmp/tty.log" ||
	fail "no progress line for the last run: $(cat -A "$tmp/tty.log" | head -c 2000)"
grep -qa 'loadbench: [a-z]*, round [12]/2 (run [1-4]/4), [0-9]* s of ~[0-9]* s, [1-9][0-9]* ops/s' \
	"$tmp/tty.log" || fail "no progress line with a rate: $(cat -A "$tmp/tty.log" | head -c 2000)"
! grep -q $'\r\\|(run [0-9]' "$tmp/tty.out" || fail "progress on stdout"
grep -q '^ftrace ' "$tmp/tty.out" || fail "no summary table on stdout: $(cat "$tmp/tty.out")"

note "summary.txt, results.json and every figure in the results directory"
[[ -s $tmp/tty/results.json && -s $tmp/tty/results.csv ]] || fail "no results.json/results.csv"
"$LOADBENCH" report --format text "$tmp/tty" >"$tmp/report.txt"
cmp -s "$tmp/tty/summary.txt" "$tmp/report.txt" ||
	fail "summary.txt is not the text report: $(diff "$tmp/tty/summary.txt" "$tmp/report.txt")"
grep -q '^ftrace ' "$tmp/tty/summary.txt" || fail "summary.txt has no ftrace row"
# The latency figure comes with a latency table (where the workload's operations were timed), the
# CPU figure with the CPU table.
figs=(slowdown throughput cost)
if grep -q '^latency per operation' "$tmp/tty/summary.txt"; then
	figs+=(latency)
else
	note "operations not timed here (no latency table): no latency figure expected"
fi
grep -q '^CPU per operation' "$tmp/tty/summary.txt" && figs+=(cpu)
for f in "${figs[@]}"; do
	for ext in png svg pdf gp dat; do
		[[ -s $tmp/tty/$f.$ext ]] || fail "the run left no $f.$ext"
	done
done
named=$(IFS=,; echo "${figs[*]}" | sed 's/,/, /g')
grep -qF "figures $named (.png .svg .pdf" "$tmp/tty.out" ||
	fail "the last line does not name the figures ($named): $(tail -1 "$tmp/tty.out")"

note "a terminal 50 columns wide: the progress line is cut to 49 (a wrapped line could not be rewritten)"
LB_TEST_TAG=$LB_TAG script -qefc "stty cols 50; $(printf '%q ' "$LOADBENCH" "${short[@]}" --no-plot --output "$tmp/narrow") >/dev/null" \
	"$tmp/narrow.log" >/dev/null || fail "the run under script failed: $(tail -5 "$tmp/narrow.log")"
tr '\r' '\n' <"$tmp/narrow.log" | grep -a $'^\e\\[Kloadbench: ' >"$tmp/narrow.lines" ||
	fail "no progress line at 50 columns: $(cat -A "$tmp/narrow.log" | head -c 1000)"
! grep -qav $'^\e\\[K.\\{1,49\\}$' "$tmp/narrow.lines" ||
	fail "a progress line longer than 49 columns: $(grep -av $'^\e\\[K.\\{1,49\\}$' "$tmp/narrow.lines" | head -1)"

note "stderr in a file: no progress line; --quiet on a terminal: none either"
lb "${short[@]}" --no-plot --output "$tmp/file" >"$tmp/file.out" 2>"$tmp/file.err"
! grep -q $'\r\\|(run [0-9]' "$tmp/file.err" "$tmp/file.out" ||
	fail "a progress line though stderr is not a terminal: $(cat -A "$tmp/file.err")"
LB_TEST_TAG=$LB_TAG script -qefc "$(printf '%q ' "$LOADBENCH" "${short[@]}" --quiet --no-plot --output "$tmp/quiet") >/dev/null" \
	"$tmp/quiet.log" >/dev/null || fail "the --quiet run failed: $(tail -5 "$tmp/quiet.log")"
# (Warnings may appear, e.g. about another run's leftovers: not the progress or the start line.)
! grep -qa '(run [0-9]\|; results in ' "$tmp/quiet.log" ||
	fail "--quiet printed on the terminal: $(cat -A "$tmp/quiet.log")"

note "no gnuplot in PATH: results and .gp/.dat written, one line says how to get it"
mkdir "$tmp/bin"
for f in /usr/bin/* /usr/sbin/*; do
	[[ ${f##*/} == gnuplot* ]] || ln -sf "$f" "$tmp/bin/"
done
LB_TEST_TAG=$LB_TAG PATH=$tmp/bin "$LOADBENCH" "${short[@]}" --quiet --output "$tmp/nognuplot" \
	>"$tmp/nognuplot.out" 2>"$tmp/nognuplot.err" || fail "the run without gnuplot failed: $(cat "$tmp/nognuplot.err")"
# One line about gnuplot (other warnings, e.g. about another run's leftovers, may come too).
[[ $(grep -c gnuplot "$tmp/nognuplot.err") -eq 1 ]] &&
	grep -q "gnuplot is not installed.*apt-get install gnuplot-nox.*loadbench plot $tmp/nognuplot" "$tmp/nognuplot.err" ||
	fail "expected one line on how to get gnuplot: $(cat "$tmp/nognuplot.err")"
grep -q '^results: .*no gnuplot to render them' "$tmp/nognuplot.out" ||
	fail "the last line claims figures: $(tail -1 "$tmp/nognuplot.out")"
for f in "${figs[@]}"; do
	[[ -s $tmp/nognuplot/$f.gp && -s $tmp/nognuplot/$f.dat && ! -e $tmp/nognuplot/$f.png ]] ||
		fail "$f: no .gp/.dat, or a PNG without gnuplot"
done
[[ -s $tmp/nognuplot/results.json && -s $tmp/nognuplot/summary.txt ]] || fail "no results without gnuplot"
"$LOADBENCH" plot "$tmp/nognuplot"
for f in "${figs[@]}"; do
	[[ -s $tmp/nognuplot/$f.png && -s $tmp/nognuplot/$f.svg && -s $tmp/nognuplot/$f.pdf ]] ||
		fail "loadbench plot did not render $f"
done

note "compare two saved runs of different workloads"
lb "${short[@]}" --workload tcp-rr --quiet --no-plot --output "$tmp/tcp" >/dev/null
"$LOADBENCH" compare -o "$tmp/cmp" "$tmp/file" "$tmp/tcp" >"$tmp/cmp.out"
head -1 "$tmp/cmp.out" | grep -qF '| probe set | file: workload udp-rr | tcp: workload tcp-rr |' ||
	fail "compare does not name the workloads: $(head -1 "$tmp/cmp.out")"
grep -q '^| ftrace | -\?[0-9.]*% \[' "$tmp/cmp.out" || fail "no ftrace row: $(cat "$tmp/cmp.out")"
[[ -s $tmp/cmp/compare.png && -s $tmp/cmp/compare.svg && -s $tmp/cmp/compare.pdf ]] ||
	fail "compare rendered no figure"
grep -qF 'tcp: workload tcp-rr, baseline' "$tmp/cmp/compare.svg" || fail "the legend does not name tcp-rr"

assert_no_leftovers
echo "PASS"
