#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the command tracer (src/tracers/tracer_command.c)
# with small shell tools, so that it needs nothing installed: a tool whose
# output lines are its events (events regex:), measured under --method runs
# and alternate, with its own CPU counted; then every way a tool goes wrong,
# each one line naming the tool and what it printed last, and nothing left:
# not installed, fails before it is ready, never ready, dies mid-run, ignores
# its stop signal (killed, said, the run goes on), and loadbench SIGKILLed
# while the tool runs (its keeper ends it). The bpftrace catalog sets are
# tests/measure-bpftrace.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs

# A word in every tool's command line: pgrep finds what a case left of it.
mark=lbcmd$$x$RANDOM
tmp=$(mktemp -d)
trap 'pkill -KILL -f "$mark" 2>/dev/null || true; rm -rf "$tmp"' EXIT

assert_tool_gone() {
	local left
	assert_no_leftovers
	left=$(pgrep -af "$mark" || true)
	[[ -z $left ]] || fail "the tool is still running:"$'\n'"$left"
	left=$(tagged_leftovers '^pipe:')
	[[ -z $left ]] || fail "loadbench left processes behind:"$'\n'"$left"
}

# probe_set NAME LINE... - $tmp/NAME.probeset, tracer command, with these lines.
probe_set() {
	local name=$1
	shift
	{
		echo "description $name, a shell tool of tests/measure-command.sh"
		echo "tracer command"
		printf '%s\n' "$@"
	} >"$tmp/$name.probeset"
}

left=$(earlier_leftovers)
[[ -z $left ]] || fail "found before this test started (an earlier test's):"$'\n'"$left"

probe_set ticker "start sh -c 'echo up; while :; do echo tick $mark; sleep 0.001; done'" \
	"ready line:^up\$" "events regex:^tick" "stop SIGTERM 2"

note "a ticking tool, events from its output (events regex:), under --method runs"
lb --probeset "$tmp/ticker.probeset" --method runs --repeat 2 --duration 0.6 --warmup 0.2 \
	--output "$tmp/runs" --quiet --no-plot >"$tmp/runs.txt"
# A ticker does not slow the workload: the sign is not the point; its events and CPU are.
"$top_builddir/tests/check-results" --any-slowdown --tracer-cpu ticker "$tmp/runs" ticker \
	>"$tmp/check.txt" || { cat "$tmp/check.txt"; fail "check-results failed on the runs"; }
cat "$tmp/check.txt"
# 2 runs of 0.6 s, a tick at most every ms (a fork of sleep each: ~80/s here): events
# within what the tool could print.
events=$(sed -n 's/^check-results: ticker (command): .* \([0-9]*\) events, .*/\1/p' "$tmp/check.txt")
[[ $events -ge 5 && $events -lt 2400 ]] ||
	fail "expected 5 to 2400 ticks counted over 2 runs of 0.6 s, got '$events'"
assert_tool_gone

note "the same tool switched on and off (--method alternate)"
lb --probeset "$tmp/ticker.probeset" --method alternate --max-time 3 --duration 0.3 \
	--warmup 0.2 --output "$tmp/alt" --quiet --no-plot >"$tmp/alt.txt"
"$top_builddir/tests/check-results" --any-slowdown "$tmp/alt" ticker >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; fail "check-results failed on the alternation"; }
grep '^check-results: ticker' "$tmp/check.txt"
# Off is the tool stopped: not one tick counted in an off slice; every on slice has some.
read -r on onev off offev < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["dropped"] == 1 { next }
	$c["state"] == "ticker" { on++; if ($c["events"] > 0) onev++ }
	$c["state"] == "off" { off++; offev += $c["off_events"] }
	END { print on + 0, onev + 0, off + 0, offev + 0 }' "$tmp/alt/slices.csv")
note "slices kept: $on on ($onev with ticks), $off off ($offev ticks counted while off)"
[[ $on -gt 0 && $onev -eq $on && $off -gt 0 && $offev -eq 0 ]] ||
	fail "expected ticks in every on slice and none while off"
assert_tool_gone

note "a tool that is not installed"
probe_set missing "start no-such-tool-$mark -x"
expect_error "probe set missing cannot run here: no-such-tool-$mark is not installed.*install it" \
	lb --probeset "$tmp/missing.probeset" --method runs --repeat 1 --duration 0.3 \
	--quiet --no-plot --output "$tmp/missing"
assert_tool_gone

note "a tool that fails before it is ready"
probe_set fails "start sh -c 'echo cannot open the thing $mark; exit 3'" "ready line:^never"
expect_error "fails, round 1: sh exited with status 3 before it was ready; it printed last: cannot open the thing" \
	lb --probeset "$tmp/fails.probeset" --method runs --repeat 1 --duration 0.3 \
	--quiet --no-plot --output "$tmp/fails"
assert_tool_gone

note "a tool that never gets ready"
probe_set late "start sh -c 'echo compiling $mark; exec sleep 30'" "ready line:^Attaching" \
	"ready-within 1"
expect_error "late, round 1: sh did not get ready \(line:\^Attaching\) within 1 s.*it printed last: compiling" \
	lb --probeset "$tmp/late.probeset" --method runs --repeat 1 --duration 0.3 \
	--quiet --no-plot --output "$tmp/late"
assert_tool_gone

note "a tool that dies during the run"
probe_set dies "start sh -c 'echo up; sleep 0.5; echo out of memory $mark; exit 4'" "ready line:^up"
expect_error "dies, round 1: cannot read the tracer.s counts: sh exited with status 4 during the run; it printed last: up \| out of memory" \
	lb --probeset "$tmp/dies.probeset" --method runs --repeat 1 --duration 2 --warmup 0.1 \
	--quiet --no-plot --output "$tmp/dies"
assert_tool_gone

note "a tool that ignores its stop signal: killed after the stop timeout, said, the run goes on"
probe_set deaf "start sh -c 'trap : INT; echo up; while :; do sleep 0.05; done; echo $mark'" \
	"ready line:^up" "stop SIGINT 0.5"
rc=0
lb --probeset "$tmp/deaf.probeset" --method runs --repeat 1 --duration 0.3 --warmup 0.1 \
	--quiet --no-plot --output "$tmp/deaf" >/dev/null 2>"$tmp/deaf.err" || rc=$?
cat "$tmp/deaf.err"
[[ $rc -eq 0 ]] || fail "a tool killed after its stop timeout failed the run (exit $rc)"
grep -q "deaf: sh did not end within 0.5 s of INT and was killed, with its process group" \
	"$tmp/deaf.err" || fail "no warning that the tool ignored SIGINT"
assert_tool_gone

note "loadbench SIGKILLed while the tool runs: its keeper ends it"
LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset "$tmp/ticker.probeset" --method runs --repeat 1 \
	--duration 5 --warmup 0.1 --quiet --no-plot --output "$tmp/killed" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
	pgrep -f "tick $mark" >/dev/null && break
	sleep 0.05
done
pgrep -f "tick $mark" >/dev/null || fail "the ticker never started"
kill -KILL $pid
wait $pid 2>/dev/null || true
wait_watchdog $pid
for _ in $(seq 1 40); do
	pgrep -f "$mark" >/dev/null || break
	sleep 0.05
done
assert_tool_gone
echo "PASS"
