#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Integration test of the lttng-ust tracer: the workload server's LTTng-UST
# tracepoints (loadbench:request, loadbench:reply) recorded by LTTng's
# user-space tracer, measured for real on this machine (no kernel module).
# Where it cannot run (a build without liblttng-ust or liblttng-ctl, not
# root), `loadbench list' must say why in one line and the test skips. With
# no session daemon running, the test starts one of its own (lttng-sessiond
# --daemonize --no-kernel) and stops it at the end; one already running is
# used and left alone. Checked: events recorded, exactly 2 per operation, a
# slowdown; alternated, no event in an off slice; a server of a run without
# the set never loads the provider; no loadbench_* session, no trace
# directory and no process left.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
ours=
cleanup() {
	if [[ -n $ours ]]; then
		kill -TERM "$ours" 2>/dev/null || true
		for _ in $(seq 50); do
			kill -0 "$ours" 2>/dev/null || break
			sleep 0.1
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

"$LOADBENCH" list >"$tmp/list.txt"
line=$(grep -A1 "^lttng-ust " "$tmp/list.txt" | tail -1)
[[ $line =~ runs\ here|cannot\ run\ here:\  ]] ||
	fail "loadbench list says nothing about lttng-ust:"$'\n'"$(cat "$tmp/list.txt")"
reason=$(sed -n 's/.*cannot run here: //p' <<<"$line")
if [[ -n $reason && ! $reason =~ lttng-sessiond ]]; then
	[[ $reason =~ built\ without\ liblttng|needs\ root|babeltrace2|LTTng-UST\ provider ]] ||
		fail "unexpected reason for lttng-ust: $reason"
	skip "lttng-ust: $reason"
fi
require_root
command -v lttng-sessiond >/dev/null || skip "no lttng-sessiond (apt-get install lttng-tools)"
assert_no_leftovers

if ! lttng list >/dev/null 2>&1; then
	note "no session daemon: starting one of ours, stopped at the end"
	lttng-sessiond --daemonize --no-kernel >"$tmp/sessiond.out" 2>&1 ||
		skip "lttng-sessiond --daemonize --no-kernel cannot start here: $(tail -1 "$tmp/sessiond.out")"
	ours=$(pgrep -x lttng-sessiond | head -1)
	[[ -n $ours ]] || skip "lttng-sessiond started but does not run: $(tail -1 "$tmp/sessiond.out")"
	for _ in $(seq 50); do
		lttng list >/dev/null 2>&1 && break
		sleep 0.1
	done
	lttng list >/dev/null 2>&1 || skip "lttng-sessiond runs but does not answer lttng list"
fi

# per_op NAME FILE: the events/op check-results printed for probe set NAME.
per_op() {
	sed -n "s/^check-results: $1 (.*, \([0-9.]*\) events\/op.*/\1/p" "$2"
}

note "lttng-ust: runs, events read back from the trace, exactly 2 per operation"
"$LOADBENCH" --probeset lttng-ust --duration 1 --warmup 0.3 --method runs --repeat 3 --quiet \
	--no-plot --output "$tmp/runs" | tee "$tmp/runs.txt"
# Three runs cannot sign a slowdown of a few percent (the alternated run below does).
"$top_builddir/tests/check-results" --any-slowdown "$tmp/runs" lttng-ust | tee "$tmp/check.txt"
epo=$(per_op lttng-ust "$tmp/check.txt")
awk -v e="$epo" 'BEGIN { exit !(e >= 1.9 && e <= 2.1) }' ||
	fail "lttng-ust events/op is $epo, expected 2 (a request and a reply per operation)"
note "lttng-ust events/op: $epo"
assert_no_leftovers

note "lttng-ust alternated: the events disabled while off record nothing"
"$LOADBENCH" --probeset lttng-ust --max-time 10 --quiet --no-plot --output "$tmp/alt" |
	tee "$tmp/alt.txt"
"$top_builddir/tests/check-results" "$tmp/alt" lttng-ust >"$tmp/altcheck.txt" ||
	{ cat "$tmp/altcheck.txt"; fail "check-results failed on the alternated lttng-ust"; }
off=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(next(p for p in d["probesets"] if p["name"] == "lttng-ust")["summary"]["off_events"])' \
	"$tmp/alt/results.json")
[[ $off == 0 ]] || fail "lttng-ust recorded $off events in its off slices"
assert_no_leftovers

note "a run without the set: its server never loads the provider"
"$LOADBENCH" --probeset none --duration 2 --warmup 0.2 --method runs --repeat 1 --quiet --no-plot \
	--output "$tmp/none" >/dev/null 2>&1 &
pid=$!
sleep 1.2
maps=$(for c in $(pgrep -P "$pid"); do cat "/proc/$c/maps" 2>/dev/null; done)
wait "$pid" || fail "the run without lttng-ust failed"
[[ -n $maps ]] || fail "found no workload process of run $pid to look at"
! grep -q "loadbench-ust.so\|liblttng-ust" <<<"$maps" ||
	fail "a server of a run without lttng-ust loaded the LTTng-UST provider"
assert_no_leftovers
note "ok"
