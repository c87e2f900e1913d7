#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install: the binary, the probe-set catalog, the plot templates and
# the man page are installed, and the installed binary finds its own data
# (not the source tree's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -C "$top_builddir" install DESTDIR="$tmp/dest" >/dev/null
bin=$(find "$tmp/dest" -path '*/bin/loadbench' -type f)
[[ -x $bin ]] || fail "no bin/loadbench installed under $tmp/dest"
prefix=${bin%/bin/loadbench}
for f in share/loadbench/probesets/ftrace.probeset share/loadbench/probesets/syscalls.probeset \
	share/loadbench/plots/slowdown.gp share/man/man1/loadbench.1; do
	[[ -s $prefix/$f ]] || fail "not installed: $prefix/$f"
done
# Every catalog file of the source tree (one missing from Makefile.am's list is not).
for f in "$top_srcdir"/probesets/*.probeset; do
	[[ -s $prefix/share/loadbench/probesets/${f##*/} ]] ||
		fail "catalog file ${f##*/} is not installed (add it to dist_probesets_DATA)"
done
"$bin" --version | grep -q '^loadbench ' || fail "installed binary does not run"
"$bin" list >"$tmp/list.txt"
grep -q "^Probe sets in $prefix/share/loadbench/probesets" "$tmp/list.txt" ||
	fail "installed binary does not use its installed catalog: $(head -1 "$tmp/list.txt")"
grep -q '^ftrace ' "$tmp/list.txt" || fail "installed catalog lists no ftrace probe set"
# Data resolution follows the binary: a changed installed template is the one used.
# (A baseline-only run needs no root.)
echo '# installed-template-marker' >>"$prefix/share/loadbench/plots/slowdown.gp"
"$bin" --probeset none --duration 0.2 --warmup 0 --method runs --repeat 1 --quiet --output "$tmp/r" >/dev/null
grep -q installed-template-marker "$tmp/r/slowdown.gp" ||
	fail "the installed binary did not use the installed plot template"
make -C "$top_builddir" uninstall DESTDIR="$tmp/dest" >/dev/null
[[ ! -e $bin ]] || fail "make uninstall left $bin"
echo "PASS"
