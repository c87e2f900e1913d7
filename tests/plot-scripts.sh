#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# gnuplot runs only the scripts loadbench has just written (no root; needs
# gnuplot). Scripts planted in a results directory (tests/fixtures/results.json)
# run a shell command through gnuplot's system(), which would create a
# marker file: a compare.gp, which 'loadbench plot' does not write; a
# slowdown.gp, which it rewrites; stale slowdown.gp, throughput.gp and
# cost.gp in the directory of 'loadbench compare --force -o EXISTING'; and a
# ~/.gnuplot init file. No marker may appear, every figure must be rendered,
# and the planted compare.gp is left as it was (not loadbench's to remove).
# The figures of an interrupted alternation (tests/fixtures/results-interrupted.json) render.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

have_gnuplot || skip "gnuplot is not installed (apt-get install gnuplot-nox): nothing would run"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
marker=$tmp/marker

# evil NAME - the text of a gnuplot script that creates $marker-NAME.
evil() { printf 'system("touch %s-%s")\nprint "planted script ran"\n' "$marker" "$1"; }

# assert_no_marker - no planted script or init file ran.
assert_no_marker() {
	local m
	m=$(compgen -G "$marker-*" || true)
	[[ -z $m ]] || fail "a planted gnuplot script ran: $m"
}

note "the attack works: gnuplot on the planted script creates the marker"
mkdir "$tmp/probe"
evil probe >"$tmp/probe/probe.gp"
(cd "$tmp/probe" && gnuplot probe.gp >/dev/null 2>&1) || true
[[ -e $marker-probe ]] || fail "gnuplot did not run system(): the test would prove nothing"
rm -f "$marker-probe"

note "loadbench plot DIR with a planted compare.gp and slowdown.gp"
fixture_results "$tmp/res"
evil compare >"$tmp/res/compare.gp"
cp "$tmp/res/compare.gp" "$tmp/compare.gp.orig"
evil slowdown >"$tmp/res/slowdown.gp"
"$LOADBENCH" plot "$tmp/res" || fail "loadbench plot failed"
assert_no_marker
assert_figures "$tmp/res" slowdown throughput cost
cmp -s "$tmp/res/compare.gp" "$tmp/compare.gp.orig" || fail "the planted compare.gp was changed"
[[ ! -e $tmp/res/compare.png ]] || fail "compare.gp was rendered"

note "loadbench compare --force -o EXISTING with stale figure scripts there"
mkdir "$tmp/cmp"
for f in slowdown throughput cost; do
	evil "$f" >"$tmp/cmp/$f.gp"
done
"$LOADBENCH" compare --force -o "$tmp/cmp" "$tmp/res" "$tmp/res" >"$tmp/cmp.out" ||
	fail "compare failed"
assert_no_marker
assert_figures "$tmp/cmp" compare
for f in slowdown throughput cost; do
	[[ ! -e $tmp/cmp/$f.png ]] || fail "the stale $f.gp was rendered"
done

note "a ~/.gnuplot init file (sudo may keep the invoking user's HOME) is not read"
mkdir "$tmp/home"
evil init >"$tmp/home/.gnuplot"
fixture_results "$tmp/res2"
HOME=$tmp/home "$LOADBENCH" plot "$tmp/res2" || fail "loadbench plot failed"
assert_no_marker
assert_figures "$tmp/res2" slowdown throughput cost

# An alternation interrupted after one set's first slices: that set's ratios have no CI and
# the next set has no operation at all. gnuplot once refused the latency figure ("all points
# y value undefined": a ratio drawn with error bars it did not have).
note "the figures of an interrupted alternation (a ratio without its CI, a set never run)"
mkdir "$tmp/int"
cp "$top_srcdir/tests/fixtures/results-interrupted.json" "$tmp/int/results.json"
"$LOADBENCH" plot "$tmp/int" >"$tmp/int.out" 2>&1 || { cat "$tmp/int.out"; fail "loadbench plot failed"; }
assert_figures "$tmp/int" slowdown throughput latency
echo "PASS"
