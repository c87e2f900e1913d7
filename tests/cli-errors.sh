#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every error a user can cause: one line naming the cause and the fix, a
# non-zero exit, nothing left behind. The parts that need root (unknown
# event, not root, tracefs unmountable) run when this test runs as root.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lb() { "$LOADBENCH" --quiet --no-plot --output "$tmp/out" "$@"; }

note "usage errors"
expect_error 'duration.*expected a number from 0.1' lb --duration -1
expect_error 'repeat.*expected a whole number from 1' lb --repeat 0
expect_error 'buffer-kb.*from 4 to' lb --buffer-kb 999999999
expect_error 'mode.*overwrite, discard or consumer' lb --mode sometimes
expect_error 'cpus.*CPUs 0 to' lb --cpus 4096
expect_error "unknown command 'frobnicate'" "$LOADBENCH" frobnicate
expect_error "unknown probe set 'nosuch'.*ftrace" lb --probeset nosuch
expect_error "named twice" lb --probeset ftrace,ftrace
expect_error "unknown workload|workload.*udp-rr" lb --workload nosuch --probeset none
expect_error "topology 'vet'.*lo or veth" lb --topology vet --probeset none
expect_error "flows.*from 1 to 64" lb --flows 0 --probeset none
expect_error "addr ::1 applies to --topology lo.*drop --addr" lb --topology veth --addr ::1 \
	--probeset none
expect_error "unknown engine 'epoll': choose syscall or uring" lb --engine epoll --probeset none
rm -rf "$tmp/out"
expect_error "engine uring does not apply to icmp-flood.*--engine syscall" \
	lb --workload icmp-flood --engine uring --probeset none
rm -rf "$tmp/out"

note "bad probe-set files name file:line"
printf 'tracer ftrace\n# fine\ntracepoint net:netif_rx\nfrobnicate yes\n' >"$tmp/bad.probeset"
expect_error "bad.probeset:4: .*frobnicate" lb --probeset "$tmp/bad.probeset"
printf 'tracer ftrace\ntracepoint net\n' >"$tmp/bad2.probeset"
expect_error "bad2.probeset:2: " lb --probeset "$tmp/bad2.probeset"
printf 'tracer nosuchtracer\ntracepoint net:netif_rx\n' >"$tmp/badtracer.probeset"
expect_error "badtracer.probeset:1: unknown tracer 'nosuchtracer'" lb --probeset "$tmp/badtracer.probeset"

note "port in use"
mkdir -p "$tmp/busy"
port=$((20000 + RANDOM % 20000))
"$LOADBENCH" --probeset none --port "$port" --duration 4 --warmup 0 --repeat 1 --quiet \
	--no-plot --output "$tmp/busy/first" >/dev/null 2>&1 &
first=$!
sleep 1
expect_error "port 127.0.0.1:$port is in use.*--port" \
	"$LOADBENCH" --probeset none --port "$port" --quiet --no-plot --output "$tmp/busy/second"
wait "$first" || fail "the first run on port $port failed"

note "existing results directory"
mkdir -p "$tmp/full" && touch "$tmp/full/keep"
expect_error "exists and is not empty.*--force" "$LOADBENCH" --probeset none --output "$tmp/full"

if [[ $(id -u) -ne 0 ]]; then
	expect_error "needs root.*sudo" lb --probeset ftrace
	echo "PASS (the root-only cases were not run: not root)"
	exit 0
fi
require_tracefs

note "unknown tracepoint and syscall names (root)"
printf 'tracer ftrace\ntracepoint net:netif_rx\ntracepoint net:netif_recieve_skb\n' \
	>"$tmp/typo.probeset"
expect_error "typo.probeset:3: unknown tracepoint net:netif_recieve_skb.*similar: .*net:netif_receive_skb" \
	lb --probeset "$tmp/typo.probeset"
printf 'tracer ftrace\nsyscall no_such_call\n' >"$tmp/sys.probeset"
expect_error "sys.probeset:2: unknown syscall 'no_such_call'" lb --probeset "$tmp/sys.probeset"
assert_no_leftovers

note "not root"
if nobody_can_run; then
	expect_error "needs root.*sudo" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$LOADBENCH" --quiet --no-plot --output "$tmp/nobody" --probeset ftrace
	# A results directory nobody may write to, so that the namespace is what fails.
	mkdir "$tmp/nobody-veth" && chmod 0777 "$tmp/nobody-veth" && chmod o+x "$tmp"
	expect_error "topology veth .*needs root.*--topology lo" setpriv --reuid=65534 \
		--regid=65534 --clear-groups "$LOADBENCH" --quiet --no-plot --force \
		--output "$tmp/nobody-veth" --topology veth --probeset none
else
	note "not-root case not run: no setpriv, or user nobody cannot reach this build tree"
fi

note "tracefs not mounted: loadbench mounts it (private mount namespace)"
if unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private bash -c '
		umount '"$TRACING"' 2>/dev/null || true
		grep -q " '"$TRACING"' tracefs" /proc/mounts && exit 3
		"$0" --quiet --no-plot --probeset syscalls --duration 0.3 --warmup 0.1 --repeat 1 \
			--output "$1" >/dev/null' "$LOADBENCH" "$tmp/mounted" ||
		fail "loadbench did not run with tracefs unmounted (rc $?)"
	[[ -s $tmp/mounted/results.json ]] || fail "no results with tracefs unmounted"
	note "tracefs unmounted and unmountable (no CAP_SYS_ADMIN)"
	expect_error "tracefs is not mounted and could not be mounted.*mount -t tracefs" \
		unshare -m --propagation private bash -c '
		umount '"$TRACING"' 2>/dev/null || true
		exec setpriv --bounding-set -sys_admin --inh-caps -sys_admin \
			"$0" --quiet --no-plot --probeset ftrace --output "$1"' "$LOADBENCH" "$tmp/nomount"
else
	note "unshare -m not permitted here: tracefs mount cases not run"
fi
assert_no_leftovers
echo "PASS"
