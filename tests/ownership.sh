#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root test, issue "safe on a shared machine": each attack performed, each
# refused.
#  - a SIGKILLed run: its watchdog turns its tracing off and removes it
#    within a second, then its run lock; another tool's instance untouched;
#  - pid namespaces: `loadbench cleanup` in a namespace where a live run's pid
#    does not exist leaves that run alone; two runs that are both pid 1 (each
#    in a namespace of its own) do not share a name: the second is refused;
#  - --output another user's directory others may write in, or a link: the
#    run is refused before it measures, nothing written;
#  - trace directories in a shared $TMPDIR: a dead run's name on another
#    user's directory (loadbench_<pid>.XXXXXX, loadbench_2024.backup) is left
#    alone and said to be another's directory, not a trace directory; another
#    user's file with such a name is not mentioned at all; a link inside
#    loadbench's own is removed, not followed, also while a directory is
#    swapped for a link to the victim in a loop.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

tmp=$(mktemp -d)
chmod 755 "$tmp"
other=$TRACING/instances/othertool_$$
pid= swapper=
trap 'stop_run "$pid"; [[ -z $swapper ]] || kill "$swapper" 2>/dev/null; other_tool_stop "$other"; rm -rf "$tmp"' EXIT
other_tool_start "$other"

# wait_instance PID - wait (10 s at most) until instance loadbench_PID exists.
wait_instance() {
	for _ in $(seq 1 200); do
		[[ -d $TRACING/instances/loadbench_$1 ]] && return 0
		sleep 0.05
	done
	fail "no instance loadbench_$1 appeared"
}

note "SIGKILL of the run alone: the watchdog removes its tracing within a second"
LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset ftrace --duration 3 --warmup 0 --method runs --repeat 1 --quiet --no-plot \
	--output "$tmp/killed" >/dev/null 2>"$tmp/killed.err" &
pid=$!
wait_instance "$pid"
sleep 0.3
[[ $(cat "$TRACING/instances/loadbench_$pid/tracing_on") == 1 ]] || fail "the instance is not recording"
grep -q . "$TRACING/instances/loadbench_$pid/set_event" || fail "no event enabled in loadbench_$pid"
wd=$(pgrep -P "$pid" -x lb-watchdog) || fail "no watchdog (lb-watchdog) beside run $pid"
[[ -f /run/loadbench/loadbench_$pid.lock ]] || fail "no run lock for the live run $pid"
kill -KILL "$pid"
kpid=$pid
t0=$(date +%s%N)
gone=
for _ in $(seq 1 50); do
	if [[ ! -d $TRACING/instances/loadbench_$pid ]]; then gone=1; break; fi
	sleep 0.02
done
ms=$((($(date +%s%N) - t0) / 1000000))
[[ -n $gone ]] || fail "loadbench_$pid still there 1 s after SIGKILL (events on: $(cat "$TRACING/instances/loadbench_$pid/set_event" 2>/dev/null | wc -l))"
note "instance loadbench_$pid gone ${ms} ms after SIGKILL"
wait "$pid" 2>/dev/null || true
pid=
# alive PID - running (a zombie waiting for its new parent to reap it has ended).
alive() { [[ -r /proc/$1/stat ]] && ! awk '{ exit $3 == "Z" ? 0 : 1 }' "/proc/$1/stat" 2>/dev/null; }
for _ in $(seq 1 100); do
	alive "$wd" || break
	sleep 0.02
done
alive "$wd" && fail "the watchdog $wd outlived its work by 2 s: $(ps -o pid,stat,wchan:30,args -p "$wd")"
[[ ! -e /run/loadbench/loadbench_$kpid.lock ]] || fail "the watchdog left the run lock loadbench_$kpid.lock"
grep -q "watchdog: run [0-9]* ended without removing tracefs instance loadbench_[0-9]*: removed" \
	"$tmp/killed.err" || fail "the watchdog did not say what it removed: $(cat "$tmp/killed.err")"
[[ $(cat "$other/events/sched/sched_switch/enable") == 1 ]] || fail "another tool's instance was changed"
assert_no_leftovers

if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
	note "unshare --pid not permitted here: the pid-namespace cases not run"
else
	note "cleanup in another pid namespace, where the live run's pid does not exist, spares it"
	LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset ftrace --duration 2 --warmup 0 --method runs --repeat 1 --quiet --no-plot \
		--output "$tmp/live" >/dev/null 2>"$tmp/live.err" &
	pid=$!
	wait_instance "$pid"
	unshare --pid --fork --mount-proc sh -c "kill -0 $pid 2>/dev/null && echo visible; exec \"\$0\" cleanup" \
		"$LOADBENCH" >"$tmp/ns-cleanup.txt"
	cat "$tmp/ns-cleanup.txt"
	grep -q visible "$tmp/ns-cleanup.txt" && fail "pid $pid is visible in the new namespace: the test proves nothing"
	[[ -d $TRACING/instances/loadbench_$pid ]] || fail "cleanup in another pid namespace removed the live run's instance"
	grep -q "loadbench_$pid" "$tmp/ns-cleanup.txt" && fail "cleanup reported the live run's state"
	wait "$pid" || fail "the live run failed: $(cat "$tmp/live.err")"
	pid=
	[[ -s $tmp/live/results.json ]] || fail "the live run wrote no results"

	note "two runs that are both pid 1 (each in a namespace of its own): the second is refused"
	LB_TEST_TAG=$LB_TAG unshare --pid --fork --mount-proc "$LOADBENCH" --probeset ftrace --duration 3 \
		--warmup 0 --method runs --repeat 1 --quiet --no-plot --output "$tmp/first" \
		>/dev/null 2>"$tmp/first.err" &
	pid=$!
	wait_instance 1
	expect_error "another live loadbench holds the name loadbench_1 .*another pid namespace" \
		unshare --pid --fork --mount-proc "$LOADBENCH" --probeset ftrace --duration 0.3 \
		--warmup 0 --method runs --repeat 1 --quiet --no-plot --output "$tmp/second"
	[[ -d $TRACING/instances/loadbench_1 ]] || fail "the refused run removed the first run's instance"
	wait "$pid" || fail "the first run failed beside the refused one: $(cat "$tmp/first.err")"
	pid=
	grep -q '"complete": true' "$tmp/first/results.json" || fail "the first run's results are not complete"
	[[ ! -e $tmp/second ]] || fail "the refused run made its results directory"
	[[ ! -e /run/loadbench/loadbench_1.lock ]] || fail "a lock loadbench_1.lock was left"
	assert_no_leftovers
fi

note "--output another user's directory that others may write in, or a link: refused before measuring"
mkdir -m 1777 "$tmp/pub"
runuser -u nobody -- mkdir -m 777 "$tmp/pub/theirs"
mkdir "$tmp/victim-out"
ln -s "$tmp/victim-out" "$tmp/pub/link"
expect_error "results directory refused: .*pub/theirs belongs to uid [0-9]+ and others may write in it" \
	"$LOADBENCH" --probeset ftrace --duration 0.3 --warmup 0 --method runs --repeat 1 --quiet \
	--no-plot --output "$tmp/pub/theirs"
for arg in "$tmp/pub/link" "$tmp/pub/link/" "$tmp/pub/link/."; do
	expect_error "results directory refused: .*is a symbolic link" \
		"$LOADBENCH" --probeset ftrace --duration 0.3 --warmup 0 --method runs --repeat 1 \
		--quiet --no-plot --output "$arg"
done
written=$(find "$tmp/pub/theirs" "$tmp/victim-out" -mindepth 1)
[[ -z $written ]] || fail "a refused run wrote: $written"
assert_no_leftovers

if ! grep -q '^#define HAVE_LTTNG 1' "$top_builddir/config.h"; then
	note "built without liblttng-ctl: no LTTng trace directories to clean; that part not run"
else
	note "trace directories in a shared TMPDIR"
	shared=$tmp/shared
	mkdir -m 1777 "$shared"
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	sh -c 'exit 0' &
	unproven=$!
	wait "$unproven"
	install -m 600 /dev/null "/run/loadbench/loadbench_$dead.lock"
	victim=$tmp/victim
	mkdir "$victim"
	plant_victim "$victim/x"
	plant_victim "$victim/y"
	# Another user's directories with names of a dead run: not loadbench's, left alone.
	runuser -u nobody -- mkdir -p "$shared/loadbench_$dead.aaaaaa/sub" "$shared/loadbench_2024.backup"
	runuser -u nobody -- touch "$shared/loadbench_$dead.aaaaaa/sub/x" "$shared/loadbench_2024.backup/data"
	# Another user's files with such names, of a dead run and of one no lock proves dead:
	# not directories, so nothing loadbench makes; not a word about them.
	runuser -u nobody -- touch "$shared/loadbench_$dead.backup" "$shared/loadbench_$unproven.backup"
	# A directory as loadbench makes them, holding a link to the victim's directory.
	mkdir -m 700 "$shared/loadbench_$dead.bbbbbb" "$shared/loadbench_$dead.bbbbbb/kernel"
	ln -s "$victim" "$shared/loadbench_$dead.bbbbbb/kernel/link"
	ln -s "$victim/y" "$shared/loadbench_$dead.bbbbbb/y"
	TMPDIR=$shared "$LOADBENCH" cleanup >"$tmp/tmp-cleanup.txt"
	cat "$tmp/tmp-cleanup.txt"
	[[ -f $shared/loadbench_$dead.aaaaaa/sub/x ]] || fail "cleanup removed another user's loadbench_$dead.aaaaaa"
	[[ -f $shared/loadbench_2024.backup/data ]] || fail "cleanup removed another user's loadbench_2024.backup"
	grep -q "^left alone directory $shared/loadbench_$dead.aaaaaa: .*another user's" \
		"$tmp/tmp-cleanup.txt" ||
		fail "cleanup did not say it left loadbench_$dead.aaaaaa alone"
	[[ -f $shared/loadbench_$dead.backup && -f $shared/loadbench_$unproven.backup ]] ||
		fail "cleanup removed another user's file"
	! grep -E "LTTng trace directory $shared/loadbench_($dead\.aaaaaa|2024\.backup)|\.backup" \
		"$tmp/tmp-cleanup.txt" ||
		fail "cleanup called what it does not make a trace directory, or named another's file"
	[[ ! -e $shared/loadbench_$dead.bbbbbb ]] || fail "cleanup kept loadbench_$dead.bbbbbb"
	grep -q "^removed LTTng trace directory $shared/loadbench_$dead.bbbbbb" "$tmp/tmp-cleanup.txt" ||
		fail "cleanup did not report removing loadbench_$dead.bbbbbb"
	assert_intact "$victim/x" "$victim/y"

	note "a directory swapped for a link to the victim, in a loop, while cleanup removes its parent"
	for round in $(seq 1 20); do
		install -m 600 /dev/null "/run/loadbench/loadbench_$dead.lock"
		d=$shared/loadbench_$dead.cccccc
		mkdir -m 700 "$d"
		for i in $(seq 1 30); do mkdir -p "$d/sub$i" && touch "$d/sub$i/x" "$d/sub$i/y"; done
		# The swapper (root here, the worst case: anyone who could write there). set +e: an
		# ln that loses the race to the removal of $d must not end it, nor the test's kill.
		(
			set +e
			while :; do
				for i in $(seq 1 30); do
					mv -T "$d/sub$i" "$d/old$i" 2>/dev/null &&
						ln -sfn "$victim" "$d/sub$i" 2>/dev/null
				done
			done
		) &
		swapper=$!
		sleep 0.05
		TMPDIR=$shared "$LOADBENCH" cleanup >/dev/null 2>&1 || true
		kill "$swapper" 2>/dev/null
		wait "$swapper" 2>/dev/null || true
		swapper=
		assert_intact "$victim/x" "$victim/y"
		rm -rf "$d"
	done
	note "20 rounds: the victim's files intact"
	rm -f "/run/loadbench/loadbench_$dead.lock"
	rm -rf "$shared"/loadbench_*
fi

# The systemtap tracer's directory (a module built on the spot): loadbench_<pid>_stap.XXXXXX.
note "SystemTap directories of a dead run in a shared TMPDIR"
shared=$tmp/shared-stap
mkdir -m 1777 "$shared"
sh -c 'exit 0' &
dead=$!
wait "$dead"
install -m 600 /dev/null "/run/loadbench/loadbench_$dead.lock"
victim=$tmp/stap-victim
mkdir "$victim"
plant_victim "$victim/x"
# Another user's, with a dead run's name: left alone.
runuser -u nobody -- mkdir -p "$shared/loadbench_${dead}_stap.aaaaaa"
runuser -u nobody -- touch "$shared/loadbench_${dead}_stap.aaaaaa/mine.ko"
# One as the tracer makes it (mode 0700, root's), with a module and a link to the victim.
mkdir -m 700 "$shared/loadbench_${dead}_stap.bbbbbb"
touch "$shared/loadbench_${dead}_stap.bbbbbb/loadbench_stap_0123456789abcdef.ko"
ln -s "$victim" "$shared/loadbench_${dead}_stap.bbbbbb/link"
# Not a loadbench name: left alone, not even reported.
mkdir -m 700 "$shared/loadbench_${dead}_stapx.cccccc"
# Another user's file with a dead run's name: not a directory, not loadbench's; not reported.
runuser -u nobody -- touch "$shared/loadbench_${dead}_stap.backup"
TMPDIR=$shared "$LOADBENCH" cleanup >"$tmp/stap-cleanup.txt"
cat "$tmp/stap-cleanup.txt"
[[ -f $shared/loadbench_${dead}_stap.aaaaaa/mine.ko ]] ||
	fail "cleanup removed another user's loadbench_${dead}_stap.aaaaaa"
grep -q "^left alone directory $shared/loadbench_${dead}_stap.aaaaaa: .*another user's" \
	"$tmp/stap-cleanup.txt" || fail "cleanup did not say it left loadbench_${dead}_stap.aaaaaa alone"
! grep -q "SystemTap directory $shared/loadbench_${dead}_stap.aaaaaa\|stap\.backup" "$tmp/stap-cleanup.txt" ||
	fail "cleanup called another's directory a SystemTap directory, or named another's file"
[[ -f $shared/loadbench_${dead}_stap.backup ]] || fail "cleanup removed another user's file"
[[ ! -e $shared/loadbench_${dead}_stap.bbbbbb ]] || fail "cleanup kept loadbench_${dead}_stap.bbbbbb"
grep -q "^removed SystemTap directory $shared/loadbench_${dead}_stap.bbbbbb" "$tmp/stap-cleanup.txt" ||
	fail "cleanup did not report removing loadbench_${dead}_stap.bbbbbb"
[[ -d $shared/loadbench_${dead}_stapx.cccccc ]] || fail "cleanup removed loadbench_${dead}_stapx.cccccc"
! grep -q "stapx" "$tmp/stap-cleanup.txt" || fail "cleanup reported loadbench_${dead}_stapx.cccccc"
assert_intact "$victim/x"
rm -f "/run/loadbench/loadbench_$dead.lock"
rm -rf "$shared"
assert_no_leftovers
echo "PASS"
