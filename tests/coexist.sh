#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root test: other users of tracing keep their state during and after a
# loadbench run. Another tool's instance (its enabled events, an event
# filter, its buffer size, tracing_on, overwrite, clock) and the top-level
# buffer's settings (tracing_on, current_tracer, set_event, set_event_pid,
# buffer size, options, dynamic events other than loadbench's) are read every
# 50 ms while loadbench runs its tracefs probe sets, and must never change;
# the other instance must keep recording throughout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

sets=$(running_here ftrace ftrace-consumer syscalls-pid uprobe | paste -sd,)
[[ -n $sets ]] || skip "no tracefs probe set runs here"

tmp=$(mktemp -d)
other=$TRACING/instances/othertool_$$
pid=
trap 'stop_run "$pid"; other_tool_stop "$other"; rm -rf "$tmp"' EXIT
other_tool_start "$other"

state() {
	local f
	for f in tracing_on buffer_size_kb set_event trace_clock options/overwrite \
		events/sched/sched_switch/enable events/sched/sched_switch/filter \
		events/net/netif_rx/enable events/raw_syscalls/enable set_event_pid; do
		printf 'other %s: %s\n' "$f" "$(tr '\n' ' ' <"$other/$f")"
	done
	for f in tracing_on current_tracer set_event set_event_pid buffer_size_kb trace_clock \
		options/overwrite options/event-fork tracing_cpumask events/enable; do
		printf 'top %s: %s\n' "$f" "$(tr '\n' ' ' <"$TRACING/$f")"
	done
	printf 'top dynamic_events: %s\n' "$(grep -v loadbench_ "$TRACING/dynamic_events" | tr '\n' ' ')"
}
# Events the other instance saw so far, all CPUs: kept, overwritten or dropped (buffer full).
recorded() {
	cat "$other"/per_cpu/cpu*/stats |
		awk -F': *' '$1 == "entries" || $1 == "overrun" || $1 == "dropped events" { n += $2 }
			END { print n + 0 }'
}

state >"$tmp/before"
note "other instance and top level before: $(wc -l <"$tmp/before") settings"

LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset "$sets" --duration 1 --warmup 0.2 --method runs --repeat 1 \
	--quiet --no-plot --output "$tmp/r" >"$tmp/out" 2>"$tmp/err" &
pid=$!
samples=0 during=0 rec0=$(recorded)
while kill -0 "$pid" 2>/dev/null; do
	state >"$tmp/now"
	diff -u "$tmp/before" "$tmp/now" >"$tmp/diff" ||
		fail "while loadbench ran, another tool's or the top level's tracing changed:"$'\n'"$(cat "$tmp/diff")"
	samples=$((samples + 1))
	[[ -d $TRACING/instances/loadbench_$pid ]] && during=$((during + 1))
	sleep 0.05
done
rc=0
wait "$pid" || rc=$?
pid=
[[ $rc -eq 0 ]] || fail "loadbench exited $rc: $(cat "$tmp/err")"
((during > 0)) || fail "no sample fell while loadbench's instance existed: the test proves nothing"
state >"$tmp/after"
diff -u "$tmp/before" "$tmp/after" ||
	fail "after the run, another tool's or the top level's tracing changed (above)"
rec1=$(recorded)
((rec1 > rec0)) || fail "the other instance stopped recording ($rec0 -> $rec1 events)"
assert_no_leftovers
echo "PASS ($samples samples, $during while loadbench's instance existed, probe sets $sets;" \
	"the other instance recorded $((rec1 - rec0)) events meanwhile)"
