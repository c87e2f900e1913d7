#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Integration test of the lttng tracer. Where LTTng cannot run (a build
# without liblttng-ctl, a kernel without modules or lttng-modules, no root, no
# lttng-sessiond), `loadbench list' and a run of an lttng probe set must say
# why, in one line, before anything is changed; then the test skips with that
# reason. Where it runs (root, lttng-modules, lttng-sessiond: the VM of
# scripts/loadbench-vm), short lttng and lttng+kprobe measurements must
# record events and give a slowdown, a wrong LTTng name must be refused with
# the near match, and no loadbench_* session may be left.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$LOADBENCH" list >"$tmp/list.txt"
for set in lttng lttng+kprobe lttng+kretprobe lttng-syscalls lttng-syscalls-pid; do
	grep -A1 "^$set " "$tmp/list.txt" | grep -Eq 'runs here|cannot run here: ' ||
		fail "loadbench list says nothing about $set:"$'\n'"$(cat "$tmp/list.txt")"
done
reason=$(grep -A1 '^lttng ' "$tmp/list.txt" | sed -n 's/.*cannot run here: //p' |
	sed 's/^probe set lttng cannot run here: //')
if [[ -n $reason ]]; then
	note "lttng cannot run here: $reason"
	# The reasons loadbench knows, each with its fix.
	[[ $reason =~ built\ without\ liblttng-ctl|CONFIG_MODULES\ unset.*scripts/loadbench-vm|needs\ root|lttng-sessiond\ --daemonize|lttng-modules|babeltrace2 ]] ||
		fail "unexpected reason for lttng: $reason"
	# Named on the command line, it is an error with that reason, and nothing is created.
	pattern="probe set lttng cannot run here: .*${reason:0:30}"
	pattern=${pattern//(/\\(}
	pattern=${pattern//)/\\)}
	expect_error "$pattern" "$LOADBENCH" --probeset lttng --duration 0.2 --quiet \
		--output "$tmp/refused"
	[[ ! -e $tmp/refused ]] || fail "a refused lttng probe set still created its results directory"
	[[ $(id -u) -ne 0 ]] || assert_no_leftovers
	skip "lttng: $reason"
fi

require_root
assert_no_leftovers

note "lttng and lttng+kprobe: events recorded (read back from the trace) and a slowdown"
"$LOADBENCH" --probeset lttng,lttng+kprobe --duration 2 --warmup 0.3 --method runs --repeat 3 --quiet \
	--no-plot --output "$tmp/run" | tee "$tmp/run.txt"
"$top_builddir/tests/check-results" "$tmp/run" lttng lttng+kprobe | tee "$tmp/check.txt"
assert_no_leftovers
# Each kprobe sits on a traced event site: lttng+kprobe records more per operation.
a=$(per_op lttng "$tmp/check.txt")
b=$(per_op lttng+kprobe "$tmp/check.txt")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b > a) }' ||
	fail "events/op: lttng $a, lttng+kprobe $b; expected lttng+kprobe > lttng > 0"

note "an ftrace name and a misspelt LTTng name: refused with the LTTng names, nothing created"
printf 'tracer lttng\ntracepoint net:netif_receive_skb\n' >"$tmp/ftname.probeset"
expect_error "ftname.probeset:2: tracepoint net:netif_receive_skb is an ftrace name.*net_if_receive_skb" \
	"$LOADBENCH" --probeset "$tmp/ftname.probeset" --duration 0.2 --quiet --output "$tmp/ft"
printf 'tracer lttng\n\ntracepoint sched_swich\n' >"$tmp/typo.probeset"
expect_error "typo.probeset:3: unknown LTTng kernel tracepoint sched_swich.*similar: sched_switch" \
	"$LOADBENCH" --probeset "$tmp/typo.probeset" --duration 0.2 --quiet --output "$tmp/typo"
printf 'tracer lttng\nkprobe no_such_function_xyz\n' >"$tmp/nosym.probeset"
expect_error "nosym.probeset:2: unknown kernel symbol no_such_function_xyz" \
	"$LOADBENCH" --probeset "$tmp/nosym.probeset" --duration 0.2 --quiet --output "$tmp/nosym"
assert_no_leftovers

note "SIGTERM during an lttng run: the session is destroyed, the trace directory removed"
"$LOADBENCH" --probeset lttng --duration 5 --warmup 0.3 --method runs --repeat 1 --quiet --no-plot \
	--output "$tmp/term" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do
	lttng list 2>/dev/null | grep -q "loadbench_$pid" && break
	sleep 0.2
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[[ $rc -eq 143 ]] || fail "SIGTERM: exit $rc, expected 143"
assert_no_leftovers
ls -d "${TMPDIR:-/tmp}/loadbench_$pid".* 2>/dev/null && fail "trace directory left behind"
note "ok"
