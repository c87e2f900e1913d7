#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A short run under valgrind memcheck: no invalid access, no memory definitely
# lost (libtracefs's own known leak aside: tests/valgrind.supp). Traces with
# ftrace as root; measures the baseline alone otherwise.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip "valgrind is not installed (apt-get install valgrind)"
# A sanitizer build cannot run under valgrind.
# (Symbols captured first: under pipefail, grep -q closing the pipe early fails the test.)
syms=$(nm "$LOADBENCH" 2>/dev/null || true)
if [[ $syms == *__asan_init* ]]; then
	skip "this is an --enable-sanitizers build (ASan and valgrind do not mix)"
fi
probes=none
if [[ $(id -u) -eq 0 ]]; then
	require_tracefs
	# ftrace-consumer: its reader threads (libtracefs's tracefs_cpu_*) too.
	probes=ftrace,ftrace-consumer
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--error-exitcode=42 --child-silent-after-fork=yes \
	--suppressions="$top_srcdir/tests/valgrind.supp" --log-file="$tmp/vg.log" \
	"$LOADBENCH" --probeset "$probes" --duration 0.5 --warmup 0.2 --method runs --repeat 2 --quiet \
	--output "$tmp/r" >/dev/null || rc=$?
cat "$tmp/vg.log"
[[ $rc -ne 42 ]] || fail "valgrind found memory errors or definite leaks (above)"
[[ $rc -eq 0 ]] || fail "loadbench under valgrind exited $rc"
[[ -s $tmp/r/results.json ]] || fail "no results written under valgrind"
# Under valgrind every run is many times slower and the machine's noise decides the sign of a
# slowdown: the memory checks are the point here, the signs are checked in measure*.sh.
"$top_builddir/tests/check-results" --any-slowdown "$tmp/r" \
	$([[ $probes == none ]] || echo "${probes//,/ }") ||
	fail "results under valgrind do not check out"
assert_no_leftovers
if [[ $probes != none ]]; then
	# The default method too: the alternation's switching, slices and their statistics.
	rc=0
	valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
		--error-exitcode=42 --child-silent-after-fork=yes \
		--suppressions="$top_srcdir/tests/valgrind.supp" --log-file="$tmp/vg-alt.log" \
		"$LOADBENCH" --probeset ftrace --max-time 3 --duration 0.5 --warmup 0.2 --quiet \
		--output "$tmp/alt" >/dev/null || rc=$?
	cat "$tmp/vg-alt.log"
	[[ $rc -ne 42 ]] || fail "valgrind found memory errors or definite leaks in --method alternate"
	[[ $rc -eq 0 ]] || fail "loadbench --method alternate under valgrind exited $rc"
	"$top_builddir/tests/check-results" --any-slowdown "$tmp/alt" ftrace ||
		fail "alternate results under valgrind do not check out"
	assert_no_leftovers
fi
echo "PASS (probe set: $probes; valgrind clean, also alternating)"
