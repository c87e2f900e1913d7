#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The libFuzzer harnesses (make fuzz) build and replay their regression cases:
# their source lists are kept by hand in Makefile.am, and a source a harness
# now needs but does not list fails only at link time, which make check would
# otherwise not see (needs clang; no root).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

command -v clang >/dev/null || skip "clang is not installed (apt-get install clang): the fuzzers need libFuzzer"
[[ -n ${top_builddir:-} ]] || skip "run by make check (top_builddir unset)"
out=$(make -s -C "$top_builddir" tests/fuzz-probeset tests/fuzz-results 2>&1) ||
	fail "a fuzz harness does not build (a source missing from its list in Makefile.am?): $(tail -n 5 <<<"$out")"
note "tests/fuzz-probeset and tests/fuzz-results built"
for h in probeset results; do
	n=$(find "$top_srcdir/tests/fuzz-regressions/$h" -type f | wc -l)
	[[ $n -gt 0 ]] || fail "no regression cases in tests/fuzz-regressions/$h"
	log=$("$top_builddir/tests/fuzz-$h" -runs=0 "$top_srcdir/tests/fuzz-regressions/$h" 2>&1) ||
		fail "fuzz-$h fails on its regression cases: $(tail -n 8 <<<"$log")"
	grep -q "INITED" <<<"$log" || fail "fuzz-$h did not run its inputs: $(tail -n 5 <<<"$log")"
	note "fuzz-$h replayed $n regression case(s)"
done
echo PASS
