#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the bpf tracers: a short real measurement of the
# baseline, ftrace, bpf (a counting eBPF program on the ftrace set's
# tracepoints), bpf-raw (the same on raw tracepoints), bpf-syscalls and
# bpf-usdt (the server's USDT markers through libbpf: exactly 2 per operation),
# checked by tests/check-results (the slowdown's sign only for ftrace: the bpf
# sets cost less than the noise of short runs); bpf and ftrace name the same tracepoints, so
# their events per operation must agree within a factor of 1.5. Afterwards no
# loadbench process, no BPF program, link or map descriptor of one, no
# program named lb_count* (when bpftool exists) and no loadbench_* instance may
# be left, also after an arm that fails half-way. Skipped (77, with the
# reason) when not root, when loadbench was built without libbpf, or when
# the kernel refuses bpf(2). The kprobe attachments: measure-bpf-kprobe.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here bpf

assert_no_bpf_leftovers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

note "probes the bpf tracers cannot attach to: one line naming the cause, nothing attached"
printf 'tracer bpf\ntracepoint net:netif_rx\ntracepoint net:netif_recieve_skb\n' \
	>"$tmp/typo.probeset"
expect_error "typo.probeset:3: unknown tracepoint net:netif_recieve_skb.*similar: .*receive_skb" \
	lb --probeset "$tmp/typo.probeset" --quiet --no-plot --output "$tmp/typo"
printf 'tracer bpf-raw\nsyscall getppid\n' >"$tmp/raw.probeset"
expect_error "raw.probeset:2: syscalls:sys_enter_getppid is not a kernel tracepoint" \
	lb --probeset "$tmp/raw.probeset" --quiet --no-plot --output "$tmp/raw"
printf 'tracer bpf\ntracepoint net:netif_rx\nuprobe lb_server_request\n' >"$tmp/uprobe.probeset"
expect_error "uprobe.probeset:3: uprobe lb_server_request: the bpf tracer attaches BPF programs to tracepoints and kprobes only" \
	lb --probeset "$tmp/uprobe.probeset" --quiet --no-plot --output "$tmp/uprobe"
assert_no_bpf_leftovers

note "bpf, bpf-raw, bpf-syscalls beside ftrace"
lb --probeset ftrace,bpf,bpf-raw,bpf-syscalls --duration 1 --warmup 0.3 --method runs --repeat 3 \
	--output "$tmp/bpf" --quiet | tee "$tmp/bpf.txt"
# ftrace (~30% here) must slow the workload down. The bpf probe sets cost
# 5-20% here, inside what a shared machine's noise does to 3 rounds of 1 s:
# CI once saw bpf at -5.1% [-7.2, -1.9] in the sanitizer build, a baseline
# whose rounds ran slower than every bpf round. For them the slowdown must
# exist, be finite and lie in its interval (--any-slowdown); that they
# record the events is asserted below, against ftrace's count.
rc=0
"$top_builddir/tests/check-results" "$tmp/bpf" ftrace >"$tmp/check.txt" || rc=$?
"$top_builddir/tests/check-results" --any-slowdown "$tmp/bpf" bpf bpf-raw bpf-syscalls \
	>>"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on the bpf run (exit $rc)"
assert_no_bpf_leftovers

# Both count system-wide: another workload on the machine at the same time
# inflates one probe set's runs and not the other's, so a disagreement is
# measured again twice before it counts as a failure.
check=$tmp/check.txt
for attempt in 1 2 3; do
	if [[ $attempt -gt 1 ]]; then
		note "measuring bpf, bpf-raw and ftrace again (attempt $attempt)"
		lb --probeset bpf,bpf-raw,ftrace --duration 1 --warmup 0.3 --method runs --repeat 3 \
			--output "$tmp/again$attempt" --quiet --no-plot >/dev/null
		check=$tmp/check$attempt.txt
		"$top_builddir/tests/check-results" --any-slowdown "$tmp/again$attempt" bpf bpf-raw ftrace \
			>"$check" || { cat "$check"; fail "check-results failed on the bpf/ftrace run"; }
		assert_no_bpf_leftovers
	fi
	bpf=$(per_op bpf "$check")
	raw=$(per_op bpf-raw "$check")
	ftrace=$(per_op ftrace "$check")
	[[ -n $bpf && -n $raw && -n $ftrace ]] || fail "no events/op in the check-results output"
	note "events/op for the same 18 tracepoints: ftrace $ftrace, bpf $bpf, bpf-raw $raw"
	within "$bpf" "$ftrace" && within "$raw" "$ftrace" && break
	[[ $attempt -lt 3 ]] ||
		fail "bpf ($bpf) or bpf-raw ($raw) and ftrace ($ftrace) events/op differ by more" \
			"than a factor of 1.5 for the same tracepoints, three times"
done
note "bpf-syscalls events/op in the first run: $(per_op bpf-syscalls "$tmp/check.txt")"

# bpf-usdt: libbpf's USDT attach on the server's two markers, exactly 2 per operation.
if readelf -n "$LOADBENCH" 2>/dev/null | grep -q "Provider: loadbench"; then
	note "bpf-usdt: the server's USDT markers, counted by the eBPF program"
	lb --probeset bpf-usdt --duration 1 --warmup 0.3 --method runs --repeat 2 \
		--output "$tmp/usdt" --quiet --no-plot >/dev/null
	"$top_builddir/tests/check-results" --any-slowdown "$tmp/usdt" bpf-usdt >"$tmp/usdt.txt" ||
		{ cat "$tmp/usdt.txt"; fail "check-results failed on bpf-usdt"; }
	op=$(per_op bpf-usdt "$tmp/usdt.txt")
	awk -v e="$op" 'BEGIN { exit !(e >= 1.9 && e <= 2.1) }' ||
		fail "bpf-usdt events/op is $op, expected 2 (a request and a reply marker per operation)"
	note "bpf-usdt events/op: $op"
	assert_no_bpf_leftovers
else
	note "no USDT markers in $LOADBENCH (built without sys/sdt.h): bpf-usdt not run"
fi
note "a usdt set whose binary is not installed: it cannot run here, one line, as under ftrace"
printf 'tracer bpf\nbinary /usr/bin/no-such-python\nusdt python:function__return\n' \
	>"$tmp/nopython.probeset"
expect_error "probe set nopython cannot run here: its binary /usr/bin/no-such-python is not" \
	"$LOADBENCH" --probeset "$tmp/nopython.probeset" --duration 0.2 --quiet --output "$tmp/nopy"
assert_no_bpf_leftovers

note "an arm that fails half-way leaves nothing"
# ftrace:function has a tracepoint id, but its perf event is refused where the
# function tracer is off: the program is loaded and attached to net:netif_rx
# by then.
if [[ -r $TRACING/events/ftrace/function/id ]]; then
	printf 'tracer bpf\ntracepoint net:netif_rx\ntracepoint ftrace:function\n' \
		>"$tmp/halfway.probeset"
	rc=0
	lb --probeset "$tmp/halfway.probeset" --duration 0.3 --warmup 0.1 --method runs --repeat 1 \
		--output "$tmp/halfway" --quiet --no-plot >/dev/null 2>"$tmp/halfway.err" || rc=$?
	note "exit $rc: $(cat "$tmp/halfway.err")"
	[[ $rc -ne 0 ]] || note "the kernel attached ftrace:function: not a half-way failure here"
	assert_no_bpf_leftovers
else
	note "no ftrace:function id on this kernel: the half-way case was not run"
fi
echo "PASS"
