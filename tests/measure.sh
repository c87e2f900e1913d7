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
"$LOADBENCH" --probeset ftrace,syscalls --duration 1 --warmup 0.3 --repeat 5 \
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
"$LOADBENCH" --duration 0.5 --warmup 0.2 --repeat 2 --output "$tmp/default" --quiet \
	>"$tmp/default.txt"
# The catalog sets `loadbench list' says run here (kprobes need a kernel that has them).
names=$("$LOADBENCH" list | awk '/^[^ ]/ { n = $1 } /^ +runs here$/ { print n }')
[[ -n $names ]] || fail "loadbench list names no probe set that runs here"
# shellcheck disable=SC2086
"$top_builddir/tests/check-results" "$tmp/default" $names
assert_no_leftovers

note "discard mode with a tiny buffer loses events, and says so"
"$LOADBENCH" --probeset syscalls --mode discard --buffer-kb 8 --duration 0.5 --warmup 0.2 \
	--repeat 2 --output "$tmp/discard" --quiet --no-plot >/dev/null
lost=$(sed -n 's/^.*"lost_events": *\([0-9]*\).*$/\1/p' "$tmp/discard/results.json" | sort -n | tail -1)
[[ ${lost:-0} -gt 0 ]] || fail "an 8 KiB buffer in discard mode reported no lost events"
note "lost events with an 8 KiB discard buffer: $lost"
assert_no_leftovers
echo "PASS"
