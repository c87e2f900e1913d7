#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the dynamic probe kinds (uprobe, usdt, kprobe,
# kretprobe) of the ftrace tracer: a short real measurement with the uprobe
# probe set (and the executable replaced during a run: its uprobes refused,
# not placed on the new file), whose probe must fire exactly once per
# operation, and with the usdt and perf-usdt sets (the same markers recorded
# by ftrace and by perf), whose two markers (request, reply) fire exactly
# twice; the kprobe sets run for real where the kernel has kprobes, and
# elsewhere must be refused with the reason, before anything is changed.
# Nothing may be left behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
[[ -e $TRACING/uprobe_events ]] ||
	skip "this kernel has no uprobe_events (CONFIG_UPROBE_EVENTS unset)"
assert_no_leftovers

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# events_per_op NAME: the probe set's summary.events_per_op from results.json.
events_per_op() {
	awk -v name="\"$1\"" '
		$0 ~ "\"name\": *" name { found = 1 }
		found && /"events_per_op"/ { gsub(/[^0-9.eE+-]/, "", $2); print $2; exit }
	' FS=: "$tmp/uprobe/results.json"
}

# The server's USDT markers are there when configure found sys/sdt.h.
sets=uprobe
if readelf -n "$LOADBENCH" 2>/dev/null | grep -q "Provider: loadbench"; then
	sets=uprobe,usdt,perf-usdt
else
	note "no USDT markers in $LOADBENCH (built without sys/sdt.h): usdt must say so"
	expect_error "unknown USDT marker loadbench:request.*systemtap-sdt-dev" \
		"$LOADBENCH" --probeset usdt --duration 0.3 --method runs --repeat 1 --quiet \
		--no-plot --output "$tmp/nousdt"
fi
note "$sets: one event per request of the server (uprobe), two (usdt: request and reply)"
"$LOADBENCH" --probeset "$sets" --duration 1 --warmup 0.3 --method runs --repeat 3 --quiet \
	--output "$tmp/uprobe" | tee "$tmp/uprobe.txt"
"$top_builddir/tests/check-results" "$tmp/uprobe" ${sets//,/ }
epo=$(events_per_op uprobe)
[[ -n $epo ]] || fail "no events_per_op for uprobe in results.json"
awk -v e="$epo" 'BEGIN { exit !(e >= 0.8 && e <= 1.5) }' ||
	fail "uprobe events/op is $epo, expected about 1 (0.8 .. 1.5): not once per request"
note "uprobe events/op: $epo"
if [[ $sets == *usdt* ]]; then
	epo=$(events_per_op usdt)
	# Exact: both markers of every request, counted in the same window as the operations.
	awk -v e="$epo" 'BEGIN { exit !(e >= 1.9 && e <= 2.1) }' ||
		fail "usdt events/op is $epo, expected 2 (a request and a reply marker per operation)"
	note "usdt events/op: $epo"
	# perf-usdt: the same markers as dynamic events perf opens by id (perf probe + record).
	epo=$(events_per_op perf-usdt)
	awk -v e="$epo" 'BEGIN { exit !(e >= 1.9 && e <= 2.1) }' ||
		fail "perf-usdt events/op is $epo, expected 2 (a request and a reply marker per operation)"
	note "perf-usdt events/op: $epo"
fi
assert_no_leftovers

# usdt-python: python3.11's markers on the python-calls recipe (150,002 calls of its own a run).
# Its function__entry marker fires only for frames entered from C (CPython gh-98894, 3.11):
# each call's function__return is counted, so a run has at least 150,002 events and at most
# twice that plus the interpreter's start.
if [[ -x /usr/bin/python3.11 ]] && readelf -n /usr/bin/python3.11 2>/dev/null |
	grep -q "Name: function__return"; then
	note "usdt-python: python3.11's function markers, on the python-calls workload"
	"$LOADBENCH" --workload python-calls --probeset usdt-python --repeat 2 --quiet --no-plot \
		--output "$tmp/python" | tee "$tmp/python.txt"
	"$top_builddir/tests/check-results" "$tmp/python" usdt-python
	epo=$(awk '
		/"name": *"usdt-python"/ { found = 1 }
		found && /"events_per_op"/ { gsub(/[^0-9.eE+-]/, "", $2); print $2; exit }
	' FS=: "$tmp/python/results.json")
	awk -v e="$epo" 'BEGIN { exit !(e >= 150002 && e <= 2 * 150002 + 20000) }' ||
		fail "usdt-python events per run is $epo, expected 150,002 to 320,004"
	note "usdt-python events per run: $epo"
	assert_no_leftovers
	note "a binary that is not installed: the set cannot run here, said in one line"
	printf 'tracer ftrace\nbinary /usr/bin/no-such-python\nusdt python:function__return\n' \
		>"$tmp/nopython.probeset"
	expect_error "probe set nopython cannot run here: its binary /usr/bin/no-such-python is not" \
		"$LOADBENCH" --probeset "$tmp/nopython.probeset" --duration 0.2 --quiet \
		--output "$tmp/nopython"
	assert_no_leftovers
else
	note "no /usr/bin/python3.11 with USDT markers: usdt-python not run"
fi

note "the executable replaced during a run: its uprobes are refused, not placed on the new file"
mkdir "$tmp/bin"
cp "$LOADBENCH" "$tmp/bin/loadbench"
LOADBENCH_DATADIR=$top_srcdir "$tmp/bin/loadbench" --probeset uprobe --duration 1 --warmup 0.2 \
	--method runs --repeat 4 --quiet --no-plot --output "$tmp/replaced" >"$tmp/replaced.out" \
	2>"$tmp/replaced.err" &
pid=$!
sleep 1.5
# A rebuild: a new file (a new inode) renamed over the path the run started from.
cp "$LOADBENCH" "$tmp/bin/loadbench.new"
mv "$tmp/bin/loadbench.new" "$tmp/bin/loadbench"
rc=0
wait "$pid" || rc=$?
[[ $rc -ne 0 ]] || fail "a run whose executable was replaced measured uprobes on the new file"
grep -q "is no longer the loadbench executable that runs (rebuilt or replaced" "$tmp/replaced.err" ||
	fail "no error naming the replaced executable: $(cat "$tmp/replaced.err")"
note "exit $rc: $(grep -m1 'no longer' "$tmp/replaced.err")"
assert_no_leftovers

note "a server function that does not exist: line-numbered, with the near match"
printf 'tracer ftrace\n\nuprobe lb_server_reqest\n' >"$tmp/typo.probeset"
want="typo.probeset:3: unknown server function lb_server_reqest: .*similar: lb_server_request"
expect_error "$want" "$LOADBENCH" --probeset "$tmp/typo.probeset" --duration 0.2 --quiet \
	--output "$tmp/typo"
[[ ! -e $tmp/typo ]] || fail "a refused probe set still created its results directory"
assert_no_leftovers

note "arm fails half-way (the 2nd uprobe's name is taken): the 1st and the instance are removed"
# The run's pid is known before it starts (exec keeps it): take the name its second uprobe
# gets, with an argument, so that the kernel refuses to append to it. Not before the run
# starts: a run first removes whatever bears its own pid (a killed run with that pid left
# it). Its results directory appears after that, and its probe set is armed only after
# the 1.5 s baseline run, so the name is taken in between.
printf 'tracer ftrace\ntracepoint sched:sched_switch\nuprobe lb_server_request\n%s\n' \
	'uprobe udp_rr_server_run' >"$tmp/two.probeset"
rc=0
LB="$LOADBENCH" TMP="$tmp" bash -c '
	echo $$ >"$TMP/two.pid"
	exec "$LB" --probeset "$TMP/two.probeset" --duration 1.5 --warmup 0 --method runs --repeat 1 --quiet \
		--no-plot --output "$TMP/two"' >/dev/null 2>"$tmp/two.err" &
job=$!
for _ in $(seq 100); do
	[[ -d $tmp/two || ! -e /proc/$job ]] && break
	sleep 0.05
done
[[ -d $tmp/two ]] || fail "the run made no results directory: $(cat "$tmp/two.err")"
echo "p:loadbench_$job/u_udp_rr_server_run $LOADBENCH:0x1000 x=%ax" >>"$TRACING/uprobe_events"
wait "$job" || rc=$?
pid=$(cat "$tmp/two.pid")
left=$(grep "loadbench_$pid/" "$TRACING/dynamic_events" || true)
echo "-:loadbench_$pid/u_udp_rr_server_run" >>"$TRACING/uprobe_events"
# The planted uprobe bore the run's pid at its exit, so the run kept its lock file for
# cleanup to prove it dead; with the uprobe gone, cleanup retires the lock.
[[ -f /run/loadbench/loadbench_$pid.lock ]] || fail "the run left state bearing its pid but no lock file"
"$LOADBENCH" cleanup >/dev/null
[[ $rc -ne 0 ]] || fail "the run did not fail although its uprobe could not be created"
grep -q "cannot create uprobe udp_rr_server_run (event loadbench_$pid/u_udp_rr_server_run)" \
	"$tmp/two.err" || fail "no error naming the uprobe: $(cat "$tmp/two.err")"
[[ $left == "p:loadbench_$pid/u_udp_rr_server_run "* && $(wc -l <<<"$left") -eq 1 ]] ||
	fail "after a failed arm, loadbench_$pid has left: $left"
assert_no_leftovers

if [[ -e $TRACING/kprobe_events ]]; then
	note "kprobes: this kernel has them, run both sets for real"
	"$LOADBENCH" --probeset ftrace+kprobe,ftrace+kretprobe --duration 1 --warmup 0.3 \
		--method runs --repeat 3 --quiet --no-plot --output "$tmp/kprobe"
	"$top_builddir/tests/check-results" "$tmp/kprobe" ftrace+kprobe ftrace+kretprobe
	assert_no_leftovers
	printf 'tracer ftrace\nkprobe no_such_function_xyz\n' >"$tmp/nosym.probeset"
	expect_error "nosym.probeset:2: unknown kernel symbol no_such_function_xyz" \
		"$LOADBENCH" --probeset "$tmp/nosym.probeset" --duration 0.2 --quiet \
		--output "$tmp/nosym"
else
	note "kprobes: this kernel has none, the kprobe sets must say so and change nothing"
	reason="needs kprobes: this kernel has no $TRACING/kprobe_events \(CONFIG_KPROBES unset\)"
	for set in ftrace+kprobe ftrace+kretprobe; do
		expect_error "^loadbench: error: $reason\$" \
			"$LOADBENCH" --probeset "$set" --duration 0.2 --quiet --output "$tmp/$set"
		[[ ! -e $tmp/$set ]] || fail "refused $set still created its results directory"
		[[ $(listed_why "$set") == "cannot run here: needs kprobes"* ]] ||
			fail "loadbench list does not say why $set cannot run: $("$LOADBENCH" list)"
	done
	assert_no_leftovers
fi
echo "PASS"
