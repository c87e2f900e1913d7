#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the perf tracers: a short real measurement of the
# baseline, perf (record: rings + consumer), perf-count (counters) and
# perf-syscalls beside ftrace, checked by tests/check-results; perf-count and
# ftrace name the same tracepoints, so their events per operation must agree.
# Afterwards no loadbench process, no perf event descriptor of one, and no
# loadbench_* instance may be left, also after an arm (or, with scope
# workload, an attach) that fails half-way.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here perf

assert_no_perf_leftovers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

note "unknown events: the same line-numbered errors as ftrace's, before anything is opened"
printf 'tracer perf\ntracepoint net:netif_rx\ntracepoint net:netif_recieve_skb\n' \
	>"$tmp/typo.probeset"
expect_error "typo.probeset:3: unknown tracepoint net:netif_recieve_skb.*similar: .*receive_skb" \
	lb --probeset "$tmp/typo.probeset" --quiet --no-plot --output "$tmp/typo"
printf 'tracer perf-count\nsyscall no_such_call\n' >"$tmp/sys.probeset"
expect_error "sys.probeset:2: unknown syscall 'no_such_call'" \
	lb --probeset "$tmp/sys.probeset" --quiet --no-plot --output "$tmp/sys"

note "perf, perf-count, perf-syscalls beside ftrace"
lb --probeset perf,perf-count,perf-syscalls,ftrace --duration 1 --warmup 0.3 \
	--method runs --repeat 3 --output "$tmp/perf" --quiet | tee "$tmp/perf.txt"
rc=0
# perf record's consumer thread is the tracer's own CPU: some must be counted.
# perf-count's slowdown is the least certain of the four in 3 one-second
# runs (CI read -6.5% [-9.7, 11.5] beside a 7.8% CV baseline; +19.8% [5.9,
# 29.5] here once), so its sign is not checked; the others must cost.
"$top_builddir/tests/check-results" --tracer-cpu perf --any-slowdown-of perf-count "$tmp/perf" perf perf-count perf-syscalls \
	ftrace >"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on the perf run (exit $rc)"
assert_no_perf_leftovers

# Both count system-wide: another workload running at the same time (another
# test on this machine) inflates one probe set's runs and not the other's, so a
# disagreement is measured again twice before it counts as a failure.
check=$tmp/check.txt
for attempt in 1 2 3; do
	if [[ $attempt -gt 1 ]]; then
		note "measuring perf-count and ftrace again (attempt $attempt)"
		lb --probeset perf-count,ftrace --duration 1 --warmup 0.3 --method runs --repeat 3 \
			--output "$tmp/again$attempt" --quiet --no-plot >/dev/null
		check=$tmp/check$attempt.txt
		"$top_builddir/tests/check-results" "$tmp/again$attempt" perf-count ftrace >"$check" ||
			{ cat "$check"; fail "check-results failed on the perf-count/ftrace run"; }
		assert_no_perf_leftovers
	fi
	count=$(per_op perf-count "$check")
	ftrace=$(per_op ftrace "$check")
	[[ -n $count && -n $ftrace ]] || fail "no events/op in the check-results output"
	note "events/op for the same 18 tracepoints: ftrace $ftrace, perf-count $count"
	within "$count" "$ftrace" && break
	[[ $attempt -lt 3 ]] ||
		fail "perf-count ($count) and ftrace ($ftrace) events/op differ by more than a factor" \
			"of 1.5 for the same tracepoints, three times"
done
record=$(per_op perf "$tmp/check.txt")
note "perf (record) events/op in the first run: $record"

note "an arm (or, with scope workload, an attach) that fails half-way leaves nothing"
# ftrace:function has a tracepoint id, but perf_event_open refuses it where the
# function tracer is off: net:netif_rx (or the syscalls, on the workload's
# first thread) is open by then.
if [[ -r $TRACING/events/ftrace/function/id ]]; then
	printf 'tracer perf\ntracepoint net:netif_rx\ntracepoint ftrace:function\n' \
		>"$tmp/halfway.probeset"
	printf 'tracer perf\nsyscall all\ntracepoint ftrace:function\nscope workload\n' \
		>"$tmp/halfway-pid.probeset"
	for set in halfway halfway-pid; do
		rc=0
		lb --probeset "$tmp/$set.probeset" --duration 0.3 --warmup 0.1 --method runs --repeat 1 \
			--output "$tmp/$set" --quiet --no-plot >/dev/null 2>"$tmp/$set.err" || rc=$?
		note "$set: exit $rc: $(cat "$tmp/$set.err")"
		assert_no_perf_leftovers
	done
else
	note "no ftrace:function id on this kernel: the half-way cases were not run"
fi
echo "PASS"
