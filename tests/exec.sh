#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of --workload exec: a command run to completion per run.
#  - syscalls-pid follows the command's children: sh -c 'dd ...; dd ...' forks, and
#    each dd's 20,000 read+write pairs (4 events each) are counted: 160,000 events a run
#    or more, and tests/check-results accepts the results;
#  - the recipes run: stress-ng-cpu (the control, --metric from its output) and
#    hackbench (400 forked processes, followed);
#  - --metric takes the throughput from what the command prints (dd's "N GB/s" on stderr)
#    and the results record it;
#  - a command that fails, one not found and one past --timeout each give one line naming
#    the cause and the file to read, a non-zero exit, and leave no process behind;
#  - a --metric that matches nothing fails the run: its results say INCOMPLETE, a run
#    failed, and an interrupted run's INTERRUPTED;
#  - --server: started once, ready on a line or a port, its processes followed, its
#    death during a run, a readiness timeout and a busy port each one line; the redis
#    and nginx recipes run for real;
#  - SIGINT ends the run and the command's whole process group (its children too);
#    SIGKILL of loadbench ends the command, its group and a daemon that left the
#    group (the command's keeper, a child subreaper, outlives loadbench to do it);
#    both end the server too.
# Nothing here is timed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here syscalls-pid

assert_no_leftovers
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'pkill -f "sleep 7.6[56]" 2>/dev/null || true; pkill -f "count=987654321" 2>/dev/null || true
	rm -rf "$tmp"' EXIT

# gone PATTERN: no process whose command line matches PATTERN.
gone() {
	local i
	for i in $(seq 50); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.1
	done
	fail "processes matching '$1' outlived the run: $(pgrep -af "$1" | head -3)"
}

note "children followed: sh -c 'dd; dd' under syscalls-pid"
lb --workload exec --repeat 2 --probeset syscalls-pid --quiet --no-plot --output "$tmp/dd" -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null; dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null' \
	>"$tmp/dd.txt"
grep -q '"workload": "exec"' "$tmp/dd/results.json" || fail "results.json does not say exec"
"$top_builddir/tests/check-results" --any-slowdown "$tmp/dd" syscalls-pid >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; fail "check-results failed"; }
e=$(per_op syscalls-pid "$tmp/check.txt")
note "events per run: $e"
awk -v e="$e" 'BEGIN { exit !(e >= 160000) }' ||
	fail "syscalls-pid counted $e events a run: the children's 160,000 syscall events were not all seen"
ls "$tmp/dd/output/baseline-1.out" "$tmp/dd/output/syscalls-pid-2.err" >/dev/null ||
	fail "no output files per run in $tmp/dd/output"

note "--metric from the command's output"
lb --workload exec --repeat 2 --probeset syscalls-pid --quiet --no-plot --output "$tmp/m" \
	--metric 'copied, [0-9.e-]+ s, ([0-9.]+) [kMG]?B/s' -- \
	dd if=/dev/zero of=/dev/null bs=4k count=20000 >"$tmp/m.txt"
grep -q '"metric": "copied' "$tmp/m/results.json" || fail "results.json does not record --metric"
want=$(sed -n 's/.*copied, [0-9.e-]* s, \([0-9.]*\) [kMG]*B\/s.*/\1/p' "$tmp/m/output/baseline-1.err")
[[ -n $want ]] || fail "dd printed no rate in $tmp/m/output/baseline-1.err"
# Every run's throughput is a rate dd printed: baseline run 1's among them.
got=$(sed -n 's/^ *"throughput": \([0-9.e+-]*\),\{0,1\}$/\1/p' "$tmp/m/results.json" | tr '\n' ' ')
awk -v want="$want" -v got="$got" 'BEGIN { n = split(got, g, " ")
	for (i = 1; i <= n; i++) if (g[i] == want + 0) exit 0; exit 1 }' ||
	fail "no run's throughput is dd's $want (runs: $got)"

note "--metric-lower-is-better: dd's seconds, a run's throughput their reciprocal"
lb --workload exec --repeat 1 --probeset syscalls-pid --quiet --no-plot --output "$tmp/lo" \
	--metric 'copied, ([0-9.e-]+) s,' --metric-lower-is-better -- \
	dd if=/dev/zero of=/dev/null bs=4k count=20000 >"$tmp/lo.txt"
grep -q '"metric_lower_is_better": true' "$tmp/lo/results.json" ||
	fail "results.json does not say the metric is lower-is-better"
grep -q '1/metric (median)' "$tmp/lo.txt" || fail "the table does not say 1/metric"
want=$(sed -n 's/.*copied, \([0-9.e-]*\) s,.*/\1/p' "$tmp/lo/output/baseline-1.err")
got=$(sed -n 's/^ *"throughput": \([0-9.e+-]*\),\{0,1\}$/\1/p' "$tmp/lo/results.json" | tr '\n' ' ')
awk -v want="$want" -v got="$got" 'BEGIN { n = split(got, g, " ")
	for (i = 1; i <= n; i++) if (g[i] > 0 && (g[i] * want - 1) ^ 2 < 1e-12) exit 0; exit 1 }' ||
	fail "no run's throughput is 1 / dd's $want s (runs: $got)"

note "recipes: the control (stress-ng-cpu, its bogo ops/s) and hackbench (its children followed)"
for r in stress-ng-cpu hackbench; do
	lb --workload "$r" --repeat 2 --probeset syscalls-pid --quiet --no-plot --output "$tmp/$r" \
		>"$tmp/$r.txt" || fail "--workload $r failed: $(tail -3 "$tmp/$r.txt")"
	grep -q "\"workload\": \"$r\"" "$tmp/$r/results.json" || fail "results.json does not say $r"
	"$top_builddir/tests/check-results" --any-slowdown "$tmp/$r" syscalls-pid >"$tmp/check-$r.txt" ||
		{ cat "$tmp/check-$r.txt"; fail "check-results failed for $r"; }
done
grep -q '"metric": "cpu' "$tmp/stress-ng-cpu/results.json" || fail "the control's metric is not recorded"
e=$(per_op syscalls-pid "$tmp/check-hackbench.txt")
note "hackbench: $e syscall events a run"
# 10 groups x 20 senders x 20 receivers x 100 loops: 400,000 messages, each a write and
# at least one read: 800,000 syscalls, 1,600,000 events (entry and exit) at least.
awk -v e="$e" 'BEGIN { exit !(e >= 1600000) }' || fail "syscalls-pid saw $e events of hackbench's children"

note "--server: started once, ready on a line, its threads followed by syscalls-pid, stopped"
# The client only sleeps: the run's syscall events are the server's (dd, a read and a
# write per byte): tens of thousands a run when syscalls-pid follows it, ~100 otherwise.
lb --workload exec --repeat 2 --probeset syscalls-pid --quiet --no-plot --output "$tmp/s" \
	--server "sh -c 'echo lb-ready; exec dd if=/dev/zero of=/dev/null bs=1 count=987654321'" \
	--ready 'line:^lb-ready$' -- sleep 0.5 >"$tmp/s.txt"
"$top_builddir/tests/check-results" --any-slowdown "$tmp/s" syscalls-pid >"$tmp/check-s.txt" ||
	{ cat "$tmp/check-s.txt"; fail "check-results failed for --server"; }
e=$(per_op syscalls-pid "$tmp/check-s.txt")
note "server's events per run: $e"
awk -v e="$e" 'BEGIN { exit !(e >= 20000) }' || fail "syscalls-pid saw $e events a run: not the server's"
grep -qx lb-ready "$tmp/s/output/server.out" || fail "the server's output is not in output/server.out"
grep -q '"placement": "exec .*sleep 0.5.*; server ' "$tmp/s/results.json" ||
	fail "results.json does not describe the server"
gone "count=987654321"

note "--server: a server that dies during a run fails it, naming its log"
rc=0
lb --workload exec --repeat 1 --probeset syscalls-pid --quiet --no-plot --output "$tmp/sd" \
	--server "sh -c 'echo lb-ready; sleep 1; exit 4'" --ready line:lb-ready -- sleep 3 \
	>/dev/null 2>"$tmp/sd.err" || rc=$?
[[ $rc -ne 0 ]] || fail "a run whose server died exited 0"
grep -q "the server [^ ]*sh exited with status 4 during run baseline-1: read $tmp/sd/output/server.err" \
	"$tmp/sd.err" || fail "no line naming the server's death and its log: $(cat "$tmp/sd.err")"

note "--server: one not ready in time is killed and named"
rc=0
lb --workload exec --repeat 1 --probeset syscalls-pid --quiet --no-plot --output "$tmp/sr" \
	--server 'sleep 7.657' --ready tcp:16391 --ready-timeout 1 -- true \
	>/dev/null 2>"$tmp/sr.err" || rc=$?
[[ $rc -ne 0 && $(grep -c 'error:' "$tmp/sr.err") -eq 1 ]] || fail "exit $rc: $(cat "$tmp/sr.err")"
grep -q "the server [^ ]*sleep was not ready after 1 s (--ready tcp:16391): killed" "$tmp/sr.err" ||
	fail "no readiness line: $(cat "$tmp/sr.err")"
gone "^sleep 7.657"

note "--server: a port another process already serves is refused before anything starts"
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 16392)); s.listen(); time.sleep(30)' &
holder=$!
for _ in $(seq 100); do
	python3 -c 'import socket; socket.create_connection(("127.0.0.1", 16392))' 2>/dev/null && break
	sleep 0.1
done
rc=0
lb --workload exec --repeat 1 --probeset syscalls-pid --quiet --no-plot --output "$tmp/sp" \
	--server 'sleep 7.658' --ready tcp:16392 -- true >/dev/null 2>"$tmp/sp.err" || rc=$?
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
[[ $rc -ne 0 ]] || fail "a server on a busy port exited 0"
grep -q "port 16392 on 127.0.0.1 already accepts connections" "$tmp/sp.err" ||
	fail "no busy-port line: $(cat "$tmp/sp.err")"
pgrep -f "^sleep 7.658" >/dev/null && fail "the server was started on a busy port"

# recipe NAME UNIT SERVER-PATTERN: run the recipe twice under syscalls-pid, check its
# results and that its server is gone; sets e to the syscall events per operation.
recipe() {
	local name=$1 unit=$2 server=$3
	lb --workload "$name" --repeat 2 --probeset syscalls-pid --quiet --no-plot \
		--output "$tmp/$name" >"$tmp/$name.txt" ||
		fail "--workload $name failed: $(tail -3 "$tmp/$name.txt")"
	"$top_builddir/tests/check-results" --any-slowdown "$tmp/$name" syscalls-pid \
		>"$tmp/check-$name.txt" ||
		{ cat "$tmp/check-$name.txt"; fail "check-results failed for $name"; }
	gone "$server"
	e=$(per_op syscalls-pid "$tmp/check-$name.txt")
	note "$name: $e syscall events per $unit"
}

note "recipe redis: redis-server once, redis-benchmark each run, its GET rate the metric"
recipe redis request redis-server
# A request: the client's write and read, the server's read and write (and epoll): 8 events
# at least when both sides are followed, 4 when only the client is.
awk -v e="$e" 'BEGIN { exit !(e >= 8) }' || fail "syscalls-pid saw $e events per redis request"

note "recipe nginx: nginx (master and worker) once, wrk each run, its Requests/sec the metric"
recipe nginx request "nginx -p"
# wrk's write and read, the worker's read and write (or sendfile): 8 events at least when
# the worker (a child of the master, there before the run) is followed, 4 when it is not.
awk -v e="$e" 'BEGIN { exit !(e >= 8) }' || fail "syscalls-pid saw $e events per nginx request"
grep -q 'Non-2xx\|Socket errors' "$tmp/nginx/output/baseline-1.out" &&
	fail "wrk saw errors: $(cat "$tmp/nginx/output/baseline-1.out")"

note "a command that fails"
rc=0
lb --workload exec --repeat 1 --probeset syscalls-pid --quiet --no-plot --output "$tmp/f" -- \
	sh -c 'echo broken >&2; exit 3' >"$tmp/f.txt" 2>"$tmp/f.err" || rc=$?
[[ $rc -ne 0 ]] || fail "a failing command exited 0"
grep -q "exited with status 3: read $tmp/f/output/baseline-1.err" "$tmp/f.err" ||
	fail "no line naming the status and the file: $(cat "$tmp/f.err")"
grep -qx broken "$tmp/f/output/baseline-1.err" || fail "the command's stderr was not kept"

note "a --metric that matches nothing: the results say a run failed, not that they were interrupted"
rc=0
lb --workload exec --repeat 2 --probeset none --quiet --no-plot --output "$tmp/nm" \
	--metric 'no-such-key: ([0-9]+)' -- sh -c 'echo hi' >"$tmp/nm.txt" 2>"$tmp/nm.err" || rc=$?
[[ $rc -eq 1 ]] || fail "a run whose --metric matched nothing exited $rc, not 1"
grep -q "found no number above 0 in the command's output: read $tmp/nm/output/baseline-1.out" \
	"$tmp/nm.err" || fail "no line naming the metric and the file: $(cat "$tmp/nm.err")"
"$LOADBENCH" report --format lines "$tmp/nm" >"$tmp/nm.lines"
for f in "$tmp/nm.txt" "$tmp/nm/summary.txt" "$tmp/nm.lines"; do
	grep -qi "incomplete: a run failed" "$f" || fail "$f does not say a run failed: $(cat "$f")"
	! grep -qi interrupted "$f" || fail "$f calls a failed run interrupted: $(grep -i interrupted "$f")"
done

note "a command not found"
rc=0
lb --workload exec --probeset syscalls-pid --quiet --output "$tmp/n" -- no-such-cmd-lb \
	>/dev/null 2>"$tmp/n.err" || rc=$?
[[ $rc -ne 0 && $(grep -c 'error:' "$tmp/n.err") -eq 1 ]] || fail "exit $rc, $(cat "$tmp/n.err")"
grep -q "command no-such-cmd-lb not found in PATH: install it, or give its path" "$tmp/n.err" ||
	fail "not the not-found line: $(cat "$tmp/n.err")"
[[ ! -e $tmp/n ]] || fail "a results directory was left for a command not found"

note "--timeout kills the command's process group"
rc=0
lb --workload exec --repeat 1 --probeset syscalls-pid --quiet --no-plot --timeout 1 \
	--output "$tmp/t" -- sh -c 'sleep 7.651 & sleep 7.652' >/dev/null 2>"$tmp/t.err" || rc=$?
[[ $rc -ne 0 ]] || fail "a run past --timeout exited 0"
grep -q "still running after 1 s (--timeout): killed with its process group" "$tmp/t.err" ||
	fail "no timeout line: $(cat "$tmp/t.err")"
gone "sleep 7.65[12]"

note "SIGINT ends the command's process group, and the server"
# setsid: a background job of a script ignores SIGINT, and loadbench would inherit that.
LB_TEST_TAG=$LB_TAG setsid "$LOADBENCH" --workload exec --repeat 1 --probeset syscalls-pid \
	--quiet --no-plot --output "$tmp/i" --server "sh -c 'echo lb-ready; exec sleep 7.663'" \
	--ready line:lb-ready -- sh -c 'sleep 7.653 & sleep 7.654' >/dev/null 2>&1 &
lbpid=$!
# ^sleep: the command's own process, not loadbench's command line that names it.
for _ in $(seq 100); do pgrep -f "^sleep 7.654" >/dev/null && break; sleep 0.1; done
pgrep -f "^sleep 7.654" >/dev/null || fail "the command did not start"
kill -INT "$lbpid"
rc=0
wait "$lbpid" || rc=$?
[[ $rc -eq 130 ]] || fail "loadbench exited $rc after SIGINT, not 130"
gone "sleep 7.6(5[34]|63)"
grep -q "INTERRUPTED: partial results" "$tmp/i/summary.txt" ||
	fail "an interrupted run's summary does not say INTERRUPTED: $(head -5 "$tmp/i/summary.txt")"

note "SIGKILL of loadbench ends the command, its group, what left the group, and the server"
LB_TEST_TAG=$LB_TAG setsid "$LOADBENCH" --workload exec --repeat 1 --probeset syscalls-pid \
	--quiet --no-plot --output "$tmp/k" --server "sh -c 'echo lb-ready; exec sleep 7.664'" \
	--ready line:lb-ready -- sh -c 'setsid sleep 7.655 & sleep 7.656' >/dev/null 2>&1 &
lbpid=$!
for _ in $(seq 100); do
	pgrep -f "^sleep 7.656" >/dev/null && pgrep -f "^sleep 7.655" >/dev/null && break
	sleep 0.1
done
pgrep -f "^sleep 7.656" >/dev/null && pgrep -f "^sleep 7.655" >/dev/null ||
	fail "the command did not start"
kill -KILL "$lbpid"
wait "$lbpid" || true
gone "sleep 7.6(5[56]|64)"
"$LOADBENCH" cleanup >/dev/null 2>&1 || true
assert_no_leftovers
