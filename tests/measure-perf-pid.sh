#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the perf tracers with `scope workload' (per-thread
# perf events opened at the attach step, like perf record -p / perf stat -p):
# perf-syscalls-pid (recording) and a perf-count probe set of the same events
# beside syscalls-pid (ftrace's set_event_pid), checked by tests/check-results
# (events > 0, slowdown > 0). All three record the same syscalls of the same
# processes, so their events per operation must agree within a factor of 1.5
# (other processes on the machine do not count in any of them). With 24 and 64
# flows perf-syscalls-pid records the workload's 16 events per operation. Afterwards no
# loadbench process, perf event descriptor or instance may be left (the case
# of opening them failing at the attach step is in measure-perf.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here perf-syscalls-pid

assert_no_perf_leftovers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

note "syscalls-pid, perf-syscalls-pid, perf-count-pid"
printf '# the workload'"'"'s syscalls, counted per thread (perf stat -p)\ndescription perf-count, scope workload\ntracer perf-count\nsyscall all\nscope workload\n' \
	>"$tmp/perf-count-pid.probeset"
lb --probeset syscalls-pid,perf-syscalls-pid,"$tmp/perf-count-pid.probeset" --duration 1 \
	--warmup 0.3 --method runs --repeat 3 --output "$tmp/pid" --quiet --no-plot | tee "$tmp/pid.txt"
rc=0
# perf-count-pid only counts: in 3 one-second runs its sign is noise (-2.8% [-2.8, 17.2] beside a
# 9.3% CV baseline once, as measure-perf.sh's perf-count); the other two must cost.
"$top_builddir/tests/check-results" --any-slowdown-of perf-count-pid "$tmp/pid" syscalls-pid \
	perf-syscalls-pid perf-count-pid \
	>"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on the scope workload run (exit $rc)"
assert_no_perf_leftovers
ft=$(per_op syscalls-pid "$tmp/check.txt")
rec=$(per_op perf-syscalls-pid "$tmp/check.txt")
cnt=$(per_op perf-count-pid "$tmp/check.txt")
note "events/op of the workload's syscalls: ftrace $ft, perf record $rec, perf count $cnt"
within "$rec" "$ft" || fail "perf-syscalls-pid ($rec) and syscalls-pid ($ft) events/op differ"
within "$cnt" "$ft" || fail "perf-count-pid ($cnt) and syscalls-pid ($ft) events/op differ"

# Many flows: a perf event per tracepoint per thread of 48 and 128 processes, and a ring each.
# 64 KiB rings at 64 flows: 128 default 4 MiB rings took 16 s of mmap here, which is perf's
# page allocation, not what this checks.
scoped_flows perf-syscalls-pid 24 "$tmp/flows24"
scoped_flows perf-syscalls-pid 64 "$tmp/flows64" --buffer-kb 64
assert_no_perf_leftovers

echo "PASS"
