#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the ftrace tracer's `mode consumer': a short real
# measurement of ftrace (nobody reads), ftrace-consumer (readers on the
# workload's CPU) and ftrace-consumer-other (readers on another CPU), checked
# by tests/check-results (events > 0, slowdown > 0 inside its interval, the
# readers' own CPU time counted and above 0);
# every consumer run must have read events and bytes (results.json) and the
# summary must say whether the reader kept up. The readers hold each CPU's
# trace_pipe_raw open, which keeps the instance busy: a reader thread that
# was not stopped and joined would make the instance's removal fail and the
# run with it, at every one of the 3 rounds. A SIGINT during a consumer run
# must end it (exit 130) with nothing left, and reader-cpu other must be
# refused with one line when the workload may run on every CPU.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here ftrace-consumer

assert_nothing_left() {
	local left
	assert_no_leftovers
	left=$(tagged_leftovers 'trace_pipe_raw')
	[[ -z $left ]] || fail "loadbench left behind:"$'\n'"$left"
}

assert_nothing_left
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

note "ftrace, ftrace-consumer and ftrace-consumer-other"
lb --probeset ftrace,ftrace-consumer,ftrace-consumer-other --duration 1 --warmup 0.3 \
	--method runs --repeat 3 --output "$tmp/c" --quiet --no-plot | tee "$tmp/c.txt"
rc=0
# The consumers' reader threads are the tracer's own CPU: some must be counted.
"$top_builddir/tests/check-results" --tracer-cpu ftrace-consumer --tracer-cpu ftrace-consumer-other \
	"$tmp/c" ftrace ftrace-consumer ftrace-consumer-other >"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on the consumer run (exit $rc)"
assert_nothing_left

# 3 runs and a summary per consumer probe set; `ftrace' has no reader.
n=$(grep -c '"read_bytes": [1-9]' "$tmp/c/results.json" || true)
[[ $n -eq 8 ]] || fail "expected read_bytes > 0 in 8 places (2 consumers x (3 runs + summary)), got $n"
n=$(grep -c '"read_events": [1-9]' "$tmp/c/results.json" || true)
[[ $n -eq 8 ]] || fail "expected read_events > 0 in 8 places, got $n"
for set in ftrace-consumer ftrace-consumer-other; do
	grep -Eq "^reader of $set: read [1-9][0-9]* events .*(kept up|did NOT keep up)" \
		"$tmp/c.txt" || fail "the summary does not say what the reader of $set read"
done

note "reader-cpu other, with the workload free to run on every CPU"
expect_error "reader-cpu other: the workload may run on every CPU .*--cpus" \
	lb --probeset ftrace-consumer-other --cpus none --duration 0.3 --warmup 0.1 \
	--method runs --repeat 1 --quiet --no-plot --output "$tmp/other"
assert_nothing_left

note "SIGINT during a consumer run"
# Its own session, as in interrupt.sh; the baseline runs first (2.3 s), then
# ftrace-consumer until 4.6 s: the signal comes at 3.5 s, with the readers busy.
rc=0
LB_TEST_TAG=$LB_TAG setsid "$LOADBENCH" --probeset ftrace-consumer --duration 2 --warmup 0.3 \
	--method runs --repeat 1 --quiet --no-plot --output "$tmp/int" >/dev/null 2>"$tmp/int.err" &
pid=$!
sleep 3.5
held=$(ls -l /proc/$pid/fd 2>/dev/null | grep -c trace_pipe_raw || true)
kill -INT $pid
timeout 30 tail --pid=$pid -f /dev/null || fail "loadbench did not end within 30 s of SIGINT"
wait $pid || rc=$?
note "exit $rc, $held raw buffers open before the signal: $(tail -1 "$tmp/int.err")"
[[ $rc -eq 130 || $rc -eq 0 ]] || fail "expected exit 130 after SIGINT, got $rc"
if [[ $rc -eq 0 ]]; then
	note "the run ended before the signal (a slow machine): the SIGINT case was not run"
else
	[[ $held -ge 1 ]] || fail "no trace_pipe_raw open during the consumer run"
fi
assert_nothing_left
echo "PASS"
