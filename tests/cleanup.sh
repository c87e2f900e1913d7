#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root test: a run SIGKILLed together with its watchdog leaves its tracefs
# instance and run lock behind (nothing can run in the killed processes; the
# watchdog alone is tests/ownership.sh); the next run warns about it,
# `loadbench cleanup` removes it and says so, and another tool's instance is
# untouched throughout. A name no run lock proves dead is left alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

tmp=$(mktemp -d)
other=$TRACING/instances/othertool_$$
pid=
trap 'stop_run "$pid"; other_tool_stop "$other"; rm -rf "$tmp"' EXIT
# Another tool's tracing, which loadbench must leave alone.
other_tool_start "$other"

"$LOADBENCH" --probeset ftrace --duration 3 --warmup 0 --method runs --repeat 1 --quiet --no-plot \
	--output "$tmp/killed" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do  # the baseline runs first
	[[ -d $TRACING/instances/loadbench_$pid ]] && break
	sleep 0.05
done
[[ -d $TRACING/instances/loadbench_$pid ]] || fail "no instance loadbench_$pid appeared"
sleep 0.5
wd=$(pgrep -P "$pid" -x lb-watchdog) || fail "no watchdog (lb-watchdog) beside run $pid"
kill -KILL "$wd" "$pid"
wait "$pid" 2>/dev/null || true
sleep 0.3
[[ -d $TRACING/instances/loadbench_$pid ]] || fail "SIGKILL left nothing: the test proves nothing"
[[ -f /run/loadbench/loadbench_$pid.lock ]] || fail "the killed run left no run lock"
# The workload processes die with their parent (PR_SET_PDEATHSIG).
pgrep -f "^$LOADBENCH" >/dev/null && fail "workload processes outlived the SIGKILLed run"

note "a new run warns about the leftover"
"$LOADBENCH" --probeset syscalls --duration 0.2 --warmup 0 --method runs --repeat 1 --quiet --no-plot \
	--output "$tmp/next" >/dev/null 2>"$tmp/warn"
grep -q "loadbench_$pid was left by a loadbench that no longer runs.*loadbench cleanup" \
	"$tmp/warn" || fail "no leftover warning: $(cat "$tmp/warn")"

note "cleanup removes it"
"$LOADBENCH" cleanup | tee "$tmp/cleanup.txt"
grep -q "removed tracefs instance loadbench_$pid" "$tmp/cleanup.txt" || fail "cleanup did not say what it removed"
[[ ! -e /run/loadbench/loadbench_$pid.lock ]] || fail "cleanup left the dead run's lock file"
assert_no_leftovers
grep -q "^0 leftover" <<<"$("$LOADBENCH" cleanup)" || fail "a second cleanup still found leftovers"

[[ -d $other && $(cat "$other/events/sched/sched_switch/enable") == 1 ]] ||
	fail "another tool's instance was changed"

note "cleanup leaves a running loadbench's state and names of live pids alone"
"$LOADBENCH" --probeset ftrace --duration 2 --warmup 0 --method runs --repeat 1 --quiet --no-plot \
	--output "$tmp/live" >/dev/null 2>"$tmp/live.err" &
pid=$!
for _ in $(seq 1 200); do
	[[ -d $TRACING/instances/loadbench_$pid ]] && break
	sleep 0.05
done
[[ -d $TRACING/instances/loadbench_$pid ]] || fail "no instance loadbench_$pid appeared"
# A pid just reaped does not run (and is not reused this fast): with a free
# run lock, as a killed run leaves it, its names are a dead run's; without
# one (pid 1's, or another dead pid's) nothing proves that: left alone.
sh -c 'exit 0' &
dead=$!
wait "$dead"
sh -c 'exit 0' &
unproven=$!
wait "$unproven"
install -m 600 /dev/null "/run/loadbench/loadbench_$dead.lock"
mkdir "$TRACING/instances/loadbench_1" "$TRACING/instances/loadbench_${dead}" \
	"$TRACING/instances/loadbench_${unproven}"
"$LOADBENCH" cleanup >"$tmp/cleanup-live.txt"
cat "$tmp/cleanup-live.txt"
[[ -d $TRACING/instances/loadbench_$pid ]] || fail "cleanup removed a running loadbench's instance"
[[ -d $TRACING/instances/loadbench_1 ]] || fail "cleanup removed loadbench_1, which no lock proves dead"
[[ -d $TRACING/instances/loadbench_$unproven ]] ||
	fail "cleanup removed loadbench_$unproven, which no lock proves dead"
grep -q "^left alone tracefs instance loadbench_$unproven: no run lock" "$tmp/cleanup-live.txt" ||
	fail "cleanup did not say it left loadbench_$unproven alone"
rmdir "$TRACING/instances/loadbench_1" "$TRACING/instances/loadbench_$unproven"
[[ ! -d $TRACING/instances/loadbench_$dead ]] ||
	fail "cleanup kept loadbench_$dead, whose run lock was free"
[[ ! -e /run/loadbench/loadbench_$dead.lock ]] || fail "cleanup kept the lock of loadbench_$dead"
grep -qx "removed tracefs instance loadbench_$dead" "$tmp/cleanup-live.txt" ||
	fail "cleanup did not report removing loadbench_$dead"
grep -q "loadbench_$pid" "$tmp/cleanup-live.txt" && fail "cleanup reported a live run's state"
wait "$pid" || fail "the run cleanup ran beside failed: $(cat "$tmp/live.err")"
pid=

note "a leftover bearing the new run's own pid (pids are reused) and its free lock: removed"
# In a pid namespace of its own loadbench is pid 1, so loadbench_1 is its name.
if unshare --pid --fork --mount-proc true 2>/dev/null; then
	mkdir "$TRACING/instances/loadbench_1"
	install -m 600 /dev/null /run/loadbench/loadbench_1.lock
	unshare --pid --fork --mount-proc "$LOADBENCH" --probeset ftrace --duration 0.3 --warmup 0 \
		--method runs --repeat 1 --quiet --no-plot --output "$tmp/reused" >/dev/null 2>"$tmp/reused.err" ||
		fail "a run whose pid a killed run had failed: $(cat "$tmp/reused.err")"
	grep -q "removed tracefs instance loadbench_1, left by an earlier loadbench that had this pid" \
		"$tmp/reused.err" || fail "the run did not say it removed loadbench_1: $(cat "$tmp/reused.err")"
	[[ ! -d $TRACING/instances/loadbench_1 ]] || fail "loadbench_1 is still there"
	[[ ! -e /run/loadbench/loadbench_1.lock ]] || fail "the run left its lock loadbench_1.lock"
	note "the same without a lock file: maybe a live run's in a container; refused, left alone"
	mkdir "$TRACING/instances/loadbench_1"
	expect_error "tracefs instance loadbench_1 bears this run's pid .*no run lock proves" \
		unshare --pid --fork --mount-proc "$LOADBENCH" --probeset ftrace --duration 0.3 \
		--warmup 0 --method runs --repeat 1 --quiet --no-plot --output "$tmp/reused2"
	[[ -d $TRACING/instances/loadbench_1 ]] || fail "the refused run removed loadbench_1"
	rmdir "$TRACING/instances/loadbench_1"
	[[ ! -e $tmp/reused2 ]] || fail "the refused run made its results directory"
else
	note "unshare --pid not permitted here: the reused-pid case not run"
fi

if [[ -e $TRACING/uprobe_events ]]; then
	note "a SIGKILLed uprobe run leaves a uprobe (p: line in dynamic_events); cleanup removes it"
	"$LOADBENCH" --probeset uprobe --duration 1 --warmup 0 --method runs --repeat 1 --quiet --no-plot \
		--output "$tmp/killed-uprobe" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1 200); do  # after the 1 s baseline
		grep -q "loadbench_$pid/" "$TRACING/uprobe_events" && break
		sleep 0.05
	done
	grep -q "^p:loadbench_$pid/u_lb_server_request " "$TRACING/dynamic_events" ||
		fail "no uprobe loadbench_$pid/u_lb_server_request appeared: $(cat "$TRACING/dynamic_events")"
	wd=$(pgrep -P "$pid" -x lb-watchdog) || fail "no watchdog beside run $pid"
	kill -KILL "$wd" "$pid"
	wait "$pid" 2>/dev/null || true
	sleep 0.3
	"$LOADBENCH" cleanup | tee "$tmp/cleanup-uprobe.txt"
	grep -q "removed dynamic event loadbench_$pid/u_lb_server_request" "$tmp/cleanup-uprobe.txt" ||
		fail "cleanup did not remove the uprobe"
	pid=
	assert_no_leftovers
fi
echo "PASS"
