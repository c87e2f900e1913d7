#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of --topology veth and --flows: udp-rr and tcp-rr
# measured with the ftrace probe set through a veth pair into loadbench's own
# network namespace (tests/check-results: events > 0, the workload's counts);
# two flows on lo, both making progress with their own server; while a veth
# run is live its interfaces (alias loadbench_<pid>) and the servers' own
# namespace are really there, and after SIGINT nothing is; a SIGKILLed run
# leaves nothing after `loadbench cleanup`, which also removes a host veth
# whose alias names a dead pid and leaves a live one's alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
command -v ip >/dev/null || skip "needs ip (apt-get install iproute2)"
grep -q '^#define HAVE_LIBNL 1' "$top_builddir/config.h" ||
	skip "loadbench was built without libnl-route-3: --topology veth is unavailable"
unshare --net true 2>/dev/null || skip "this kernel has no network namespaces (CONFIG_NET_NS)"
probe=lbprobe$$
ip link add "${probe}a" type veth peer name "${probe}b" 2>/dev/null ||
	skip "this kernel cannot create veth pairs (CONFIG_VETH; no module support here)"
ip link del "${probe}a"
# assert_no_leftovers, except for what belongs to a loadbench that is running
# (other tests on this machine, maybe from another tree, are not ours to judge).
assert_none_left() {
	local line p left=
	while read -r line; do
		[[ -n $line ]] || continue
		p=$(sed -n 's/.*loadbench_\([0-9]*\).*/\1/p' <<<"$line")
		if [[ -n $p ]] && kill -0 "$p" 2>/dev/null; then
			note "ignored, its loadbench $p is running: $line"
			continue
		fi
		left+="$line; "
	done <<<"$(leftovers)"
	[[ -z $left ]] || fail "kernel state left behind: $left"
	if pgrep -f "^$LOADBENCH" >/dev/null 2>&1; then
		fail "loadbench processes still running: $(pgrep -af "^$LOADBENCH")"
	fi
}
assert_none_left

tmp=$(mktemp -d)
pid=
fake=
cleanup() {
	if [[ -n $pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
	if [[ -n $fake ]]; then ip link del "$fake" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# Everything of loadbench process $1 in the network: its interfaces, by name and alias.
net_leftovers() {
	ip -o link | grep -E "lb$1[hn][0-9]+|alias loadbench_$1\$" || true
}

# The network namespaces that processes of loadbench $1 are in, other than ours.
own_netns() {
	local c mine
	mine=$(readlink /proc/self/ns/net)
	for c in $(pgrep -P "$1"); do
		readlink "/proc/$c/ns/net" 2>/dev/null
	done | grep -Fvx "$mine" | sort -u || true
}

for w in udp-rr tcp-rr; do
	note "$w over veth, ftrace"
	lb --workload "$w" --topology veth --probeset ftrace --duration 1 --warmup 0.3 \
		--method runs --repeat 3 --quiet --no-plot --output "$tmp/$w-veth" >"$tmp/$w-veth.txt"
	# The point here is the path, not the slowdown, which others' load can hide.
	"$top_builddir/tests/check-results" --any-slowdown "$tmp/$w-veth" ftrace |
		tee "$tmp/$w-veth.check"
	grep -q "\"topology\": *\"veth\"" "$tmp/$w-veth/results.json" ||
		fail "$w: config.topology is not veth"
	grep -Eq "^workload: $w 198\.1[89]\.[0-9]+\.2:[0-9]+ .*topology=veth flows=1" "$tmp/$w-veth.txt" ||
		fail "$w: the workload: line does not say veth: $(head -1 "$tmp/$w-veth.txt")"
	grep -q "^check-results: workload: topology veth, 1 flow(s)" "$tmp/$w-veth.check" ||
		fail "$w: check-results saw no workload counts"
	assert_none_left
done

note "two flows on lo, each with its own server"
lb --workload udp-rr --flows 2 --probeset none --duration 0.5 --warmup 0.2 --method runs --repeat 2 \
	--quiet --no-plot --output "$tmp/flows2" >"$tmp/flows2.txt"
"$top_builddir/tests/check-results" "$tmp/flows2" | tee "$tmp/flows2.check"
grep -q "\"flows\": *2" "$tmp/flows2/results.json" || fail "config.flows is not 2"
grep -Eq "^check-results: workload: topology lo, 2 flow\(s\);.* flow_ops [1-9][0-9]* [1-9][0-9]*$" \
	"$tmp/flows2.check" || fail "both flows did not make progress: $(cat "$tmp/flows2.check")"
grep -q "topology=lo flows=2; flow1 127\.0\.0\.1:" "$tmp/flows2.txt" ||
	fail "the workload: line does not place flow 1: $(head -1 "$tmp/flows2.txt")"
assert_none_left

note "a live veth run with two flows: its interfaces and namespace exist; SIGINT removes them"
# 60 s: it must outlive the second run below, which waited 5 s and more on a loaded machine.
LB_TEST_TAG=$LB_TAG "$LOADBENCH" --workload udp-rr --topology veth --flows 2 --probeset none \
	--duration 60 --warmup 0 --method runs --repeat 1 --quiet --no-plot --output "$tmp/int" \
	>/dev/null 2>"$tmp/int.err" &
pid=$!
for _ in $(seq 1 100); do
	[[ $(pgrep -x loadbench -P "$pid" | wc -l) -eq 4 ]] && break
	sleep 0.05
done
sleep 0.3
[[ $(pgrep -x loadbench -P "$pid" | wc -l) -eq 4 ]] ||
	fail "expected 2 servers + 2 generators, found: $(pgrep -aP "$pid")"
live=$(net_leftovers "$pid")
[[ $(grep -c "alias loadbench_$pid" <<<"$live") -eq 2 ]] ||
	fail "expected the 2 veth pairs' host ends, named and aliased: $(ip -o link)"
ns=$(own_netns "$pid")
[[ $(wc -l <<<"$ns") -eq 1 && -n $ns ]] || fail "the servers are not in one namespace of their own: '$ns'"
note "live: $(wc -l <<<"$live") interface lines, servers in $ns"
note "a second veth run meanwhile takes another /24 of 198.18.0.0/15 and works"
# Read the first run's /24 now: on a loaded machine the second run can outlast it.
first=$(sed -n 's/.*inet \(198\.1[89]\.[0-9]*\)\.1\/30 .*/\1/p' <<<"$(ip -o addr show "lb${pid}h0")")
# --allow-concurrent: two runs at once are refused without it (and each marked with it).
lb --workload tcp-rr --topology veth --probeset none --duration 0.3 --warmup 0 --method runs --repeat 1 \
	--quiet --no-plot --allow-concurrent --output "$tmp/second" >"$tmp/second.txt"
second=$(sed -n 's/^workload: tcp-rr \(198\.1[89]\.[0-9]*\)\.2:.*/\1/p' "$tmp/second.txt")
[[ -n $first && -n $second && $first != "$second" ]] ||
	fail "concurrent veth runs share a /24: '$first' and '$second'"
"$top_builddir/tests/check-results" "$tmp/second" >/dev/null || fail "the second veth run failed its checks"
# A run that ended before the signal fails below with its own exit and error, not here.
kill -INT "$pid" || note "the live run had ended before SIGINT"
rc=0
wait "$pid" || rc=$?
pid=
[[ $rc -eq 130 ]] || fail "SIGINT gave exit $rc, expected 130: $(cat "$tmp/int.err")"
left=$(ip -o link | grep -E "alias loadbench_|lb[0-9]+[hn][0-9]+" || true)
[[ -z $left ]] || fail "interfaces left after SIGINT: $left"
if command -v lsns >/dev/null; then
	grep -qx "${ns//[^0-9]/}" <<<"$(lsns -t net -n -o NS)" && fail "the namespace $ns outlived the run"
fi
assert_none_left

# wait_for_veth PID - wait (5 s at most) until loadbench PID's veth exists, then 0.3 s more.
wait_for_veth() {
	for _ in $(seq 1 100); do
		[[ -n $(net_leftovers "$1") ]] && break
		sleep 0.05
	done
	[[ -n $(net_leftovers "$1") ]] || fail "no veth of loadbench $1 appeared"
	sleep 0.3
}

note "two veth runs whose pids are equal modulo 512, started together, take two /24s"
# lb_topo_block_pick starts at pid % 512: without the shared "veth" lock both
# would see the same /24 free. Each runs in a pid namespace of its own, where
# pids are handed out in order: the shell forks until a pid is a multiple of
# 512 (at least MIN), waits on a FIFO (a builtin read: no fork), and its next
# child, loadbench, gets that pid + 1: 513 in one namespace, 1025 in the other.
if unshare --pid --fork --mount-proc true 2>/dev/null; then
	mkfifo "$tmp/go"
	exec 3<>"$tmp/go"	# held open read-write: the shells' opens do not block
	inner='while :; do p=$(sh -c "echo \$\$"); ((p % 512 == 0 && p >= MIN)) && break; done
: >"$GO.$MIN"
read -r _ <"$GO"
"$LB" --workload udp-rr --topology veth --probeset none --duration 1 --warmup 0 \
	--method runs --repeat 1 --quiet --no-plot --allow-concurrent --output "$OUT" &
echo "loadbench pid $!"
wait $!'
	for m in 512 1024; do
		LB_TEST_TAG=$LB_TAG MIN=$m GO=$tmp/go LB=$LOADBENCH OUT=$tmp/same$m \
			unshare --pid --fork --mount-proc bash -c "$inner" >"$tmp/same$m.txt" 2>&1 &
		eval "same$m=\$!"
	done
	for _ in $(seq 1 600); do  # each shell forks 512 or 1024 times first
		[[ -e $tmp/go.512 && -e $tmp/go.1024 ]] && break
		sleep 0.05
	done
	[[ -e $tmp/go.512 && -e $tmp/go.1024 ]] || fail "the shells in the pid namespaces did not get ready"
	printf 'go\ngo\n' >&3
	exec 3>&-
	wait "$same512" || fail "the run as pid 513 failed: $(cat "$tmp/same512.txt")"
	wait "$same1024" || fail "the run as pid 1025 failed: $(cat "$tmp/same1024.txt")"
	a=$(sed -n 's/^workload: udp-rr \(198\.1[89]\.[0-9]*\)\.2:.*/\1/p' "$tmp/same512.txt")
	b=$(sed -n 's/^workload: udp-rr \(198\.1[89]\.[0-9]*\)\.2:.*/\1/p' "$tmp/same1024.txt")
	[[ -n $a && -n $b ]] || fail "no workload line: $(cat "$tmp/same512.txt" "$tmp/same1024.txt")"
	grep -qx "loadbench pid 513" "$tmp/same512.txt" && grep -qx "loadbench pid 1025" "$tmp/same1024.txt" ||
		fail "the runs did not get pids 513 and 1025: the test proves nothing: $(grep -h 'loadbench pid' "$tmp"/same*.txt)"
	[[ $a != "$b" ]] || fail "two concurrent veth runs share the /24 $a.0"
	note "pids 513 and 1025: $a.0/24 and $b.0/24"
	assert_none_left
else
	note "unshare --pid not permitted here: the equal-pids case not run"
fi

note "SIGTERM mid-run of icmp-flood over veth: exit 143, nothing left"
"$LOADBENCH" --workload icmp-flood --topology veth --probeset none --duration 5 --warmup 0 \
	--method runs --repeat 1 --quiet --no-plot --output "$tmp/term" >/dev/null 2>"$tmp/term.err" &
pid=$!
wait_for_veth "$pid"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[[ $rc -eq 143 ]] || fail "SIGTERM gave exit $rc, expected 143: $(cat "$tmp/term.err")"
[[ -z $(net_leftovers "$pid") ]] || fail "left after SIGTERM: $(net_leftovers "$pid")"
pid=
assert_none_left

note "SIGKILL mid-run: the namespace dies with loadbench; its watchdog or cleanup removes any host end left"
"$LOADBENCH" --workload tcp-rr --topology veth --probeset none --duration 5 --warmup 0 \
	--method runs --repeat 1 --quiet --no-plot --output "$tmp/kill" >/dev/null 2>&1 &
pid=$!
wait_for_veth "$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
killed=$pid
pid=
wait_watchdog "$killed"
"$LOADBENCH" cleanup >"$tmp/cleanup-kill.txt"
for _ in $(seq 1 100); do  # the namespace is torn down asynchronously
	[[ -z $(net_leftovers "$killed") ]] && break
	sleep 0.05
done
[[ -z $(net_leftovers "$killed") ]] || fail "left after SIGKILL and cleanup: $(net_leftovers "$killed")"
assert_none_left

note "cleanup removes a host veth whose alias names a dead pid, and not a live one's"
sh -c 'exit 0' &
dead=$!
wait "$dead"
fake=lb${dead}h0
install -m 600 /dev/null "/run/loadbench/loadbench_$dead.lock"  # as a dead run leaves it
ip link add "$fake" type veth peer name "lb${dead}n0"
ip link set "$fake" alias "loadbench_$dead"
ip link add "${probe}a" type veth peer name "${probe}b"
ip link set "${probe}a" alias "loadbench_$$"
"$LOADBENCH" cleanup | tee "$tmp/cleanup.txt"
ip link show "${probe}a" >/dev/null 2>&1 || fail "cleanup removed the veth of live pid $$"
ip link del "${probe}a"
grep -q "removed veth interface $fake (alias loadbench_$dead)" "$tmp/cleanup.txt" ||
	fail "cleanup did not say it removed $fake"
ip link show "$fake" >/dev/null 2>&1 && fail "cleanup left $fake"
[[ ! -e /run/loadbench/loadbench_$dead.lock ]] || fail "cleanup left the lock of loadbench_$dead"
fake=
assert_none_left
echo "PASS"
