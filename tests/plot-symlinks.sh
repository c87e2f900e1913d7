#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Figures are never written through a symbolic link (no root: the files are
# this user's; tests/plot-race.sh plays it between two users). In a results
# directory (tests/fixtures/results.json) links are planted at the temporary
# names loadbench used to write (.NAME.dat.tmp, .NAME.gp.tmp) and at every
# final name (NAME.dat, .gp, .png, .svg, .pdf; compare.* in a compare -o
# directory), each to a file of its own: 'loadbench plot' and 'loadbench
# compare --force' must leave every one of those files as it was, and put
# real figures in place of the links. A results directory given as a link
# (DIR, DIR/, DIR/.) is refused in one line that says why and what to do,
# and nothing is written where it points.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/victims" "$tmp/empty"
figures=(slowdown throughput cost)

# plant DIR NAME... - a link DIR/X to a victim file of its own, for each X of NAME.
victims=()
plant() {
	local dir=$1 name v
	shift
	for name in "$@"; do
		v=$tmp/victims/${dir##*/}-${name#.}
		plant_victim "$v"
		ln -s "$v" "$dir/$name"
		victims+=("$v")
	done
}

# The names of figure NAME: the old temporaries and the final files.
names() {
	local f
	for f in "$@"; do
		echo ".$f.dat.tmp" ".$f.gp.tmp" "$f.dat" "$f.gp" "$f.png" "$f.svg" "$f.pdf"
	done
}

note "loadbench plot without gnuplot: the .dat and .gp replace the links, every target intact"
fixture_results "$tmp/nognuplot"
# shellcheck disable=SC2046
plant "$tmp/nognuplot" $(names "${figures[@]}")
expect_error 'gnuplot is not installed' env PATH="$tmp/empty" "$LOADBENCH" plot "$tmp/nognuplot"
assert_intact "${victims[@]}"
for f in "${figures[@]}"; do
	for ext in dat gp; do
		[[ -f $tmp/nognuplot/$f.$ext && ! -L $tmp/nognuplot/$f.$ext ]] ||
			fail "$f.$ext is not a regular file: $(ls -l "$tmp/nognuplot/$f.$ext")"
	done
done

if have_gnuplot; then
	note "loadbench plot: every figure in place of the links, every target intact"
	victims=()
	fixture_results "$tmp/res"
	# shellcheck disable=SC2046
	plant "$tmp/res" $(names "${figures[@]}")
	"$LOADBENCH" plot "$tmp/res" || fail "loadbench plot failed"
	assert_intact "${victims[@]}"
	assert_figures "$tmp/res" "${figures[@]}"

	note "loadbench compare --force -o EXISTING: compare.* in place of the links, targets intact"
	victims=()
	mkdir "$tmp/cmp"
	# shellcheck disable=SC2046
	plant "$tmp/cmp" $(names compare)
	"$LOADBENCH" compare --force -o "$tmp/cmp" "$tmp/res" "$tmp/nognuplot" >"$tmp/cmp.out" ||
		fail "compare failed"
	assert_intact "${victims[@]}"
	assert_figures "$tmp/cmp" compare
else
	note "gnuplot is not installed: the rendered figures are not checked here"
fi

note "a results directory given as a symbolic link is refused, nothing written where it points"
fixture_results "$tmp/real"
ln -s "$tmp/real" "$tmp/link"
for arg in "$tmp/link" "$tmp/link/" "$tmp/link/."; do
	expect_error "is a symbolic link.*give the directory it points to" "$LOADBENCH" plot "$arg"
done
mkdir "$tmp/realcmp"
ln -s "$tmp/realcmp" "$tmp/linkcmp"
expect_error "is a symbolic link.*give the directory it points to" \
	"$LOADBENCH" compare -o "$tmp/linkcmp" "$tmp/real" "$tmp/nognuplot"
left=$(ls -A "$tmp/real" "$tmp/realcmp" | grep -v '^results.json$' | grep -v '^/' | grep -v '^$' || true)
[[ -z $left ]] || fail "written through the link: $left"
echo "PASS"
