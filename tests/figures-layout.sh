#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Figures a reviewer would accept, at any number of probe sets (no root):
# from a real default run (doc/example/results.json: 14 sets alternated, with
# latency and CPU) and a real --method runs one (tests/fixtures/results.json), results of 1,
# 2, 14 and 31 probe sets (tests/make-fixture: the catalog's names; the 31
# as the VM runner's, emulated and cut short, with both notes), and a
# compare of 4 directories, and sweeps of 1, 2, 14 and 31 sets
# (tests/make-fixture --sweep), each drawn in every style (lab, paper, talk).
# In every SVG (tests/check-svg): no text over another, none outside the
# canvas, and every probe set's name drawn in each per-set figure; in every
# PDF (pdftotext) every text of the SVG (drawn first: a text drawn once only
# is missing from the PDF drawn last) and (pdffonts) every font embedded. Set
# FIGURES="slowdown cost" (or compare, sweep) to check only those figures.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

have_gnuplot || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
command -v pdftotext >/dev/null && command -v pdffonts >/dev/null ||
	skip "pdftotext and pdffonts are not installed (apt-get install poppler-utils)"
checksvg=$top_builddir/tests/check-svg
fixture=$top_builddir/tests/make-fixture
[[ -x $checksvg && -x $fixture ]] || skip "tests/check-svg and tests/make-fixture are not built (make check builds them)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
figures=${FIGURES:-slowdown throughput cost latency cpu}
# A compare and a --sweep's directory are drawn apart: only NAME says whether to check NAME.
only() { [[ -z ${FIGURES:-} || " $FIGURES " == *" $1 "* ]]; }
figures=" $figures "
figures=${figures// compare / }
figures=${figures// sweep / }
faults=0

# check DIR FIGURE NAME... - FIGURE's SVG and PDF in DIR as a reader would see them.
check() {
	local dir=$1 fig=$2 out name text
	shift 2
	out=$("$checksvg" "$dir/$fig.svg" "$@") || {
		printf '%s\n' "$out" | grep -v ' texts, [0-9]* faults$' | head -n 20 || true
		faults=$((faults + 1))
	}
	[[ -s $dir/$fig.pdf ]] || { echo "$dir/$fig.pdf: none"; faults=$((faults + 1)); return; }
	text=$(pdftotext "$dir/$fig.pdf" - 2>/dev/null | tr -s ' \n' '  ')
	while IFS= read -r name; do
		name=$(tr -s ' ' <<<"$name")
		[[ -z ${name// /} || $text == *"$name"* ]] && continue
		echo "$dir/$fig.pdf: '$name', drawn in the SVG, is not in the PDF"
		faults=$((faults + 1))
	done < <("$checksvg" --texts "$dir/$fig.svg")
	if pdffonts "$dir/$fig.pdf" | awk 'NR > 2 && $(NF - 4) != "yes" { bad = 1 } END { exit !bad }'; then
		echo "$dir/$fig.pdf: a font is not embedded: $(pdffonts "$dir/$fig.pdf")"
		faults=$((faults + 1))
	fi
}

for base in doc/example/results tests/fixtures/results; do
	[[ -n ${figures// /} ]] || break
	for n in 1 2 14 31; do
		for style in lab paper talk; do
			dir=$tmp/${base//\//_}-$n-$style
			mkdir -p "$dir"
			# The whole catalog runs in the VM: emulated, and here cut short too.
			vm=()
			((n < 31)) || vm=(--vm)
			mapfile -t sets < <("$fixture" "${vm[@]}" "$top_srcdir/$base.json" "$n" \
				"$dir/results.json")
			"$LOADBENCH" plot --style "$style" "$dir" 2>"$dir.err" ||
				{ echo "$dir: loadbench plot failed: $(cat "$dir.err")"; faults=$((faults + 1)); }
			[[ ${#sets[@]} -eq $n ]] || fail "$dir: $n sets asked for, ${#sets[@]} made"
			for fig in $figures; do
				[[ -e $dir/$fig.gp ]] || continue
				check "$dir" "$fig" "${sets[@]}"
			done
		done
		note "$base, $n set(s): $faults fault(s) so far"
	done
done

if only compare; then
	for style in lab paper talk; do
		dirs=()
		for k in 1 2 3 4; do
			d=$tmp/cmp$k
			mkdir -p "$d"
			mapfile -t sets < <("$fixture" "$top_srcdir/doc/example/results.json" \
				$((10 + k)) "$d/results.json")
			dirs+=("$d")
		done
		"$LOADBENCH" compare --style "$style" -o "$tmp/compare-$style" "${dirs[@]}" >/dev/null \
			2>"$tmp/compare-$style.err" ||
			{ echo "compare ($style) failed: $(cat "$tmp/compare-$style.err")"; faults=$((faults + 1)); }
		check "$tmp/compare-$style" compare "${sets[@]}"
	done
	note "compare of 4 directories: $faults fault(s) so far"
fi

# A --sweep's directory (only sweep.json): the sweep figure of the example's sets.
if only sweep; then
	for n in 1 2 14 31; do
		for style in lab paper talk; do
			dir=$tmp/sweep-$n-$style
			mkdir -p "$dir"
			mapfile -t sets < <("$fixture" --sweep "$top_srcdir/doc/example/results.json" "$n" \
				"$dir/sweep.json")
			[[ ${#sets[@]} -eq $n ]] || fail "$dir: $n sets asked for, ${#sets[@]} made"
			"$LOADBENCH" plot --style "$style" "$dir" 2>"$dir.err" ||
				{ echo "$dir: loadbench plot failed: $(cat "$dir.err")"; faults=$((faults + 1)); }
			check "$dir" sweep "${sets[@]}"
		done
		note "sweep of $n set(s): $faults fault(s) so far"
	done
fi
[[ $faults -eq 0 ]] || fail "$faults figure(s) with faults"
echo "PASS"
