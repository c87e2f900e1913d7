#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root test: SIGINT and SIGTERM at 20 varied moments of a tracing run. Every time:
# exit status 128+N (or 0 when the run had already finished), the partial
# results written and marked incomplete, and no tracefs instance, event or
# process left behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
interrupted=0
runs=20
for i in $(seq 1 $runs); do
	sig=INT
	((i % 2)) || sig=TERM
	# Spread the signals over set-up, warm-up, measurement, between runs
	# and round ends: the first half within the first second, the rest
	# anywhere in the ~6 s a run takes.
	if ((i <= runs / 2)); then
		delay=$(printf '0.%02d' $(((i * 37 + RANDOM) % 100)))
	else
		delay=$((RANDOM % 6)).$((RANDOM % 10))
	fi
	# Its own process group, so that a third of the signals can go to the whole group as a
	# terminal's Ctrl-C does (the workload processes must ignore it; loadbench stops them).
	setsid "$LOADBENCH" --probeset ftrace,syscalls --duration 0.5 --warmup 0.2 --repeat 3 \
		--quiet --no-plot --output "$tmp/r$i" >"$tmp/out$i" 2>"$tmp/err$i" &
	pid=$!
	sleep "$delay"
	target=$pid
	((i % 3)) || target=-$pid
	kill -"$sig" -- "$target" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	if [[ $rc -eq 0 ]]; then
		note "run $i: finished before SIG$sig at ${delay}s"
	elif [[ $rc -eq $want ]]; then
		interrupted=$((interrupted + 1))
		if [[ -s $tmp/r$i/results.json ]]; then
			grep -q '"complete": *false' "$tmp/r$i/results.json" ||
				fail "run $i: interrupted results not marked incomplete"
		fi
		note "run $i: SIG$sig to ${target} at ${delay}s -> exit $rc, $(tail -1 "$tmp/err$i")"
	else
		fail "run $i: SIG$sig at ${delay}s gave exit $rc, expected $want: $(cat "$tmp/err$i")"
	fi
	assert_no_leftovers
done
((interrupted >= runs / 2)) ||
	fail "only $interrupted of $runs runs were interrupted; the timing is off"
echo "PASS ($interrupted runs interrupted)"
