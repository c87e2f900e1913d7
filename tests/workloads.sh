#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test: a short real measurement (baseline + ftrace) with each
# workload besides the default udp-rr (tests/measure.sh covers that one),
# checked by tests/check-results (slowdown > 0 inside its CI, events > 0, JSON
# keys, CSV rows); and that no tracing state or workload process is left.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for w in tcp-rr icmp-flood udp-stream; do
	note "workload $w"
	"$LOADBENCH" --workload "$w" --probeset ftrace --duration 0.5 --warmup 0.2 --method runs --repeat 2 \
		--quiet --no-plot --output "$tmp/$w" >"$tmp/$w.txt"
	"$top_builddir/tests/check-results" "$tmp/$w" ftrace
	grep -q "\"placement\": *\"$w " "$tmp/$w/results.json" ||
		fail "$w: results.json does not name the workload in its placement"
	assert_no_leftovers
done
echo "PASS"
