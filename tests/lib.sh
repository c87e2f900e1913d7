# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the shell tests: skip/fail helpers and the leftover check.
# Exit codes as in tests/helpers.h: 0 pass, 1 fail, 77 skip, 99 hard error.

: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
LOADBENCH="$top_builddir/src/loadbench"
TRACING=/sys/kernel/tracing

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
note() { echo "--- $*"; }

require_root() {
	[[ $(id -u) -eq 0 ]] || skip "needs root (tracefs instances are root-only); run make check as root"
}

require_tracefs() {
	if [[ ! -d $TRACING/instances ]]; then
		mount -t tracefs nodev "$TRACING" 2>/dev/null || true
	fi
	[[ -d $TRACING/instances ]] || skip "no tracefs at $TRACING (kernel without CONFIG_TRACING?)"
}

# other_run NAME - true when NAME (loadbench_<pid>...) belongs to a loadbench
# that still runs and is not one of this test's tagged runs (`lb'): another
# run on a shared machine, not something this test left behind.
other_run() {
	local pid=${1#loadbench_}
	pid=${pid%%[!0-9]*}
	[[ -n $pid && -d /proc/$pid ]] || return 1
	! grep -qxz "LB_TEST_TAG=$LB_TAG" "/proc/$pid/environ" 2>/dev/null
}

# listed_why NAME - loadbench list's verdict on probe set NAME ("runs here" or
# "cannot run here: ..."); empty when NAME is not in the catalog. The whole
# list is read first: a reader that stops early (awk's exit, grep -q) makes
# loadbench die of SIGPIPE, which pipefail reports as a failure.
listed_why() {
	local list
	list=$("$LOADBENCH" list)
	awk -v s="$1" 'found == 1 { sub(/^ */, ""); print; found = 2 } $1 == s && !found { found = 1 }' \
		<<<"$list"
}

# require_runs_here NAME - skip (77) with loadbench list's reason unless probe set NAME runs here.
require_runs_here() {
	local why
	why=$(listed_why "$1")
	[[ $why == "runs here" ]] || skip "$1 cannot run here: ${why:-not in the catalog}"
}

# running_here NAME... - those of the probe sets NAME... that run here, one a
# line; notes the reason for each that does not.
running_here() {
	local s why
	for s in "$@"; do
		why=$(listed_why "$s")
		if [[ $why == "runs here" ]]; then
			echo "$s"
		else
			note "$s not run: ${why:-not in the catalog}" >&2
		fi
	done
}

# other_tool_start DIR - another tool's tracefs instance at DIR, set up unlike
# loadbench's and unlike the defaults: two events enabled, a filter, its own
# buffer size, overwrite off, another clock, recording. other_tool_stop DIR
# undoes it.
other_tool_start() {
	mkdir "$1"
	echo 1 >"$1/events/sched/sched_switch/enable"
	echo 1 >"$1/events/net/netif_rx/enable"
	echo 'prev_pid != 0' >"$1/events/sched/sched_switch/filter"
	echo 1234 >"$1/buffer_size_kb"
	echo 0 >"$1/options/overwrite"
	echo mono >"$1/trace_clock"
	echo 1 >"$1/tracing_on"
}
other_tool_stop() {
	[[ -d $1 ]] || return 0
	echo 0 >"$1/tracing_on"
	echo >"$1/set_event"
	echo 0 >"$1/events/sched/sched_switch/filter" 2>/dev/null || true
	rmdir "$1"
}

# stop_run PID - end a loadbench run still going with SIGTERM, so that it
# removes its own state (a SIGKILL would leave its instance); for EXIT traps.
# Only a background job of this shell not yet waited for (a reaped pid may
# already be another process's).
stop_run() {
	[[ -n $1 ]] && jobs -p | grep -qx "$1" || return 0
	kill -TERM "$1" 2>/dev/null && wait "$1" 2>/dev/null || true
}

# wait_watchdog PID - after a SIGKILL of run PID: wait (5 s at most) until its
# watchdog has removed the run's state and, last, its run lock.
wait_watchdog() {
	for _ in $(seq 1 100); do
		[[ -e /run/loadbench/loadbench_$1.lock ]] || return 0
		sleep 0.05
	done
	fail "the watchdog of run $1 did not remove its run lock within 5 s"
}

# Everything loadbench may create in the kernel, named loadbench_*; prints it.
leftovers() {
	local d line group
	for d in "$TRACING"/instances/loadbench_*; do
		[[ -e $d ]] && ! other_run "${d##*/}" && echo "instance ${d##*/}"
	done
	for f in dynamic_events uprobe_events kprobe_events; do
		[[ -r $TRACING/$f ]] || continue
		while read -r line; do
			group=${line#*:}
			group=${group%%/*}
			other_run "$group" || echo "$f: $line"
		done < <(grep loadbench_ "$TRACING/$f")
	done
	# Host ends of --topology veth pairs: interface alias loadbench_<pid>.
	grep -s '^loadbench_' /sys/class/net/*/ifalias |
		sed 's|^/sys/class/net/\([^/]*\)/ifalias:|veth \1 alias |' |
		while read -r line; do other_run "${line##* }" || echo "$line"; done
	# Run locks (/run/loadbench/loadbench_<pid>.lock) of runs that ended.
	for d in /run/loadbench/loadbench_*.lock; do
		[[ -e $d ]] && ! other_run "$(basename "$d" .lock)" && echo "run lock $d"
	done
	# LTTng sessions, when the lttng CLI and a session daemon are there.
	if command -v lttng >/dev/null; then
		lttng list 2>/dev/null | grep -o 'loadbench_[0-9]*' |
			while read -r line; do other_run "$line" || echo "LTTng session $line"; done
	fi
	return 0
}

# Which test left what (TEST<tab>leftovers line), for the tests after it.
LB_LEFTOVER_LOG="$top_builddir/tests/leftovers-by-test.log"

assert_no_leftovers() {
	local left
	left=$(leftovers)
	if [[ -n $left ]]; then
		sed "s/^/${0##*/}\t/" <<<"$left" >>"$LB_LEFTOVER_LOG" 2>/dev/null || true
		fail "kernel state left behind: $left"
	fi
	# No workload process either (the generator and server are forked children).
	if pgrep -f "^$LOADBENCH" >/dev/null 2>&1; then
		fail "loadbench processes still running: $(pgrep -af "^$LOADBENCH")"
	fi
}

# Runs "$@", expecting failure with exactly one line on stderr matching $pattern
# (and with --exit, the exit status STATUS: 2 for a usage error).
# Usage: expect_error [--exit STATUS] PATTERN CMD...
expect_error() {
	local want= pattern out err rc
	if [[ $1 == --exit ]]; then
		want=$2
		shift 2
	fi
	pattern=$1
	shift
	err=$(mktemp)
	rc=0
	"$@" >/dev/null 2>"$err" || rc=$?
	out=$(cat "$err")
	rm -f "$err"
	[[ $rc -ne 0 ]] || fail "expected failure, got exit 0: $*"
	[[ -z $want || $rc -eq $want ]] || fail "expected exit $want, got $rc: $*: $out"
	[[ $(printf '%s\n' "$out" | wc -l) -eq 1 ]] ||
		fail "expected one error line from: $*; got:"$'\n'"$out"
	[[ $out =~ $pattern ]] || fail "error for '$*' does not match /$pattern/: $out"
	note "ok (exit $rc): $out"
}

# True when user nobody can run this build's loadbench and read its catalog
# (not so when the tree sits below a directory only root can enter).
nobody_can_run() {
	command -v setpriv >/dev/null || return 1
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LOADBENCH" list >/dev/null 2>&1
}

# Tagged runs: a test that starts loadbench through `lb' puts $LB_TAG in its
# environment, inherited by the workload children, so that what is left
# behind can be told from other runs on the machine.
LB_TAG="${0##*/}-$$-$RANDOM"
lb() { LB_TEST_TAG=$LB_TAG "$LOADBENCH" "$@"; }

# tagged_leftovers REGEX - every process still carrying $LB_TAG, with its
# descriptors whose link matches REGEX (e.g. 'anon_inode:\[perf_event\]').
tagged_leftovers() {
	local d fd link
	for d in /proc/[0-9]*; do
		grep -qxz "LB_TEST_TAG=$LB_TAG" "$d/environ" 2>/dev/null || continue
		echo "process ${d#/proc/} ($(tr '\0' ' ' <"$d/cmdline" 2>/dev/null))"
		for fd in "$d"/fd/*; do
			link=$(readlink "$fd" 2>/dev/null) || continue
			[[ $link =~ $1 ]] && echo "  $link descriptor $fd"
		done
	done
	return 0
}

# per_op NAME FILE - the events/op tests/check-results printed for probe set
# NAME (a '+' in NAME, as in lttng+kprobe, is matched literally).
per_op() {
	sed -n "s/^check-results: ${1//+/[+]} (.*, \([0-9.]*\) events\/op,.*/\1/p" "$2"
}

# within A B - true when A and B are positive and within a factor of 1.5 of each other.
within() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a <= 1.5 * b && b <= 1.5 * a) }'
}

# assert_no_bpf_leftovers - assert_no_leftovers, and no BPF or perf descriptor
# held by a process of this test's tagged runs (`lb'), and (with bpftool, when
# no other loadbench runs: its programs would be named alike) no BPF program
# named lb_count*.
assert_no_bpf_leftovers() {
	local left
	assert_no_leftovers
	left=$(tagged_leftovers '^anon_inode:(bpf|\[perf_event\])')
	if command -v bpftool >/dev/null && ! pgrep -x loadbench >/dev/null; then
		# grep finding nothing is the good case: not a failure under pipefail.
		left+=$(bpftool prog show 2>/dev/null | { grep -E 'name lb_count' || true; } |
			sed 's/^/bpf program: /')
	fi
	[[ -z $left ]] || fail "loadbench left behind:"$'\n'"$left"
}

# assert_no_perf_leftovers - assert_no_leftovers, and no perf event descriptor
# held by a process of this test's tagged runs (`lb').
assert_no_perf_leftovers() {
	local left
	assert_no_leftovers
	left=$(tagged_leftovers '^anon_inode:\[perf_event\]$')
	[[ -z $left ]] || fail "loadbench left behind:"$'\n'"$left"
}

# scoped_flows SET FLOWS DIR [ARGS...] - one round of workload-scoped probe set
# SET with FLOWS flows (2 x FLOWS processes) on every CPU, results in DIR: the
# run must succeed, leave nothing behind, and record the workload's own 16
# syscall events per operation (4 extra getppid: the server makes 6 syscalls,
# the generator 2, each an entry and an exit) to within 15%. Notes the
# events/op and how long the run took, its set-up and teardown included.
scoped_flows() {
	local set=$1 n=$2 dir=$3 start secs ev rc=0
	shift 3
	start=$(date +%s%N)
	lb --probeset "$set" --alone --flows "$n" --cpus none --duration 0.5 --warmup 0.3 --method runs --repeat 2 \
		--quiet --no-plot --output "$dir" "$@" >"$dir.txt" 2>&1 || rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	cat "$dir.txt"
	[[ $rc -eq 0 ]] || fail "$set with $n flows failed (exit $rc)"
	assert_no_leftovers
	"$top_builddir/tests/check-results" --any-slowdown "$dir" "$set" >"$dir.check" || rc=$?
	cat "$dir.check"
	[[ $rc -eq 0 ]] || fail "check-results failed on $set with $n flows (exit $rc)"
	ev=$(per_op "$set" "$dir.check")
	awk -v e="$ev" 'BEGIN { exit !(e >= 16 * 0.85 && e <= 16 * 1.15) }' ||
		fail "$set with $n flows: ${ev:-no} events/op, not the workload's 16"
	note "$set, $n flows ($((2 * n)) processes): $ev events/op; the run took $secs s (2 rounds of a 0.5 s baseline and a 0.5 s traced run, 0.3 s warm-up each)"
}

# earlier_leftovers - run when a test starts (below): loadbench state of a run
# that is not going on any more was left by an earlier test, which failed for
# it. Say which test (from $LB_LEFTOVER_LOG) and remove it with loadbench
# cleanup, so that this test judges only what it leaves itself and one
# failure reads as one; fail only when it cannot be removed.
earlier_leftovers() {
	local left line who
	[[ $(id -u) -eq 0 && -d $TRACING/instances && -x $LOADBENCH ]] || return 0
	left=$(leftovers)
	[[ -n $left ]] || return 0
	while IFS= read -r line; do
		who=$(awk -F'\t' -v l="$line" '$2 == l { t = $1 } END { print t }' \
			"$LB_LEFTOVER_LOG" 2>/dev/null)
		note "found at the start, not this test's: $line, left by ${who:-an earlier run that no test recorded}"
	done <<<"$left"
	"$LOADBENCH" cleanup >/dev/null 2>&1 || true
	left=$(leftovers)
	[[ -z $left ]] || fail "an earlier test left loadbench state that loadbench cleanup cannot remove: $left"
	note "removed with loadbench cleanup: this test checks only what it leaves itself"
}
earlier_leftovers

# have_gnuplot - true when gnuplot is in PATH.
have_gnuplot() { command -v gnuplot >/dev/null; }

# fixture_results DIR - a results directory DIR holding tests/fixtures/results.json.
fixture_results() {
	mkdir -p "$1"
	cp "$top_srcdir/tests/fixtures/results.json" "$1/results.json"
}

# assert_figures DIR NAME... - figure NAME rendered in DIR: NAME.png a PNG, NAME.svg an SVG,
# NAME.pdf a PDF, NAME.gp loadbench's script and NAME.dat, each a regular file (not a link);
# and no staging directory (.loadbench-plot-*) left in DIR.
assert_figures() {
	local dir=$1 name ext f left
	shift
	for name in "$@"; do
		for ext in png svg pdf gp dat; do
			f=$dir/$name.$ext
			[[ -f $f && ! -L $f && -s $f ]] || fail "$f is not a regular, non-empty file: $(ls -l "$f" 2>&1)"
		done
		[[ $(head -c 4 "$dir/$name.png" | od -An -tx1 | tr -d ' ') == 89504e47 ]] ||
			fail "$dir/$name.png is not a PNG"
		grep -q '<svg' "$dir/$name.svg" || fail "$dir/$name.svg is not an SVG"
		[[ $(head -c 4 "$dir/$name.pdf") == %PDF ]] || fail "$dir/$name.pdf is not a PDF"
		grep -q "^# $name.gp: .*, written by loadbench " "$dir/$name.gp" ||
			fail "$dir/$name.gp is not loadbench's script: $(head -c 200 "$dir/$name.gp")"
	done
	left=$(find "$dir" -maxdepth 1 -name '.loadbench-plot-*')
	[[ -z $left ]] || fail "staging directory left behind: $left"
}

# plant_victim FILE - a file an attack aims at (written with some text); assert_intact checks it.
plant_victim() {
	echo "precious ${1##*/}" >"$1"
	cp -p "$1" "$1.orig"
}

# assert_intact FILE... - each FILE of plant_victim still a regular file, its content and
# modification time unchanged (not truncated and rewritten either).
assert_intact() {
	local f
	for f in "$@"; do
		[[ -f $f && ! -L $f ]] || fail "$f is gone or replaced: $(ls -l "$f" 2>&1)"
		cmp -s "$f" "$f.orig" || fail "$f was written: now $(head -c 200 "$f" | tr -c '[:print:]' .)"
		[[ ! $f -nt $f.orig ]] || fail "$f was modified (same content, new mtime)"
	done
}
