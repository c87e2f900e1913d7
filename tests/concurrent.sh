#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two loadbench runs on one machine (root: the run locks are root's):
# - a second run while one measures is refused in one line naming the first
#   (its pid and since when), before it measures anything;
# - two runs started at the same moment: one measures, the other is refused;
# - with --allow-concurrent the second measures, and both runs' results say
#   so (config.concurrent, a warning naming the other run), the first's too,
#   though it started alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root

tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
short=(--probeset none --method runs --warmup 0 --repeat 1 --quiet --no-plot)

# started PID DIR - wait until the run PID has made its results directory DIR (it has claimed).
started() {
	for _ in $(seq 200); do
		[[ -d $2 ]] && return 0
		[[ -e /proc/$1 ]] || return 1
		sleep 0.05
	done
	return 1
}

note "a second run while one measures: refused, naming the first"
"$LOADBENCH" "${short[@]}" --duration 3 --output "$tmp/first" >"$tmp/first.out" 2>"$tmp/first.err" &
first=$!
started "$first" "$tmp/first" || fail "the first run did not start: $(cat "$tmp/first.err")"
expect_error "^loadbench: error: another loadbench run measures on this machine: pid $first \\(since [0-9-]+ [0-9:]+\\); two at once each measure the other's load: wait for it to end, or add --allow-concurrent" \
	"$LOADBENCH" "${short[@]}" --duration 1 --output "$tmp/second"
[[ ! -e $tmp/second ]] || fail "the refused run made its results directory"

note "--allow-concurrent: the second measures, and both runs' results say so"
"$LOADBENCH" "${short[@]}" --duration 1 --allow-concurrent --output "$tmp/third" >"$tmp/third.out" \
	2>"$tmp/third.err" || fail "the --allow-concurrent run failed: $(cat "$tmp/third.err")"
wait "$first" || fail "the first run failed: $(cat "$tmp/first.err")"
for r in first third; do
	grep -q '"concurrent": true' "$tmp/$r/results.json" || fail "$r: results.json is not marked concurrent"
	grep -q 'measured beside another loadbench run (pid [0-9]* (since ' "$tmp/$r/results.json" ||
		fail "$r: no warning naming the other run"
	grep -q '^warning: measured beside another loadbench run' "$tmp/$r.out" ||
		fail "$r: the table does not say it: $(cat "$tmp/$r.out")"
done
grep -q "measured beside another loadbench run (pid $first " "$tmp/third/results.json" ||
	fail "the second run's results do not name the first (pid $first)"

note "two runs started at the same moment: one measures, the other is refused"
for i in 1 2; do
	"$LOADBENCH" "${short[@]}" --duration 1 --output "$tmp/same$i" >/dev/null 2>"$tmp/same$i.err" &
done
ok=0 refused=0
for job in $(jobs -p); do
	if wait "$job"; then ok=$((ok + 1)); else refused=$((refused + 1)); fi
done
[[ $ok -eq 1 && $refused -eq 1 ]] ||
	fail "$ok measured, $refused refused: $(cat "$tmp/same1.err" "$tmp/same2.err")"
grep -qh 'another loadbench run measures on this machine: pid [0-9]* ' "$tmp/same1.err" "$tmp/same2.err" ||
	fail "the refused one does not say why: $(cat "$tmp/same1.err" "$tmp/same2.err")"
! grep -q '"concurrent"' "$tmp"/same[12]/results.json || fail "the run alone is marked concurrent"
echo "PASS"
