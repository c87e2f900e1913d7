#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of --sweep: syscalls-pid (the workload's syscalls only,
# 2 events each) swept over syscalls-per-op 0 and 4 measures once per value into
# DIR/syscalls-per-op=V, each a full results directory that tests/check-results
# accepts, and writes sweep.json and sweep.txt. Each extra syscall the server
# makes is one sys_enter and one sys_exit: the events per operation must rise by
# exactly 2 per extra syscall, 8 from 0 to 4 (within 0.1, the edges of the
# slices); the line through the two points has a slope, which loadbench report
# prints from sweep.json, and loadbench plot draws it. Nothing is left behind.
# Nothing here is timed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here syscalls-pid

assert_no_leftovers
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

note "syscalls-pid swept over syscalls-per-op 0,4"
lb --probeset syscalls-pid --sweep syscalls-per-op=0,4 --max-time 4 --precision 5 \
	--warmup 0.3 --quiet --no-plot --output "$tmp/s" | tee "$tmp/s.txt"
for v in 0 4; do
	[[ -s $tmp/s/syscalls-per-op=$v/results.json ]] || fail "no results for syscalls-per-op=$v"
	grep -q "\"syscalls_per_op\": $v," "$tmp/s/syscalls-per-op=$v/results.json" ||
		fail "the results of value $v do not say syscalls_per_op $v"
	"$top_builddir/tests/check-results" "$tmp/s/syscalls-per-op=$v" syscalls-pid \
		>"$tmp/check$v.txt" || { cat "$tmp/check$v.txt"; fail "check-results failed at $v"; }
done
[[ -s $tmp/s/sweep.json && -s $tmp/s/sweep.txt ]] || fail "no sweep.json or sweep.txt"
grep -q '^sweep of syscalls-per-op over 0, 4:' "$tmp/s.txt" || fail "no sweep table printed"
e0=$(per_op syscalls-pid "$tmp/check0.txt")
e4=$(per_op syscalls-pid "$tmp/check4.txt")
note "events/op: $e0 at 0, $e4 at 4"
awk -v a="$e0" -v b="$e4" 'BEGIN { exit !(b - a > 7.9 && b - a < 8.1) }' ||
	fail "events/op rose by $e0 -> $e4, not by 2 per extra syscall (8)"
slope=$(sed -n 's/^syscalls-pid: \([-0-9.]*\) ns per event.*/\1/p' "$tmp/s.txt")
[[ -n $slope ]] || fail "no line for syscalls-pid: $(grep '^syscalls-pid:' "$tmp/s.txt")"
note "marginal cost: $slope ns per event"

note "the sweep's directory: loadbench report (Markdown, LaTeX) and loadbench plot"
"$LOADBENCH" report "$tmp/s" >"$tmp/report.md" || fail "loadbench report failed on the sweep"
grep -q '^## Sweep of syscalls-per-op$' "$tmp/report.md" || fail "no sweep heading in the report"
grep -q "^| syscalls-pid | $slope" "$tmp/report.md" ||
	fail "the report's line for syscalls-pid does not have the slope $slope: $(grep '^| syscalls-pid' "$tmp/report.md")"
grep -q '^syscalls-pid & 0 & ' <<<"$("$LOADBENCH" report --format latex "$tmp/s")" ||
	fail "no LaTeX row for syscalls-pid at 0"
if have_gnuplot; then
	"$LOADBENCH" plot "$tmp/s" || fail "loadbench plot failed on the sweep"
	assert_figures "$tmp/s" sweep
fi
assert_no_leftovers
