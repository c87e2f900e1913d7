#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test: a short real measurement of the baseline, ftrace and
# syscalls; checks the numbers and files (tests/check-results) and that no
# tracing state is left. Then the default run (no --probeset): every catalog
# probe set that runs here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

note "explicit probe sets: ftrace, syscalls"
"$LOADBENCH" --probeset ftrace,syscalls --duration 1 --warmup 0.3 --method runs --repeat 5 \
	--output "$tmp/explicit" --quiet | tee "$tmp/explicit.txt"
"$top_builddir/tests/check-results" "$tmp/explicit" ftrace syscalls
grep -q "baseline" "$tmp/explicit.txt" || fail "summary table has no baseline row"
grep -q "syscalls" "$tmp/explicit.txt" || fail "summary table has no syscalls row"
assert_no_leftovers
if command -v gnuplot >/dev/null; then
	[[ -s $tmp/explicit/slowdown.png ]] || fail "gnuplot is installed but no slowdown.png"
	[[ $(head -c 4 "$tmp/explicit/slowdown.png" | od -An -c | tr -d ' ') == '211PNG' ]] ||
		fail "slowdown.png is not a PNG"
	[[ -s $tmp/explicit/slowdown.gp && -s $tmp/explicit/slowdown.dat ]] ||
		fail "slowdown.gp/.dat missing beside the figure"
fi

note "default run: the whole catalog"
"$LOADBENCH" --duration 0.5 --warmup 0.2 --max-time 6 --output "$tmp/default" --quiet \
	>"$tmp/default.txt"
# The catalog sets `loadbench list' says run here (kprobes need a kernel that has them),
# but for those it says are named only: the default run leaves them out.
names=$("$LOADBENCH" list |
	awk '/^[^ ]/ { n = $1; named = /named only/ } /^ +runs here$/ && !named { print n }')
! grep -q '"name": "bpftrace-syscalls"' "$tmp/default/results.json" ||
	fail "the default run measured bpftrace-syscalls, a named-only set"
[[ -n $names ]] || fail "loadbench list names no probe set that runs here"
# shellcheck disable=SC2086
"$top_builddir/tests/check-results" "$tmp/default" $names
assert_no_leftovers

note "discard mode with a tiny buffer loses events, and says so"
"$LOADBENCH" --probeset syscalls --mode discard --buffer-kb 8 --duration 0.5 --warmup 0.2 \
	--method runs --repeat 2 --output "$tmp/discard" --quiet --no-plot >/dev/null
lost=$(sed -n 's/^.*"lost_events": *\([0-9]*\).*$/\1/p' "$tmp/discard/results.json" | sort -n | tail -1)
[[ ${lost:-0} -gt 0 ]] || fail "an 8 KiB buffer in discard mode reported no lost events"
note "lost events with an 8 KiB discard buffer: $lost"
assert_no_leftovers
note "compare-with: a named set brings along the set it builds on; --alone does not"
printf '%s\n' '# syscalls plus the packet path and the scheduler: what they add' \
	'description  syscalls + net:* + sched_switch and sched_wakeup' 'tracer ftrace' \
	'compare-with syscalls' 'syscall all' 'tracepoint net:*' 'tracepoint sched:sched_switch' \
	'tracepoint sched:sched_wakeup' >"$tmp/sys+sched.probeset"
"$LOADBENCH" --probeset "$tmp/sys+sched.probeset" --duration 0.5 --warmup 0.2 --method runs --repeat 3 \
	--output "$tmp/pair" --quiet --no-plot >"$tmp/pair.txt"
cat "$tmp/pair.txt"
"$top_builddir/tests/check-results" --any-slowdown "$tmp/pair" syscalls sys+sched | tee "$tmp/pair.check"
grep -q '"added_for": "sys+sched"' "$tmp/pair/results.json" ||
	fail "results.json does not say that syscalls was added for sys+sched"
grep -q '"compare_with": "syscalls"' "$tmp/pair/results.json" ||
	fail "results.json does not record sys+sched's compare-with"
# syscalls before the set that asked for it, as in the table.
[[ $(grep -o '"name": "sys[a-z+]*"' "$tmp/pair/results.json" | tr '\n' ' ') == \
	'"name": "syscalls" "name": "sys+sched" ' ]] || fail "probe-set order in results.json"
grep -Eq '^sys\+sched vs syscalls \(the set it builds on\): -?[0-9.]+% vs -?[0-9.]+% slower.*; [0-9.]+ vs [0-9.]+ events/op; each of the [0-9.]+ extra events/op costs -?[0-9.]+ ns \[-?[0-9.]+, (-?[0-9.]+|unbounded)\]$' \
	"$tmp/pair.txt" "$tmp/pair/summary.txt" || fail "no pair line in the summary"
[[ $(grep -c '^sys+sched vs syscalls' "$tmp/pair/summary.txt") -eq 1 ]] ||
	fail "summary.txt lacks the pair line"
a=$(per_op sys+sched "$tmp/pair.check") b=$(per_op syscalls "$tmp/pair.check")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > b + 1) }' ||
	fail "sys+sched ($a events/op) does not record more than syscalls ($b)"
"$LOADBENCH" --probeset "$tmp/sys+sched.probeset" --alone --duration 0.3 --warmup 0.1 \
	--method runs --repeat 1 --output "$tmp/alone" --quiet --no-plot >/dev/null
grep -q '"name": "syscalls"' "$tmp/alone/results.json" && fail "--alone still measured syscalls"
grep -q '"name": "sys+sched"' "$tmp/alone/results.json" || fail "--alone did not measure sys+sched"
sed -i 's/^compare-with syscalls$/compare-with sycalls/' "$tmp/sys+sched.probeset"
expect_error "sys\+sched.probeset:4: compare-with sycalls: .*fix the line or pass --alone" \
	"$LOADBENCH" --probeset "$tmp/sys+sched.probeset" --duration 0.3 --output "$tmp/typo"
assert_no_leftovers
echo "PASS"
