#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of --method alternate, the default: every probe set
# that can be switched here is alternated off/on inside one running workload
# and checked by tests/check-results (slices in order, as many on as off,
# next to no events while off, a finite CI from 2 or more units); syscalls-pid
# (16 events per round trip, a slowdown of tens of percent) must come out
# slower than the baseline. The two methods measure the same thing: the same
# events per operation within 2%, and CIs that overlap. A set with a
# compare-with line is alternated with the set it builds on (off / base /
# set), and its paired slowdown against the base is there. An interrupt in
# the middle of a slice leaves nothing behind and writes incomplete results,
# whose figures render although the second set never ran. --time-budget
# binds: two sets share it instead of taking --max-time each. Every run's operations are timed
# (where the clock allows), and strace's latency comes out above the untraced one.
# Nothing here is timed: precision is bench/precision's business.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here syscalls
require_runs_here syscalls-pid

assert_no_leftovers
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

switchable=$(running_here syscalls ftrace syscalls-pid perf-count perf bpf bpf-raw strace)
sets=$(echo $switchable | tr ' ' ,)
note "alternating: $sets"
lb --probeset "$sets" --alone --max-time 6 --duration 0.5 --warmup 0.3 --quiet --no-plot \
	--output "$tmp/alt" | tee "$tmp/alt.txt"
grep -q '"method": *"alternate"' "$tmp/alt/results.json" || fail "results.json does not say alternate"
grep -q '^method: alternate' "$tmp/alt.txt" || fail "the summary does not say alternate"
rc=0
# strace stops the workload at every syscall: its latency must come out above the untraced one
# (checked where the operations are timed; check-results says when they are not).
above=()
if [[ ,$sets, == *,strace,* ]] && grep -q '^latency per operation' "$tmp/alt.txt"; then
	above=(--latency-above strace)
fi
# The sign is checked for syscalls only (below): cheap sets can read negative on a loaded machine.
"$top_builddir/tests/check-results" --any-slowdown "${above[@]}" "$tmp/alt" $switchable \
	>"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on the alternating run (exit $rc)"
assert_no_leftovers

# syscalls-pid, not syscalls: its events are the workload's own, so events/op is 16 whatever
# else runs on the machine (a compiler beside the test added 3% to syscalls' count once).
# Each CI from as many units or rounds as loadbench trusts (16 units, 5 rounds: below that it
# warns): CIs it calls too narrow once missed each other (runs 5 x 0.5 s rounded low, 24-30% in
# five tries here, against 30-33% alternated).
note "syscalls-pid under both methods: the same events per operation, overlapping CIs"
lb --probeset syscalls-pid --max-time 10 --precision 0.5 --duration 0.5 --warmup 0.3 --quiet \
	--no-plot --output "$tmp/a" >/dev/null
lb --probeset syscalls-pid --method runs --duration 0.5 --warmup 0.3 --repeat 8 --quiet --no-plot \
	--output "$tmp/r" >/dev/null
"$top_builddir/tests/check-results" "$tmp/a" syscalls-pid >"$tmp/a.check" ||
	{ cat "$tmp/a.check"; fail "check-results failed on the alternating syscalls-pid run"; }
"$top_builddir/tests/check-results" --any-slowdown "$tmp/r" syscalls-pid >"$tmp/r.check" ||
	{ cat "$tmp/r.check"; fail "check-results failed on the syscalls-pid runs"; }
cat "$tmp/a.check" "$tmp/r.check"
ci() { sed -n 's/^check-results: syscalls-pid (.*slowdown \([-0-9.]*\)% \[\([-0-9.]*\), \([-0-9.]*\)\].*/\1 \2 \3/p' "$1"; }
read -r sa la ha <<<"$(ci "$tmp/a.check")"
read -r sr lr hr <<<"$(ci "$tmp/r.check")"
ea=$(per_op syscalls-pid "$tmp/a.check")
er=$(per_op syscalls-pid "$tmp/r.check")
note "alternate: $sa% [$la, $ha], $ea events/op; runs: $sr% [$lr, $hr], $er events/op"
awk -v a="$ea" -v b="$er" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 0.02 * b) }' ||
	fail "events/op differ between the methods: alternate $ea, runs $er"
awk -v la="$la" -v ha="$ha" -v lr="$lr" -v hr="$hr" 'BEGIN { exit !(la <= hr && lr <= ha) }' ||
	fail "the methods' CIs do not overlap: alternate [$la, $ha], runs [$lr, $hr]"
assert_no_leftovers

note "a set with compare-with, alternated with its base: off / syscalls / syscalls+ftrace"
{
	grep -v '^description' "$top_srcdir/probesets/ftrace.probeset"
	printf 'description the ftrace set and every syscall\n'
	printf 'tracepoint raw_syscalls:sys_enter\ntracepoint raw_syscalls:sys_exit\ncompare-with ftrace\n'
} >"$tmp/both.probeset"
lb --probeset "$tmp/both.probeset" --max-time 4 --duration 0.5 --warmup 0.3 --quiet --no-plot \
	--output "$tmp/pair" | tee "$tmp/pair.txt"
"$top_builddir/tests/check-results" --any-slowdown "$tmp/pair" ftrace both >"$tmp/pair.check" ||
	{ cat "$tmp/pair.check"; fail "check-results failed on the pair"; }
cat "$tmp/pair.check"
grep -q '^both vs ftrace (the set it builds on): .*slowdown against ftrace -\?[0-9.]*% \[' \
	"$tmp/pair.txt" || fail "no paired slowdown against the base with a CI"
eb=$(per_op both "$tmp/pair.check")
ef=$(per_op ftrace "$tmp/pair.check")
awk -v b="$eb" -v f="$ef" 'BEGIN { exit !(b - f > 10) }' ||
	fail "both ($eb events/op) does not add the ~16 syscall events to ftrace's ($ef)"
# check-results checked that both were alternated in one workload: their slices are the same.
assert_no_leftovers

note "--time-budget: two sets that never reach 0.01 pp share 40 s instead of 60 s each"
# The first pass shares 70% (28 s, ~10 s of units each after the set-up); what is left then
# (~12 s) tops up the wider of the two, in a workload of its own.
lb --probeset syscalls,syscalls-pid --alone --max-time 60 --precision 0.01 --time-budget 40 \
	--warmup 0.3 --quiet --no-plot --output "$tmp/budget" | tee "$tmp/budget.txt"
grep -q '"time_budget_s": 40' "$tmp/budget/results.json" || fail "results.json has no time_budget_s 40"
grep -q '^method: .*within a 40 s budget for all sets: 70% of it shared out equally' \
	"$tmp/budget.txt" || fail "the summary's method line does not name the budget"
for s in syscalls syscalls-pid; do
	t=$(sed -n "s/^$s: [0-9]* units in \([0-9.]*\) s.*/\1/p" "$tmp/budget.txt")
	[[ -n $t ]] || fail "no alternation line for $s"
	# Its share and a top-up, set-up not included: below --max-time's 60 s and the budget.
	awk -v t="$t" 'BEGIN { exit !(t < 36) }' || fail "$s alternated $t s: the budget did not bind"
	grep -q "^warning: $s.*give it more --max-time or --time-budget" \
		"$tmp/budget.txt" || fail "no warning naming --time-budget for $s"
	note "$s: $t s of a 40 s budget"
done
# At least one was topped up (the widest first), and its line says with what: once, or
# again when its first top-up's units came out wider than projected ("2 top-ups", seen).
n=$(grep -cE '^syscalls[a-z-]*: [0-9]+ units in [0-9.]+ s \([0-9.]+ s in the first pass, [0-9.]+ s in (1 top-up|([2-9]|[1-9][0-9]+) top-ups) of the budget\)' \
	"$tmp/budget.txt") || true
((n >= 1)) || fail "no set was topped up (no line names a first pass and a top-up)"
# Its slices: a stretch of units per alternation, numbered on, a run each paired with a plain one.
"$top_builddir/tests/check-results" --any-slowdown "$tmp/budget" syscalls syscalls-pid \
	>"$tmp/budget.check" || { cat "$tmp/budget.check"; fail "check-results failed on the top-up"; }
grep -qE '"alternations": [2-9]' "$tmp/budget/results.json" ||
	fail "results.json does not say which set had 2 alternations or more"
assert_no_leftovers

note "an interrupt mid-slice"
# Not through lb(): a function in the background is a subshell, which the signal would hit.
LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset syscalls,ftrace --max-time 30 --precision 0.01 \
	--duration 0.5 --warmup 0.3 --quiet --no-plot --output "$tmp/int" >/dev/null \
	2>"$tmp/int.err" &
pid=$!
# The warm-up and the plain slices before arm take ~1.3 s, the arm a few ms: 2.5 s is well
# inside the alternation.
sleep 2.5
kill -INT $pid
rc=0
wait $pid || rc=$?
cat "$tmp/int.err"
[[ $rc -eq 130 ]] || fail "interrupted alternation exited $rc, not 130"
grep -q '"complete": *false' "$tmp/int/results.json" || fail "interrupted results not marked incomplete"
grep -q '"slices"' "$tmp/int/results.json" || fail "the slices measured before the interrupt are not kept"
assert_no_leftovers
# ftrace never ran: the figures of such partial results still render (gnuplot failed once).
if command -v gnuplot >/dev/null; then
	"$LOADBENCH" plot "$tmp/int" || fail "loadbench plot failed on the interrupted alternation"
	[[ -s $tmp/int/throughput.png ]] || fail "no throughput figure for the interrupted alternation"
fi

note "loadbench stopped (SIGSTOP) twice for 1.5 s mid-alternation: a slice a stop falls in is dropped with its unit, and said"
# A stop that falls in a slice's window makes it long; one that falls in
# the settling or a switch (about a fifth of the time) only delays the next
# slice: a gap between slices, nothing to drop. Each stop must be one or the
# other (an arming slow enough to count as a gap only adds one), and every
# long slice dropped; two stops exercise the drop but for 1 time in 25,
# which the test says.
LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset syscalls --max-time 8 --precision 0.01 \
	--duration 0.5 --warmup 0.3 --quiet --no-plot --output "$tmp/stop" >/dev/null \
	2>"$tmp/stop.err" &
pid=$!
# Its instance appears when the set's arming begins, after the plain slices;
# arming and the warm-up take 0.6 s here, and a stop in them is a gap too.
for _ in $(seq 200); do
	[[ -d $TRACING/instances/loadbench_$pid ]] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
[[ -d $TRACING/instances/loadbench_$pid ]] || fail "the stopped run never armed: $(cat "$tmp/stop.err")"
sleep 1.5
for _ in 1 2; do
	kill -STOP $pid
	sleep 1.5
	kill -CONT $pid
	sleep 1
done
wait $pid || fail "the stopped run failed: $(cat "$tmp/stop.err")"
# slices.csv: probeset,unit,state,start,seconds,...,dropped (column 13)
read -r long undropped gaps < <(awk -F, 'NR > 1 {
		if ($5 > 1.2) { long++; if ($13 != 1) undropped++ }
		if (NR > 2 && $4 - prev_end > 1.2) gaps++
		prev_end = $4 + $5
	} END { print long + 0, undropped + 0, gaps + 0 }' "$tmp/stop/slices.csv")
[[ $undropped -eq 0 ]] || fail "$undropped long slice(s) kept: $(awk -F, '$5 > 1.2' "$tmp/stop/slices.csv")"
[[ $((long + gaps)) -ge 2 ]] ||
	fail "2 stops, but $long long slice(s) and $gaps gap(s) of over 1.2 s: $(awk -F, 'NR > 1 { print $3, $4, $5, $13 }' "$tmp/stop/slices.csv" | tr '\n' ';')"
if [[ $long -gt 0 ]]; then
	grep -q 'syscalls: [1-9][0-9]* slice(s) ran over 2x the median slice (the longest [0-9.]* s against 0.10 s: a stopped process or a stalled machine); dropped with their units' \
		"$tmp/stop/results.json" || fail "the long slice was not said: $(grep -A3 warnings "$tmp/stop/results.json")"
	note "$long stop(s) in a slice, dropped and said; $gaps between slices"
else
	note "both stops fell between slices (1 time in 25): the drop was not exercised this time"
fi
assert_no_leftovers
echo "PASS"
