#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# loadbench export from the command line: --help, the usage errors (exit 2,
# one line), -o FILE written whole and never over an existing file without
# --force, never through or over a symbolic link, - for standard output.
# No root; the formats themselves are tests/test-export's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/run
fixture_results "$dir"
ex() { "$LOADBENCH" export "$@"; }

note "--help, -h"
for h in --help -h; do
	[[ $(ex "$h" 2>"$tmp/help.err") == "Usage: loadbench export --format "* ]] ||
		fail "export $h: no usage"
	[[ ! -s $tmp/help.err ]] || fail "export $h wrote on stderr: $(cat "$tmp/help.err")"
done

note "usage errors"
expect_error --exit 2 'export needs --format' ex "$dir"
expect_error --exit 2 "format 'xml': expected kcidb, benchmark-action, lava or junit" \
	ex --format xml "$dir"
expect_error --exit 2 'fail-above is the gate.s.*add --baseline DIR' \
	ex --format junit --fail-above 3 "$dir"
expect_error --exit 2 'baseline is for --format junit' ex --format lava --baseline "$dir" "$dir"
expect_error --exit 2 "fail-above 'x': expected a number" \
	ex --format junit --baseline "$dir" --fail-above x "$dir"
expect_error --exit 2 'origin is for --format kcidb' ex --format junit --origin lab "$dir"
expect_error --exit 2 "origin 'My-Lab': expected a KCIDB origin" \
	ex --format kcidb --origin My-Lab "$dir"
expect_error --exit 2 "build-id 'abc': expected a KCIDB build id" \
	ex --format kcidb --build-id abc "$dir"
expect_error --exit 2 'force replaces an existing -o FILE' ex --format lava --force "$dir"
expect_error --exit 2 'usage: loadbench export' ex --format lava
expect_error --exit 2 'usage: loadbench export' ex --format lava "$dir" "$dir"
expect_error --exit 1 'not a results directory' ex --format lava "$tmp"

note "standard output, and - for it"
[[ $(ex --format lava "$dir") == "lava-test-case udp-rr.ftrace --result pass "* ]] ||
	fail "lava on stdout"
[[ $(ex --format lava -o - "$dir") == $(ex --format lava "$dir") ]] || fail "-o - is not stdout"

note "-o FILE: written, then never replaced without --force"
ex --format junit -o "$tmp/r.xml" "$dir"
grep -q '<testsuite name="loadbench.udp-rr"' "$tmp/r.xml" || fail "-o FILE not written"
[[ $(stat -c %a "$tmp/r.xml") == 644 ]] || fail "-o FILE is not 0644"
echo keep >"$tmp/r.json"
expect_error --exit 1 'r.json exists: give another path, or add --force' \
	ex --format kcidb -o "$tmp/r.json" "$dir"
[[ $(cat "$tmp/r.json") == keep ]] || fail "an existing -o FILE was changed"
ex --format kcidb --force -o "$tmp/r.json" "$dir"
grep -q '"major": 5' "$tmp/r.json" || fail "--force did not replace -o FILE"
[[ -z $(find "$tmp" -name '.loadbench-export-*') ]] || fail "a temporary file was left in $tmp"

note "a symbolic link at FILE: neither followed nor replaced, --force or not"
echo victim >"$tmp/victim"
ln -s victim "$tmp/link.json"
expect_error --exit 1 'link.json is a symbolic link' ex --format kcidb -o "$tmp/link.json" "$dir"
expect_error --exit 1 'link.json is a symbolic link' \
	ex --format kcidb --force -o "$tmp/link.json" "$dir"
[[ -L $tmp/link.json && $(cat "$tmp/victim") == victim ]] || fail "the link or its target changed"
ln -s "$tmp/nowhere" "$tmp/dangling.json"
expect_error --exit 1 'dangling.json is a symbolic link' \
	ex --format kcidb -o "$tmp/dangling.json" "$dir"
[[ ! -e $tmp/nowhere ]] || fail "a dangling link was followed"

note "a directory, a linked directory, a missing one"
mkdir "$tmp/d"
expect_error --exit 1 'is a directory, not a file' ex --format lava --force -o "$tmp/d" "$dir"
expect_error --exit 1 'names a directory' ex --format lava -o "$tmp/d/" "$dir"
ln -s d "$tmp/dlink"
expect_error --exit 1 'dlink is a symbolic link' ex --format lava -o "$tmp/dlink/x" "$dir"
[[ ! -e $tmp/d/x ]] || fail "written through a linked directory"
expect_error --exit 1 'refused: cannot open the directory' \
	ex --format lava -o "$tmp/missing/x" "$dir"

note "nothing to export (benchmark-action of an interrupted run): exit 1, nothing written"
mkdir "$tmp/int"
cp "$top_srcdir/tests/fixtures/results-interrupted.json" "$tmp/int/results.json"
expect_error --exit 1 'no probe set measured in a complete run' \
	ex --format benchmark-action -o "$tmp/b.json" "$tmp/int"
[[ ! -e $tmp/b.json ]] || fail "benchmark-action wrote a file with nothing in it"
note "ok"
