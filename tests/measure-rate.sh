#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of --rate (the open loop): udp-rr at 500 requests per
# second under the strace probe set, alternating. The schedule holds the
# throughput (check-results: no set above the rate, the baseline within 10% of
# it), every operation is timed from its scheduled send, strace's latency is
# above the untraced one and its tracing process uses CPU; results.json records
# the rate and every slice's late sends, and results.csv has the late column.
# tcp-rr at 2000/s with fresh runs, the same checks. Nothing is left behind.
# Nothing here is timed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here strace

assert_no_leftovers
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

note "udp-rr open loop at 500/s under strace"
lb --probeset strace --rate 500 --max-time 10 --precision 5 --warmup 0.3 --quiet --no-plot \
	--output "$tmp/u" | tee "$tmp/u.txt"
grep -q '"rate": 500,' "$tmp/u/results.json" || fail "results.json does not record rate 500"
grep -q '"late": [0-9]' "$tmp/u/results.json" || fail "results.json has no late counts"
grep -q '^open loop at 500 requests/s per flow' "$tmp/u.txt" || fail "the summary does not say open loop"
head -1 "$tmp/u/results.csv" | grep -q ',late,' || fail "results.csv has no late column"
"$top_builddir/tests/check-results" --latency-above strace --tracer-cpu strace "$tmp/u" strace \
	>"$tmp/checku.txt" || { cat "$tmp/checku.txt"; fail "check-results failed (udp-rr)"; }
grep '^check-results: rate\|^check-results: latency' "$tmp/checku.txt"

note "tcp-rr open loop at 2000/s, fresh runs, syscalls-pid"
if [[ $(listed_why syscalls-pid) == "runs here" ]]; then
	lb --workload tcp-rr --probeset syscalls-pid --rate 2000 --method runs --repeat 2 \
		--duration 1 --warmup 0.3 --quiet --no-plot --output "$tmp/t" >"$tmp/t.txt"
	grep -q '"rate": 2000,' "$tmp/t/results.json" || fail "results.json does not record rate 2000"
	"$top_builddir/tests/check-results" "$tmp/t" syscalls-pid \
		>"$tmp/checkt.txt" || { cat "$tmp/checkt.txt"; fail "check-results failed (tcp-rr)"; }
	grep '^check-results: rate' "$tmp/checkt.txt"
else
	note "syscalls-pid: $(listed_why syscalls-pid): the tcp-rr part is not run"
fi
assert_no_leftovers
