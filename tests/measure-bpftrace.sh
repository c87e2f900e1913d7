#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root integration test of a catalog command set on a real tool:
# bpftrace-syscalls (bpftrace counting every syscall entry in a map), under
# --method alternate. Its events are its BPF program's runs, read from the
# kernel's BPF statistics: above 0, about the syscalls per operation of
# udp-rr (2 of the client, 4 of the server, and the rest of the machine's);
# its own CPU (bpftrace's process tree) counted; off is off (no event while
# off). Afterwards no bpftrace process and no BPF program that was not there
# before; the same after loadbench is SIGKILLed mid-run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
require_runs_here bpftrace-syscalls
command -v bpftool >/dev/null || skip "no bpftool to list the BPF programs (Debian: bpftool)"

progs() { bpftool prog list 2>/dev/null | sed -n 's/^\([0-9][0-9]*\): .*/\1/p' | sort -n; }
tool_re="^bpftrace -e tracepoint:raw_syscalls:sys_enter"

# new_progs BEFORE - the BPF programs loaded now that were not in BEFORE.
new_progs() { comm -13 <(echo "$1") <(progs); }

assert_bpftrace_gone() {
	local left
	assert_no_leftovers
	for _ in $(seq 1 40); do
		pgrep -f "$tool_re" >/dev/null || [[ -n $(new_progs "$1") ]] || break
		sleep 0.05
	done
	left=$(pgrep -af "$tool_re" || true)
	[[ -z $left ]] || fail "bpftrace is still running:"$'\n'"$left"
	left=$(new_progs "$1")
	[[ -z $left ]] || fail "BPF programs left loaded: $(bpftool prog show id "${left%%$'\n'*}" 2>&1)"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pgrep -f "$tool_re" >/dev/null && skip "a bpftrace like this set's is running already"
before=$(progs)

note "bpftrace-syscalls, switched on and off"
lb --probeset bpftrace-syscalls --method alternate --max-time 12 --duration 0.3 --warmup 0.2 \
	--output "$tmp/a" --quiet --no-plot | tee "$tmp/a.txt"
rc=0
"$top_builddir/tests/check-results" --tracer-cpu bpftrace-syscalls "$tmp/a" bpftrace-syscalls \
	>"$tmp/check.txt" || rc=$?
cat "$tmp/check.txt"
[[ $rc -eq 0 ]] || fail "check-results failed on bpftrace-syscalls (exit $rc)"
op=$(per_op bpftrace-syscalls "$tmp/check.txt")
awk -v x="$op" 'BEGIN { exit !(x >= 5 && x <= 60) }' ||
	fail "expected about 6 syscall entries per udp-rr operation (5 to 60), got $op"
# Off is bpftrace stopped and its program gone: no run of it counted while off.
n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["state"] == "off" && $c["off_events"] > 0 { n++ }
	END { print n + 0 }' "$tmp/a/slices.csv")
[[ $n -eq 0 ]] || fail "$n off slices counted bpftrace's program runs"
# Every on slice counted all of its program's runs: each within a factor of 2 of the set's
# events/op (a new start's programs missed, or an earlier start's lost, would halve one).
bad=$(awk -F, -v op="$op" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["state"] == "bpftrace-syscalls" && $c["dropped"] == 0 && $c["ops"] > 0 {
		r = $c["events"] / $c["ops"]; if (r < op / 2 || r > op * 2) printf " %.2f", r }' \
	"$tmp/a/slices.csv")
[[ -z $bad ]] || fail "on slices whose events/op is far from the set's $op:$bad"
assert_bpftrace_gone "$before"

note "loadbench SIGKILLed while bpftrace runs"
LB_TEST_TAG=$LB_TAG "$LOADBENCH" --probeset bpftrace-syscalls --method runs --repeat 1 \
	--duration 20 --warmup 0.1 --quiet --no-plot --output "$tmp/killed" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
	[[ -n $(new_progs "$before") ]] && break
	sleep 0.05
done
[[ -n $(new_progs "$before") ]] || fail "bpftrace's program never appeared"
kill -KILL $pid
wait $pid 2>/dev/null || true
wait_watchdog $pid
assert_bpftrace_gone "$before"
echo "PASS"
