#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Where a run's results go, and that a measurement is never lost (root):
# - an output directory inside another user's directory is refused before
#   anything is measured, while that user (nobody) stands ready to swap it
#   for a link to a root-only directory: nothing reaches that directory;
# - the same user trusted (SUDO_UID: the user who ran sudo) is let in, swaps
#   the directory for a link mid-run, and the results still go into the
#   directory loadbench opened (found where it was moved), never the link's;
# - -o a tracefs path, a read-only mount, a full file system: refused in one
#   line before anything is measured, no tracefs instance and no directory
#   left behind;
# - the results directory removed, or its file system filled, mid-run: the
#   summary is printed all the same, the results go to a fallback directory
#   that is named, exit 1, and a directory loadbench made and could not fill
#   is removed;
# - --output -: results.json on stdout, the table on stderr, no directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"

tmp=$(mktemp -d)
mounts=()
cleanup() {
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"
# A baseline alone: the shortest real run (no tracer armed).
short=(--probeset none --method runs --warmup 0.1 --repeat 1 --quiet --no-plot)
# fallbacks - the fallback directories there are now, sorted.
fallbacks() { ls -d /var/tmp/loadbench-results-* /tmp/loadbench-results-* 2>/dev/null | sort || true; }
fallbacks_before=$(fallbacks)

# new_fallback - the fallback directory a run made since the test started (one).
new_fallback() {
	comm -13 <(echo "$fallbacks_before") <(fallbacks) | head -n 1
}

# swapper DIR NAME TARGET - as nobody: wait for DIR/NAME, move it to
# DIR/NAME.moved and put a link to TARGET in its place (for 10 s at most).
# Run in the background, it is the job's own process (exec), so that kill
# stops it: a swapper left running from one case would race the next one's.
swapper() {
	exec setpriv --reuid=65534 --regid=65534 --clear-groups bash -c '
		for ((i = 0; i < 1000; i++)); do
			if [[ -d $1/$2 && ! -L $1/$2 ]]; then
				sleep 0.5
				mv "$1/$2" "$1/$2.moved" && ln -s "$3" "$1/$2" && exit 0
			fi
			sleep 0.01
		done
		exit 1' swapper "$1" "$2" "$3"
}

note "-o inside nobody's directory, nobody ready to swap it for a link to a root-only directory"
mkdir -m 700 "$tmp/rootonly"
mkdir "$tmp/their"
chown 65534:65534 "$tmp/their"
swapper "$tmp/their" res "$tmp/rootonly" 2>/dev/null &
swap=$!
set +e
"$LOADBENCH" "${short[@]}" --duration 3 -o "$tmp/their/res" >"$tmp/their.out" 2>"$tmp/their.err"
rc=$?
set -e
kill "$swap" 2>/dev/null || true
wait "$swap" 2>/dev/null || true
[[ $rc -eq 1 ]] || fail "the run in nobody's directory exited $rc, not 1: $(cat "$tmp/their.err")"
grep -q "^loadbench: error: results directory refused: $tmp/their/ lets uid 65534 change $tmp/their/res (swap it for a link while root writes there): choose a directory only root can change$" \
	"$tmp/their.err" || fail "not the one line naming nobody's directory: $(cat "$tmp/their.err")"
[[ $(wc -l <"$tmp/their.err") -eq 1 ]] || fail "more than one line: $(cat "$tmp/their.err")"
[[ -z $(ls -A "$tmp/rootonly") ]] || fail "files in the root-only directory: $(ls -A "$tmp/rootonly")"
! grep -q 'ops/s' "$tmp/their.out" || fail "it measured before refusing: $(cat "$tmp/their.out")"
[[ ! -e $tmp/their/res || -L $tmp/their/res ]] || fail "the refused results directory was left"
rm -rf "$tmp/their"/res*

note "nobody trusted as the user who ran sudo: nobody swaps the directory mid-run"
SUDO_UID=65534 swapper "$tmp/their" res "$tmp/rootonly" &
swap=$!
SUDO_UID=65534 "$LOADBENCH" "${short[@]}" --duration 3 -o "$tmp/their/res" >"$tmp/sudo.out" \
	2>"$tmp/sudo.err" || fail "the run as the sudo user's failed: $(cat "$tmp/sudo.err")"
wait "$swap" || fail "nobody's swap did not happen (the test proves nothing)"
[[ -L $tmp/their/res ]] || fail "no link in place of the results directory"
[[ -z $(ls -A "$tmp/rootonly") ]] ||
	fail "results written through nobody's link into the root-only directory: $(ls -A "$tmp/rootonly")"
for f in results.json results.csv summary.txt; do
	[[ -s $tmp/their/res.moved/$f ]] || fail "no $f in the directory loadbench opened (moved)"
done
grep -q "warning: $tmp/their/res was moved or replaced while loadbench ran" "$tmp/sudo.err" ||
	fail "the move was not said: $(cat "$tmp/sudo.err")"

note "-o a tracefs path: refused before measuring, no instance made"
name=lbout_$$
expect_error "results directory refused: $TRACING/instances/$name is on tracefs, which holds kernel objects, not files.*choose a directory on a disk or tmpfs" \
	"$LOADBENCH" "${short[@]}" --duration 0.5 -o "$TRACING/instances/$name"
[[ ! -e $TRACING/instances/$name ]] || { rmdir "$TRACING/instances/$name"; fail "a tracefs instance was made"; }

note "-o on a read-only mount and on a full file system: refused before measuring"
mkdir "$tmp/ro" "$tmp/full"
mount -t tmpfs -o ro,size=1m tmpfs "$tmp/ro" && mounts+=("$tmp/ro") || skip "cannot mount a tmpfs here"
expect_error "cannot create the results directory $tmp/ro/res: Read-only file system" \
	"$LOADBENCH" "${short[@]}" --duration 0.5 -o "$tmp/ro/res"
mount -t tmpfs -o size=32k tmpfs "$tmp/full" && mounts+=("$tmp/full")
expect_error "results directory refused: cannot write in $tmp/full/res: No space left on device" \
	"$LOADBENCH" "${short[@]}" --duration 0.5 -o "$tmp/full/res"
[[ -z $(ls -A "$tmp/full") ]] || fail "the refused directory was left: $(ls -A "$tmp/full")"

# lost_midrun WHAT DIR ACTION... - a run into DIR/res whose ACTION (run 1 s in) makes the
# results unwritable there: the table is printed, the results go to a named fallback.
lost_midrun() {
	local what=$1 dir=$2 fb
	shift 2
	note "$what mid-run: the summary printed, the results in a fallback directory"
	set +e
	"$LOADBENCH" "${short[@]}" --duration 2.5 -o "$dir/res" >"$tmp/lost.out" 2>"$tmp/lost.err" &
	local run=$!
	sleep 1
	"$@"
	wait "$run"
	rc=$?
	set -e
	[[ $rc -eq 1 ]] || fail "$what: exit $rc, not 1: $(cat "$tmp/lost.err")"
	grep -q '^baseline (nothing armed): [1-9][0-9]* ops/s' "$tmp/lost.out" ||
		fail "$what: no summary table: $(cat "$tmp/lost.out")"
	grep -q "error: cannot write $dir/res/results.json: " "$tmp/lost.err" ||
		fail "$what: the failure was not said: $(cat "$tmp/lost.err")"
	fb=$(new_fallback)
	[[ -n $fb ]] || fail "$what: no fallback directory made"
	grep -q "warning: results written to $fb instead of $dir/res" "$tmp/lost.err" ||
		fail "$what: the fallback was not named: $(cat "$tmp/lost.err")"
	grep -q "^results: $fb/results.json" "$tmp/lost.out" ||
		fail "$what: the last line does not name the fallback: $(tail -1 "$tmp/lost.out")"
	"$LOADBENCH" report --format text "$fb" >"$tmp/back.out" 2>&1 ||
		fail "$what: report on the fallback exited $?: $(cat "$tmp/back.out")"
	grep -q '^baseline ' "$tmp/back.out" ||
		fail "$what: the fallback's results do not read back: $(cat "$tmp/back.out")"
	rm -rf "$fb"
}
lost_midrun "the results directory removed" "$tmp" rm -rf "$tmp/res"
[[ ! -e $tmp/res ]] || fail "a results directory came back"
umount "$tmp/full"
mount -t tmpfs -o size=512k tmpfs "$tmp/full"
lost_midrun "its file system filled" "$tmp/full" \
	sh -c "dd if=/dev/zero of='$tmp/full/filler' bs=4k 2>/dev/null; true"
[[ ! -e $tmp/full/res ]] || fail "the directory loadbench made and could not fill was left: $(ls -A "$tmp/full/res")"

note "--output -: results.json on stdout, the table on stderr"
(cd "$tmp" && "$LOADBENCH" "${short[@]}" --duration 0.5 -o - >"$tmp/stdout.json" 2>"$tmp/stdout.err") ||
	fail "--output - failed: $(cat "$tmp/stdout.err")"
mkdir "$tmp/back"
cp "$tmp/stdout.json" "$tmp/back/results.json"
grep -q '^baseline (nothing armed): [1-9]' <<<"$("$LOADBENCH" report --format text "$tmp/back")" ||
	fail "stdout is not results.json: $(head -c 300 "$tmp/stdout.json")"
grep -q '^baseline (nothing armed): [1-9]' "$tmp/stdout.err" || fail "no table on stderr: $(cat "$tmp/stdout.err")"
[[ -z $(ls -d "$tmp"/loadbench-results-* 2>/dev/null) ]] || fail "--output - made a directory"
expect_error '--output -: --sweep needs a results directory' \
	"$LOADBENCH" "${short[@]}" -o - --sweep flows=1,2
echo "PASS"
