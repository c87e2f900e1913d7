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
expect_error "duration '0'.*from 0.1 to 3600" lb --duration 0
expect_error "duration 'nan'.*from 0.1" lb --duration nan
expect_error "duration '1e9'.*to 3600" lb --duration 1e9
expect_error "warmup '-1'.*from 0 to 600" lb --warmup -1
expect_error "repeat '1001'.*to 1000" lb --repeat 1001
expect_error "repeat '2.5'.*whole number" lb --repeat 2.5
expect_error "sample-interval '0'.*from 0.01" lb --sample-interval 0
expect_error "time-budget '-5'.*from 0 to 864000" lb --time-budget -5
expect_error "sweep 'speed=1,2': expected KEY=V1,V2,... with KEY one of syscalls-per-op" lb --sweep speed=1,2
expect_error "sweep rate: udp-stream has no open loop.*icmp-flood send on a schedule" \
	lb --workload udp-stream --sweep rate=100,200
expect_error "rate: udp-stream has no open loop" lb --workload udp-stream --rate 1000
expect_error "workload exec: give the command after --" lb --workload exec
expect_error "a command after -- is for --workload exec" lb -- true
expect_error "metric is for --workload exec" lb --metric 'x([0-9]+)'
expect_error "method alternate: --workload exec runs its command to completion" \
	lb --workload exec --method alternate -- true
expect_error "rate applies to the loopback workloads, not to --workload exec" \
	lb --workload exec --rate 10 -- true
expect_error "timeout '0': expected a number from 0.01" lb --workload exec --timeout 0 -- true
expect_error "server is for --workload exec" lb --server 'sleep 1'
expect_error "metric-lower-is-better says how to read --metric's number: add --metric" \
	lb --workload exec --metric-lower-is-better -- true
expect_error "server: say when it is ready with --ready tcp:PORT" \
	lb --workload exec --server 'sleep 1' -- true
expect_error "ready is for a server: add --server" lb --workload exec --ready tcp:1 -- true
expect_error "ready 'tcp:0': expected tcp:PORT" lb --workload exec --server 'sleep 1' --ready tcp:0 -- true
expect_error "ready 'ssh': expected tcp:PORT" lb --workload exec --server 'sleep 1' --ready ssh -- true
expect_error "ready-timeout '0': expected a number from 0.1" \
	lb --workload exec --server 'sleep 1' --ready tcp:1 --ready-timeout 0 -- true
expect_error "probe set uprobe puts a uprobe on loadgen's server.*exec does not run: drop it" \
	lb --workload exec --probeset uprobe -- true
expect_error "rate '2000000'.*from 0 to 1000000" lb --rate 2000000
expect_error "sweep 'syscalls-per-op': expected KEY=V1" lb --sweep syscalls-per-op
expect_error "sweep syscalls-per-op: give 2 values or more" lb --sweep syscalls-per-op=4
expect_error "sweep syscalls-per-op: 4 is given twice" lb --sweep syscalls-per-op=4,4
expect_error "sweep msg-size '4'.*from 8 to 65000" lb --sweep msg-size=64,4
expect_error "sweep flows 'x'.*whole number" lb --sweep flows=1,x
expect_error "sweep window: only icmp-flood" lb --sweep window=1,8
expect_error "sweep syscalls-per-op: more than 16 values" lb --sweep syscalls-per-op=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
expect_error "max-time '0'.*from 1 to 86400" lb --max-time 0
expect_error "sample-interval '-1'.*from 0.01" lb --sample-interval -1
expect_error "port '65536'.*from 0 to 65535" lb --port 65536
expect_error "port '-1'.*from 0 to 65535" lb --port -1
expect_error "msg-size '0'.*from 8" lb --msg-size 0
expect_error "window '0'.*from 1 to 1024" lb --window 0
expect_error "buffer-kb '0'.*from 4" lb --buffer-kb 0
expect_error "unexpected argument 'extra'" lb --probeset none extra
expect_error 'buffer-kb.*from 4 to' lb --buffer-kb 999999999
expect_error 'mode.*overwrite, discard or consumer' lb --mode sometimes
expect_error --exit 2 'cpus.*CPUs 0 to' lb --cpus 4096
expect_error "unknown command 'frobnicate'" "$LOADBENCH" frobnicate
expect_error "unknown probe set 'nosuch'.*ftrace" lb --probeset nosuch
expect_error "named twice" lb --probeset ftrace,ftrace
# An error in an option's value is a usage error (exit 2), wherever it is found.
expect_error --exit 2 "workload 'nosuch': no such workload: choose udp-rr" lb --workload nosuch \
	--probeset none
expect_error --exit 2 "address 8.8.8.8 is not loopback.*use --addr 127.0.0.1" lb --addr 8.8.8.8 \
	--probeset none
expect_error --exit 2 "'localhost' is not an IPv4 or IPv6 address literal.*--addr 127.0.0.1" \
	lb --addr localhost --probeset none
expect_error --exit 2 "workload hackbench runs its recipe's command: drop the command after --" \
	lb --workload hackbench -- true
[[ ! -e $tmp/out ]] || fail "a run refused before measuring left its results directory"
expect_error --exit 2 "topology 'vet'.*lo or veth" lb --topology vet --probeset none
expect_error --exit 2 "flows.*from 1 to 64" lb --flows 0 --probeset none
expect_error --exit 2 "addr ::1 applies to --topology lo.*drop --addr" lb --topology veth --addr ::1 \
	--probeset none
expect_error --exit 2 "unknown engine 'epoll': choose syscall or uring" lb --engine epoll --probeset none
expect_error --exit 2 "engine uring does not apply to icmp-flood.*--engine syscall" \
	lb --workload icmp-flood --engine uring --probeset none
[[ ! -e $tmp/out ]] || fail "a run refused before measuring left its results directory"

note "an empty --probeset list, or an empty item in it, is a usage error, not the default run"
# timeout: read as no probe sets at all, they would start the run of every set.
expect_error --exit 2 "probeset '': the list is empty: name probe sets.*'none' for the baseline alone" \
	timeout 10 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset ''
expect_error --exit 2 "probeset ',,': item 1 is empty .*write NAME,NAME" \
	timeout 10 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset ,,
expect_error --exit 2 "probeset ',ftrace,': item 1 is empty" \
	timeout 10 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset ,ftrace,
expect_error --exit 2 "probeset 'ftrace,': item 2 is empty" \
	timeout 10 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset ftrace,
expect_error --exit 2 "probeset 'none,,ftrace': item 2 is empty" \
	timeout 10 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset none,,ftrace
[[ ! -e $tmp/out ]] || fail "an empty --probeset item made a results directory"

note "--output: empty, or a name no file system takes"
expect_error --exit 2 "output '': the results directory's name is empty: give --output DIR" \
	"$LOADBENCH" --probeset none --output ''

note "a 3000-character argument: quoted short, the line keeps its reason and its fix"
long=$(printf 'a%.0s' {1..3000})
expect_error "unknown probe set 'a{60,}\.\.\. \(3000 bytes\)': the catalog in .*\(or give a path to a \.probeset file\)$" \
	lb --probeset "$long"
expect_error "/a{40,}\.\.\. \([0-9]+ bytes\): cannot open: File name too long$" \
	lb --probeset "$tmp/$long.probeset"
expect_error --exit 2 "output '/.*\.\.\. \([0-9]+ bytes\)': a name in it is longer than the 255 bytes .*: give a shorter --output DIR$" \
	"$LOADBENCH" --probeset none --output "$tmp/$long"
expect_error --exit 2 "workload 'a+\.\.\. \(3000 bytes\)': no such workload: .*stress-ng-cpu$" \
	lb --workload "$long" --probeset none
expect_error --exit 2 "cpus 'a+\.\.\. \(3000 bytes\)': expected S,G .*or 'none'$" lb --cpus "$long"
expect_error --exit 2 "'a+\.\.\. \(3000 bytes\)' is not an IPv4 or IPv6 address literal.*127.0.0.1 or ::1$" \
	lb --addr "$long" --probeset none
expect_error --exit 2 "unexpected argument 'a+\.\.\. \(3000 bytes\)' \(see loadbench --help\)$" \
	lb --probeset none "$long"
expect_error --exit 2 "probeset 'a+\.\.\. \(3002 bytes\)': item 2 is empty .*between every two commas$" \
	lb --probeset "$long,,"
[[ ! -e $tmp/out ]] || fail "a run refused before measuring left its results directory"

note "FIFOs and devices as files loadbench reads: refused at once, not waited on"
mkfifo "$tmp/fifo" "$tmp/fifo.probeset"
mkdir "$tmp/fifodir" "$tmp/sweepfifo"
mkfifo "$tmp/fifodir/results.json" "$tmp/sweepfifo/sweep.json"
# timeout: open() of a FIFO nobody writes to waits for ever, signals taken but not acted on.
expect_error --exit 1 "$tmp/fifo is not a regular file \(a FIFO\): give a \.probeset file" \
	timeout 5 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset "$tmp/fifo"
(cd "$tmp" && expect_error --exit 1 "^loadbench: error: \./fifo is not a regular file \(a FIFO\)" \
	timeout 5 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset ./fifo) ||
	fail "a FIFO given as ./fifo was not refused"
(cd "$tmp" && expect_error --exit 1 "^loadbench: error: fifo\.probeset is not a regular file \(a FIFO\)" \
	timeout 5 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset fifo.probeset) ||
	fail "a FIFO given as fifo.probeset was not refused"
expect_error --exit 1 "/dev/null is not a regular file \(a character device\)" \
	timeout 5 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset /dev/null
for cmd in report plot; do
	expect_error --exit 1 "fifodir/results.json is not a regular file \(a FIFO\): not loadbench results; give the directory of a loadbench run \(its --output\)$" \
		timeout 5 "$LOADBENCH" "$cmd" "$tmp/fifodir"
done
expect_error --exit 1 "sweepfifo/sweep.json is not a regular file \(a FIFO\)" \
	timeout 5 "$LOADBENCH" report "$tmp/sweepfifo"
mkdir -p "$tmp/data/workloads"
mkfifo "$tmp/data/workloads/fifo.workload"
expect_error --exit 1 "workloads/fifo.workload is not a regular file \(a FIFO\): make it a recipe's text file, or remove it" \
	env LOADBENCH_DATADIR="$tmp/data" timeout 5 "$LOADBENCH" --quiet --no-plot --output "$tmp/out" \
	--workload fifo
[[ ! -e $tmp/out ]] || fail "a run refused before measuring left its results directory"

note "every command answers --help and -h with its usage on stdout, exit 0"
for cmd in list plot report compare export cleanup stap-build; do
	for h in --help -h; do
		out=$("$LOADBENCH" "$cmd" "$h" 2>"$tmp/help.err") || fail "loadbench $cmd $h exited $?"
		grep -q "^Usage: loadbench $cmd" <<<"$out" || fail "loadbench $cmd $h said: $out"
		[[ ! -s $tmp/help.err ]] || fail "loadbench $cmd $h wrote on stderr: $(cat "$tmp/help.err")"
	done
done
expect_error --exit 2 "unexpected argument 'extra': loadbench list takes none" "$LOADBENCH" list extra
expect_error --exit 2 "usage: loadbench cleanup" "$LOADBENCH" cleanup extra

note "bad probe-set files name file:line"
printf 'tracer ftrace\n# fine\ntracepoint net:netif_rx\nfrobnicate yes\n' >"$tmp/bad.probeset"
expect_error "bad.probeset:4: .*frobnicate" lb --probeset "$tmp/bad.probeset"
printf 'tracer ftrace\ntracepoint net\n' >"$tmp/bad2.probeset"
expect_error "bad2.probeset:2: " lb --probeset "$tmp/bad2.probeset"
printf 'tracer nosuchtracer\ntracepoint net:netif_rx\n' >"$tmp/badtracer.probeset"
expect_error "badtracer.probeset:1: unknown tracer 'nosuchtracer'" lb --probeset "$tmp/badtracer.probeset"
printf 'tracer ftrace\ntracepoint net:netif_rx\nbuffer-kb -5\n' >"$tmp/badbuf.probeset"
expect_error "badbuf.probeset:3: buffer-kb '-5' is not a number" lb --probeset "$tmp/badbuf.probeset"
printf 'tracer ftrace\ntracepoint net:netif_rx\nbuffer-kb 99999999\n' >"$tmp/bigbuf.probeset"
expect_error "bigbuf.probeset:3: buffer-kb 99999999 is out of range" lb --probeset "$tmp/bigbuf.probeset"
printf 'tracer ftrace\nmode sometimes\ntracepoint net:netif_rx\n' >"$tmp/badmode.probeset"
expect_error "badmode.probeset:2: " lb --probeset "$tmp/badmode.probeset"
printf 'tracer ftrace\nfunction-graph net:netif_rx\n' >"$tmp/badkind.probeset"
expect_error "badkind.probeset:2: unknown keyword 'function-graph'" lb --probeset "$tmp/badkind.probeset"
expect_error "cannot read|No such file" lb --probeset "$tmp/missing.probeset"

note "port in use"
mkdir -p "$tmp/busy"
port=$((20000 + RANDOM % 20000))
"$LOADBENCH" --probeset none --port "$port" --duration 4 --warmup 0 --method runs --repeat 1 --quiet \
	--no-plot --output "$tmp/busy/first" >/dev/null 2>&1 &
first=$!
sleep 1
# --allow-concurrent: the second run gets as far as the port (and says it measures beside the first).
rc=0
"$LOADBENCH" --probeset none --port "$port" --quiet --no-plot --allow-concurrent \
	--output "$tmp/busy/second" >/dev/null 2>"$tmp/busy.err" || rc=$?
[[ $rc -eq 1 && $(grep -c . "$tmp/busy.err") -eq 2 ]] &&
	grep -q "^loadbench: warning: measuring beside another loadbench run (pid $first " "$tmp/busy.err" &&
	grep -q "^loadbench: error: port 127.0.0.1:$port is in use.*--port" "$tmp/busy.err" ||
	fail "a busy port: exit $rc, not the two lines expected: $(cat "$tmp/busy.err")"
wait "$first" || fail "the first run on port $port failed"

note "existing results directory"
mkdir -p "$tmp/full" && touch "$tmp/full/keep"
expect_error "exists and is not empty.*--force" "$LOADBENCH" --probeset none --output "$tmp/full"

if [[ $(id -u) -ne 0 ]]; then
	expect_error "needs root.*sudo" lb --probeset ftrace
	# Half a test is not a pass: the cases above passed, the root-only ones did not run.
	skip "the cases that need no root passed; the root-only ones were not run: not root"
fi
require_tracefs

# unchanged PATTERN CMD... - expect_error, with CMD traced by strace when it is
# installed: refused input must not have created an instance, written to
# tracefs, made a network namespace or attached a BPF program or perf event.
unchanged() {
	local pattern=$1 bad
	shift
	# strace runs programs, not shell functions: lb spelled out.
	[[ $1 != lb ]] || set -- "$LOADBENCH" --quiet --no-plot --output "$tmp/out" "${@:2}"
	if ! command -v strace >/dev/null; then
		expect_error "$pattern" "$@"
		return
	fi
	# LeakSanitizer cannot run under ptrace (an --enable-sanitizers build).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		expect_error "$pattern" strace -f -qq -o "$tmp/strace.log" \
		-e trace=mkdir,mkdirat,openat,unshare,setns,bpf,ioctl,clone,clone3 "$@"
	bad=$(grep -E 'mkdir(at)?\(.*/instances/|openat\(.*"/sys/kernel/(debug/)?tracing/[^"]*", O_(WRONLY|RDWR)|unshare\(.*CLONE_NEWNET|setns\(|BPF_LINK_CREATE|BPF_RAW_TRACEPOINT_OPEN|BPF_PROG_ATTACH|PERF_EVENT_IOC_ENABLE' \
		"$tmp/strace.log" || true)
	[[ -z $bad ]] || fail "refused input still changed kernel state: $bad"
	unchanged_checked=$((unchanged_checked + 1))
}
unchanged_checked=0

note "refused before any kernel state changes (root; checked with strace when installed)"
printf 'tracer ftrace\ntracepoint net:netif_rx\ntracepoint net:netif_recieve_skb\n' \
	>"$tmp/typo.probeset"
unchanged "typo.probeset:3: unknown tracepoint net:netif_recieve_skb.*similar: .*net:netif_receive_skb" \
	lb --probeset "ftrace,uprobe,$tmp/typo.probeset"
printf 'tracer ftrace\nsyscall no_such_call\n' >"$tmp/sys.probeset"
unchanged "sys.probeset:2: unknown syscall 'no_such_call'" lb --probeset "ftrace,$tmp/sys.probeset"
printf 'tracer ftrace\ntracepoint net:netif_rx\nuprobe no_such_function\n' >"$tmp/ufn.probeset"
unchanged "ufn.probeset:3: unknown server function no_such_function" \
	lb --probeset "uprobe,$tmp/ufn.probeset"
for t in bpf perf perf-count; do
	printf 'tracer %s\ntracepoint net:no_such_event\n' "$t" >"$tmp/$t-ev.probeset"
	unchanged "$t-ev.probeset:2: unknown tracepoint net:no_such_event" \
		lb --probeset "ftrace,$tmp/$t-ev.probeset"
done
# The kernel maps a perf ring of at most 1 GiB (its page array is kmalloc'd):
# refused at once, not after the baseline has run.
if [[ $(listed_why perf) == "runs here" ]]; then
	unchanged "perf.probeset: a perf ring of 1048577 KiB \\(rounded up to 2097152 KiB.*more than the kernel maps, 1048576 KiB per CPU" \
		lb --probeset perf --buffer-kb 1048577
fi
unchanged "workload 'nosuch': no such workload: choose udp-rr.*exec.*or a recipe of .*: hackbench, nginx, python-calls, redis, stress-ng-cpu" lb --workload nosuch --probeset ftrace,uprobe,bpf,perf
unchanged "duration '0'" lb --duration 0 --probeset ftrace,uprobe
unchanged "addr ::1 applies to --topology lo.*drop --addr" lb --topology veth --addr ::1 --probeset ftrace
mkdir -p "$tmp/full2" && touch "$tmp/full2/keep"
unchanged "exists and is not empty.*--force" "$LOADBENCH" --probeset ftrace,uprobe --output "$tmp/full2"
note "a buffer beyond memory (a private /proc/meminfo saying 1 GiB is available)"
if unshare -m --propagation private true 2>/dev/null; then
	printf 'MemTotal:        2097152 kB\nMemAvailable:    1048576 kB\n' >"$tmp/meminfo"
	unchanged "a 1048576 KiB buffer on each of [0-9]+ CPUs is more than half the 1048576 KiB of available memory.*smaller" \
		unshare -m --propagation private sh -c 'mount --bind "$1" /proc/meminfo && shift && exec "$@"' \
		sh "$tmp/meminfo" "$LOADBENCH" --quiet --no-plot --output "$tmp/out" --probeset ftrace \
		--buffer-kb 1048576
else
	note "unshare -m not permitted here: the buffer-beyond-memory case not run"
fi
assert_no_leftovers
note "$unchanged_checked refusals traced: no instance, tracefs write, namespace or attachment"

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
		"$0" --quiet --no-plot --probeset syscalls --duration 0.3 --warmup 0.1 --method runs --repeat 1 \
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
