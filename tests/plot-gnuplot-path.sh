#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# loadbench runs gnuplot only from an absolute directory of PATH (no root).
# A results directory (tests/fixtures/results.json) holds an executable
# "gnuplot" that would create a marker file; PATH has an empty entry (":"
# at either end or "::"), "." or a relative entry, before or without the
# real gnuplot's directory, and loadbench runs from inside the directory
# too. The planted gnuplot must never run: with the real gnuplot also in
# PATH the figures are rendered by it; with none in an absolute directory,
# loadbench says in one line that gnuplot is not installed and that empty
# and relative entries are skipped, and still writes the .gp and .dat.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
marker=$tmp/marker
touch=$(command -v touch)	# the planted script runs with PATH=: too
real=
have_gnuplot && real=$(dirname "$(command -v gnuplot)")

# plant DIR - DIR/gnuplot and DIR/bin/gnuplot: scripts that create the marker.
plant() {
	mkdir -p "$1/bin"
	printf '#!/bin/sh\n%s %s\nexit 0\n' "$touch" "$marker" >"$1/gnuplot"
	chmod 755 "$1/gnuplot"
	cp "$1/gnuplot" "$1/bin/gnuplot"
}

assert_no_marker() {
	[[ ! -e $marker ]] || fail "the gnuplot planted in the results directory ran ($*)"
}

note "the attack works: the planted gnuplot creates the marker when run"
mkdir "$tmp/probe"
plant "$tmp/probe"
(cd "$tmp/probe" && PATH=: gnuplot)
[[ -e $marker ]] || fail "the planted gnuplot did not run: the test would prove nothing"
rm -f "$marker"

if [[ -n $real ]]; then
	for path in ":$real" "::$real" ".:$real" "bin:$real" "$real:"; do
		note "PATH=$path, the real gnuplot in $real"
		rm -rf "$tmp/res"
		fixture_results "$tmp/res"
		plant "$tmp/res"
		env PATH="$path" "$LOADBENCH" plot "$tmp/res" || fail "loadbench plot failed (PATH=$path)"
		assert_no_marker "PATH=$path"
		assert_figures "$tmp/res" slowdown throughput cost
		(cd "$tmp/res" && env PATH="$path" "$LOADBENCH" plot .) ||
			fail "loadbench plot . failed (PATH=$path)"
		assert_no_marker "PATH=$path, in the directory"
	done
	note "compare -o a directory holding a planted gnuplot, PATH=:$real"
	plant "$tmp/cmp"
	env PATH=":$real" "$LOADBENCH" compare --force -o "$tmp/cmp" "$tmp/res" "$tmp/res" \
		>"$tmp/cmp.out" || fail "compare failed"
	assert_no_marker "compare"
	assert_figures "$tmp/cmp" compare
	note "a figure gnuplot fails on leaves the good figure there as it was"
	# A gnuplot that, for slowdown.gp alone, makes an empty slowdown.png and fails (as
	# one killed mid-figure would); the real one renders the others.
	mkdir -p "$tmp/failing"
	printf '#!/bin/sh\nfor a; do s=$a; done\nif [ "$s" = slowdown.gp ]; then : >slowdown.png; echo "slowdown.gp, line 1: killed" >&2; exit 1; fi\nexec %s/gnuplot "$@"\n' \
		"$real" >"$tmp/failing/gnuplot"
	chmod 755 "$tmp/failing/gnuplot"
	cp "$tmp/res/slowdown.png" "$tmp/slowdown.good.png"
	touch -d '2000-01-01' "$tmp/res/cost.png"
	set +e
	env PATH="$tmp/failing:$real" "$LOADBENCH" plot "$tmp/res" >/dev/null 2>"$tmp/failing.err"
	rc=$?
	set -e
	[[ $rc -eq 1 ]] || fail "loadbench plot with a failing figure exited $rc, not 1"
	grep -q "slowdown.gp, line 1: killed" "$tmp/failing.err" ||
		fail "gnuplot's error was not said: $(cat "$tmp/failing.err")"
	cmp -s "$tmp/res/slowdown.png" "$tmp/slowdown.good.png" ||
		fail "the good slowdown.png was replaced by what the failed render left ($(stat -c %s "$tmp/res/slowdown.png") bytes)"
	[[ $(find "$tmp/res" -name cost.png -newer "$tmp/slowdown.good.png") ]] ||
		fail "the other figures were not rendered again after one failed"
	[[ -z $(ls -d "$tmp/res"/.loadbench-plot-* 2>/dev/null) ]] || fail "a staging directory was left"
else
	note "gnuplot is not installed: only PATHs without it are tried"
fi

for path in ":" "." "bin" "bin::."; do
	note "PATH=$path, no gnuplot in an absolute directory, run in the results directory"
	rm -rf "$tmp/res"
	fixture_results "$tmp/res"
	plant "$tmp/res"
	(cd "$tmp/res" && expect_error \
		'gnuplot is not installed \(not in any absolute directory of PATH; empty and relative entries are skipped\).*apt-get install gnuplot-nox' \
		env PATH="$path" "$LOADBENCH" plot .)
	assert_no_marker "PATH=$path"
	for f in slowdown throughput cost; do
		[[ -s $tmp/res/$f.gp && -s $tmp/res/$f.dat && ! -e $tmp/res/$f.png ]] ||
			fail "$f: no .gp/.dat, or a PNG without gnuplot (PATH=$path)"
	done
done
echo "PASS"
