#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The figure and report commands on saved results (tests/fixtures/results.json,
# no root, no run): 'loadbench plot' re-renders (PNG, SVG, PDF beside the .gp
# and .dat) and, without gnuplot in PATH, writes the .gp/.dat and says in one
# line how to get gnuplot (exit 1); so does a --method alternate results
# directory (tests/fixtures/results-alternate.json), with the slices'
# figure; 'loadbench report' in every format;
# 'loadbench compare' of three results directories that differ in workload and
# engine, one interrupted, with a probe set only one of them has: the legend
# names what differs, the footer what they share, the table shows the missing
# probe sets as '-'. The figures' contents are checked by test-plot and
# test-render.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fixture=$top_srcdir/tests/fixtures/results.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/empty"
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1

# results DIR [SED-SCRIPT] - a results directory with the fixture, edited by SED-SCRIPT.
results() {
	mkdir -p "$1"
	sed -e "${2:-}" "$fixture" >"$1/results.json"
	cmp -s "$fixture" "$1/results.json" && [[ -n ${2:-} ]] && fail "sed '$2' changed nothing"
	return 0
}

note "loadbench plot without gnuplot in PATH: .gp and .dat written, one line says how to get it"
results "$tmp/nognuplot"
expect_error 'gnuplot is not installed.*apt-get install gnuplot-nox.*loadbench plot' \
	env PATH="$tmp/empty" "$LOADBENCH" plot "$tmp/nognuplot"
for f in slowdown throughput cost; do
	[[ -s $tmp/nognuplot/$f.gp && -s $tmp/nognuplot/$f.dat ]] || fail "no $f.gp/$f.dat"
	[[ ! -e $tmp/nognuplot/$f.png ]] || fail "$f.png without gnuplot?"
done

note "loadbench plot renders"
if ((have_gnuplot)); then
	"$LOADBENCH" plot "$tmp/nognuplot"
	for f in slowdown throughput cost; do
		for ext in png svg pdf gp dat; do
			[[ -s $tmp/nognuplot/$f.$ext ]] || fail "loadbench plot left no $f.$ext"
		done
	done
else
	note "gnuplot is not installed: rendering not checked here"
fi
note "loadbench plot re-renders a --method alternate results directory: the slices' figure"
mkdir "$tmp/alt"
cp "$top_srcdir/tests/fixtures/results-alternate.json" "$tmp/alt/results.json"
expect_error 'gnuplot is not installed' env PATH="$tmp/empty" "$LOADBENCH" plot "$tmp/alt"
grep -qx 'alternate = 1' "$tmp/alt/throughput.gp" ||
	fail "throughput.gp is not the alternate figure"
grep -q '^# panel	state	unit	t	ops_per_s	dropped$' "$tmp/alt/throughput.dat" ||
	fail "throughput.dat has no slices"
if ((have_gnuplot)); then
	"$LOADBENCH" plot "$tmp/alt"
	for f in slowdown throughput cost; do
		for ext in png svg pdf; do
			[[ -s $tmp/alt/$f.$ext ]] || fail "loadbench plot left no $f.$ext (alternate)"
		done
	done
	grep -qF '>all probes off<' "$tmp/alt/throughput.svg" ||
		fail "the alternate throughput figure has no off slices in its key"
	grep -qF 'moving-block bootstrap over 6 to 7 units' "$tmp/alt/slowdown.svg" ||
		fail "the alternate slowdown figure does not say what its whiskers are"
fi
"$LOADBENCH" report --format lines "$tmp/alt" >"$tmp/alt-lines"
grep -qx '76,525 ops/s with its probes off, 52,719 ops/s with ftrace on: 31.1% slower \[30.4, 31.6\], 7 units of alternation' \
	"$tmp/alt-lines" || fail "no alternate line for ftrace: $(cat "$tmp/alt-lines")"

expect_error 'empty is not a results directory \(no results.json in it\)' "$LOADBENCH" plot "$tmp/empty"
expect_error 'not a results directory' "$LOADBENCH" report "$tmp/empty"
expect_error 'usage: loadbench plot \[--style lab\|paper\|talk\] DIR' "$LOADBENCH" plot

note "loadbench report, every format"
"$LOADBENCH" report "$tmp/nognuplot" >"$tmp/md"
grep -q '^| probe set | tracer | ops/s off | ops/s on |' "$tmp/md" || fail "no Markdown table: $(cat "$tmp/md")"
grep -q '^| syscalls-discard | ftrace | 76,966 | 60,848 |' "$tmp/md" || fail "no syscalls-discard row"
"$LOADBENCH" report --format latex "$tmp/nognuplot" >"$tmp/tex"
grep -q '^\\toprule$' "$tmp/tex" && grep -q '^\\bottomrule$' "$tmp/tex" &&
	grep -q '^ftrace & ftrace & 76{,}966 & 53{,}067 & 31.1 & \[26.4, 33.7\]' "$tmp/tex" ||
	fail "no booktabs table: $(cat "$tmp/tex")"
"$LOADBENCH" report --format lines "$tmp/nognuplot" >"$tmp/lines"
grep -qx '76,966 ops/s without tracing, 53,067 ops/s with ftrace: 31.1% slower (95% CI of the slowdown: 26.4% to 33.7%)' \
	"$tmp/lines" || fail "no 2006-style line for ftrace: $(cat "$tmp/lines")"
"$LOADBENCH" report --format text "$tmp/nognuplot" >"$tmp/text"
grep -q '^syscalls-discard ' "$tmp/text" || fail "no text table: $(cat "$tmp/text")"
expect_error "format 'html'.*markdown, latex, text or lines" \
	"$LOADBENCH" report --format html "$tmp/nognuplot"

note "loadbench compare: workloads, engines, an interrupted run, a probe set in one run only"
results "$tmp/a" 's/"workload": "udp-rr",/&\n    "engine": "syscall",/'
results "$tmp/b" 's/"workload": "udp-rr",/"workload": "tcp-rr",\n    "engine": "uring",/'
results "$tmp/c" 's/"complete": true/"complete": false/; s/"name": "syscalls-discard"/"name": "only-in-c"/; s/"workload": "udp-rr",/&\n    "engine": "syscall",/'
"$LOADBENCH" compare -o "$tmp/cmp" "$tmp/a" "$tmp/b" "$tmp/c" >"$tmp/cmp.out" 2>"$tmp/cmp.err" ||
	fail "compare failed: $(cat "$tmp/cmp.err")"
cat "$tmp/cmp.out"
head -1 "$tmp/cmp.out" | grep -qF '| probe set | a: workload udp-rr, engine syscall | b: workload tcp-rr, engine uring | c: workload udp-rr, engine syscall \(interrupted: partial\) |' ||
	fail "the labels do not name what differs: $(head -1 "$tmp/cmp.out")"
grep -qF '| only-in-c | - | - | 20.9% [17.0, 25.6] |' "$tmp/cmp.out" ||
	fail "a probe set of one run only is not shown as missing in the others"
grep -qF '| syscalls-discard | 20.9% [17.0, 25.6] | 20.9% [17.0, 25.6] | - |' "$tmp/cmp.out" ||
	fail "syscalls-discard row"
grep -q "^footer = 'in common: Linux 6.18.44-test, x86_64, AMD EPYC, 2 CPUs, virtualization kvm, topology lo, 1 flow, 1 s x 3 | loadbench" \
	"$tmp/cmp/compare.gp" || fail "the footer does not say what the runs share: $(grep ^footer "$tmp/cmp/compare.gp")"
if ((have_gnuplot)); then
	[[ ! -s $tmp/cmp.err ]] || fail "compare warned: $(cat "$tmp/cmp.err")"
	for ext in png svg pdf gp dat; do
		[[ -s $tmp/cmp/compare.$ext ]] || fail "no compare.$ext"
	done
	grep -qF 'b: workload tcp-rr, engine uring, baseline 77.0k ops/s' "$tmp/cmp/compare.svg" ||
		fail "the figure's legend does not name what differs"
	grep -q '^figure: .*/compare.png' "$tmp/cmp.out" || fail "no figure line"
fi

note "loadbench compare without gnuplot: the table, the .gp and .dat, one warning line"
env PATH="$tmp/empty" "$LOADBENCH" compare -o "$tmp/cmp2" "$tmp/a" "$tmp/b" >"$tmp/cmp2.out" \
	2>"$tmp/cmp2.err" || fail "compare without gnuplot failed: $(cat "$tmp/cmp2.err")"
[[ $(wc -l <"$tmp/cmp2.err") -eq 1 ]] && grep -q 'apt-get install gnuplot-nox' "$tmp/cmp2.err" ||
	fail "expected one line saying how to get gnuplot: $(cat "$tmp/cmp2.err")"
grep -q '^figure not rendered: ' "$tmp/cmp2.out" || fail "the output claims a figure"
[[ -s $tmp/cmp2/compare.gp && -s $tmp/cmp2/compare.dat && ! -e $tmp/cmp2/compare.png ]] ||
	fail "compare.gp/.dat not written, or a PNG without gnuplot"

note "loadbench compare errors"
expect_error 'two or more results directories' "$LOADBENCH" compare "$tmp/a"
expect_error "$tmp/empty is not a results directory" "$LOADBENCH" compare -o "$tmp/cmp3" "$tmp/a" "$tmp/empty"
expect_error 'exists and is not empty.*--force' "$LOADBENCH" compare -o "$tmp/cmp" "$tmp/a" "$tmp/b"
echo "PASS"
