#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of the bpf tracer's kprobe and kretprobe
# attachments (bpf+kprobe, bpf+kretprobe: the bpf set's tracepoints plus one
# kprobe per traced event site, all running the counting eBPF program).
#
# On a kernel without kprobes (no tracefs kprobe_events: CONFIG_KPROBES
# unset, as on the development machine) it checks that `loadbench list' and a
# run of bpf+kprobe give that reason, in one line, with nothing attached, that
# --skip-unavailable skips them and records why, and then exits 77 with the
# reason. Where kprobe_events exists it measures bpf,
# bpf+kprobe and bpf+kretprobe for real, checked by tests/check-results
# (events > 0, slowdown > 0), asserts that the kprobes add events per
# operation to bpf's, that a missing symbol is named with its clones, and
# that no BPF program, link, perf event or loadbench process is left.
# (scripts/loadbench-vm runs bpf+kprobe under Debian's kernel; make check-vm.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here bpf

assert_no_bpf_leftovers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [[ ! -e $TRACING/kprobe_events ]]; then
	reason="needs kprobes: this kernel has no $TRACING/kprobe_events (CONFIG_KPROBES unset)"
	for set in bpf+kprobe bpf+kretprobe; do
		listed=$(listed_why "$set")
		[[ $listed == "cannot run here: $reason" ]] ||
			fail "loadbench list says for $set: '$listed'; expected the kprobe reason"
		expect_error "^loadbench: error: needs kprobes: this kernel has no $TRACING/kprobe_events" \
			lb --probeset "$set" --duration 0.3 --method runs --repeat 1 --quiet --no-plot \
			--output "$tmp/$set"
	done
	note "--skip-unavailable skips them, with the reason in results.json"
	lb --probeset bpf+kprobe,bpf+kretprobe,bpf --skip-unavailable --duration 0.3 --warmup 0.1 \
		--method runs --repeat 1 --quiet --no-plot --output "$tmp/skip" >/dev/null 2>"$tmp/skip.err" ||
		fail "--skip-unavailable did not skip the kprobe sets: $(cat "$tmp/skip.err")"
	for set in bpf+kprobe bpf+kretprobe; do
		grep -q "\"name\": \"$set\"" "$tmp/skip/results.json" &&
			grep -q '"reason": "needs kprobes' "$tmp/skip/results.json" ||
			fail "results.json does not record $set as skipped for want of kprobes"
	done
	grep -q '"name": "bpf"' "$tmp/skip/results.json" || fail "bpf did not run beside them"
	assert_no_bpf_leftovers
	skip "$reason"
fi

note "a kprobe on a symbol this kernel lacks"
printf 'tracer bpf\nkprobe __netif_receive_skb_core_typo\n' >"$tmp/typo.probeset"
expect_error "typo.probeset:2: unknown kernel symbol __netif_receive_skb_core_typo" \
	lb --probeset "$tmp/typo.probeset" --quiet --no-plot --output "$tmp/typo"
assert_no_bpf_leftovers

note "bpf, bpf+kprobe, bpf+kretprobe"
lb --probeset bpf,bpf+kprobe,bpf+kretprobe --duration 1 --warmup 0.3 --method runs --repeat 3 \
	--output "$tmp/k" --quiet --no-plot | tee "$tmp/k.txt"
rc=0
"$top_builddir/tests/check-results" "$tmp/k" bpf bpf+kprobe bpf+kretprobe \
	>"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on the bpf kprobe run (exit $rc)"
assert_no_bpf_leftovers
tp=$(per_op bpf "$tmp/check.txt")
kp=$(per_op bpf+kprobe "$tmp/check.txt")
kr=$(per_op bpf+kretprobe "$tmp/check.txt")
note "events/op: bpf $tp, bpf+kprobe $kp, bpf+kretprobe $kr"
awk -v a="$kp" -v b="$tp" 'BEGIN { exit !(a > b) }' ||
	fail "bpf+kprobe ($kp events/op) does not add events to bpf's ($tp)"
awk -v a="$kr" -v b="$tp" 'BEGIN { exit !(a > b) }' ||
	fail "bpf+kretprobe ($kr events/op) does not add events to bpf's ($tp)"
echo "PASS"
