#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 'sudo loadbench plot ~user/res' on a shared machine (root; needs setpriv
# and gnuplot). The results directory (tests/fixtures/results.json) belongs
# to nobody, who races root's 'loadbench plot' runs for a few seconds: it
# keeps planting links to a root-owned file at every name loadbench writes
# or used to write (.NAME.dat.tmp, .NAME.gp.tmp, NAME.dat, .gp, .png, .svg,
# .pdf), swaps in figure scripts that would create a marker through
# gnuplot's system(), and moves each staging directory it sees away,
# leaving a link to a root-owned directory at its name. The root-owned file
# must stay as it was, the directory empty, no marker may appear, and a run
# after the race renders every figure. A results directory owned by another
# user and writable by others (mode 777, 775, 1777) is refused in one line
# naming the cause and the fix, and nothing is written in it; one owned by
# root or by the invoking user is not refused for its mode.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $(id -u) -eq 0 ]] || skip "needs root: it plays root plotting a directory that user nobody owns and races"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed: no second user to race with"
have_gnuplot || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
nobody=65534
as_nobody() { setpriv --reuid=$nobody --regid=$nobody --clear-groups "$@"; }

tmp=$(mktemp -d)
racer_pid=
cleanup() {
	[[ -n $racer_pid ]] && kill "$racer_pid" 2>/dev/null && wait "$racer_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# mktemp makes it 0700: nobody must reach the results directory.
chmod 755 "$tmp"
as_nobody test -x "$tmp" || skip "nobody cannot enter $tmp"
mkdir "$tmp/victims" "$tmp/victims/dir"
victim=$tmp/victims/shadow
plant_victim "$victim"
chmod 644 "$victim"
marker=$tmp/marker
printf 'system("touch %s")\n' "$marker" >"$tmp/evil.gp"
chmod 644 "$tmp/evil.gp"

fixture_results "$tmp/res"
chown -R $nobody:$nobody "$tmp/res"
chmod 755 "$tmp/res"

names=()
for f in slowdown throughput cost; do
	names+=(".$f.dat.tmp" ".$f.gp.tmp" "$f.dat" "$f.gp" "$f.png" "$f.svg" "$f.pdf")
done
cat >"$tmp/racer.sh" <<'EOF'
# racer SECONDS DIR VICTIM VICTIM_DIR EVIL NAME...: what nobody does to DIR meanwhile.
end=$((SECONDS + $1)) dir=$2 victim=$3 victim_dir=$4 evil=$5
shift 5
while ((SECONDS < end)); do
	for n in "$@"; do
		ln -sfn "$victim" "$dir/$n" 2>/dev/null || true
	done
	for d in "$dir"/.loadbench-plot-*; do
		[[ -d $d && ! -L $d ]] || continue
		ln -sf "$victim" "$d/slowdown.png" 2>/dev/null || true
		mv "$d" "$dir/moved.$RANDOM" 2>/dev/null && ln -sfn "$victim_dir" "$d" 2>/dev/null || true
	done
	for n in slowdown.gp throughput.gp cost.gp compare.gp; do
		cp "$evil" "$dir/.evil" 2>/dev/null && mv -f "$dir/.evil" "$dir/$n" 2>/dev/null || true
	done
done
EOF
chmod 644 "$tmp/racer.sh"

note "nobody races root's loadbench plot runs in nobody's results directory for 4 s"
as_nobody bash "$tmp/racer.sh" 4 "$tmp/res" "$victim" "$tmp/victims/dir" "$tmp/evil.gp" \
	"${names[@]}" &
racer_pid=$!
ok=0 refused=0
while kill -0 "$racer_pid" 2>/dev/null; do
	if "$LOADBENCH" plot "$tmp/res" >/dev/null 2>"$tmp/plot.err"; then
		ok=$((ok + 1))
	else
		refused=$((refused + 1))
		note "refused under the race: $(cat "$tmp/plot.err")"
	fi
done
wait "$racer_pid" || fail "the racer failed"
racer_pid=
note "$ok runs rendered, $refused refused while nobody raced"
((ok > 0)) || fail "no loadbench plot run succeeded under the race"
assert_intact "$victim"
[[ -z $(ls -A "$tmp/victims/dir") ]] || fail "written into the directory linked at a staging name: $(ls -A "$tmp/victims/dir")"
[[ ! -e $marker ]] || fail "a figure script nobody planted ran as root"
[[ -n $(find "$tmp/res" -maxdepth 1 -type l -name '.loadbench-plot-*') ]] ||
	note "nobody never caught a staging directory (it only makes the race less strict)"

note "after the race: loadbench plot replaces nobody's links with the figures"
"$LOADBENCH" plot "$tmp/res" || fail "loadbench plot failed after the race"
assert_intact "$victim"
[[ ! -e $marker ]] || fail "a figure script nobody planted ran as root"
find "$tmp/res" -maxdepth 1 -name '.loadbench-plot-*' -type l -delete
assert_figures "$tmp/res" slowdown throughput cost

for mode in 777 775 1777; do
	note "a results directory of nobody's, mode $mode: refused"
	rm -rf "$tmp/shared"
	fixture_results "$tmp/shared"
	chown -R $nobody:$nobody "$tmp/shared"
	chmod "$mode" "$tmp/shared"
	expect_error "shared belongs to uid $nobody and others may write in it \\(mode $mode\\), so they could swap the files.*chmod go-w .*shared.*run loadbench as uid $nobody" \
		"$LOADBENCH" plot "$tmp/shared"
	[[ $(ls -A "$tmp/shared") == results.json ]] || fail "written in a refused directory: $(ls -A "$tmp/shared")"
done

note "root's own results directory, mode 777: not refused for its mode"
rm -rf "$tmp/shared"
fixture_results "$tmp/shared"
chmod 777 "$tmp/shared"
"$LOADBENCH" plot "$tmp/shared" || fail "loadbench plot refused root's directory"
assert_figures "$tmp/shared" slowdown throughput cost

if nobody_can_run; then
	note "nobody's results directory, mode 777, plotted by nobody: not refused"
	rm -rf "$tmp/shared"
	fixture_results "$tmp/shared"
	chown -R $nobody:$nobody "$tmp/shared"
	chmod 777 "$tmp/shared"
	as_nobody env HOME=/nonexistent "$LOADBENCH" plot "$tmp/shared" ||
		fail "loadbench plot refused its own user's directory"
	assert_figures "$tmp/shared" slowdown throughput cost
else
	note "nobody cannot run this build's loadbench: its own directory not tried"
fi
echo "PASS"
