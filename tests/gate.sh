#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The regression gate end to end, as doc/ci.md has a CI job run it (root):
# a probe set kept in a repository, measured at the baseline commit, again
# at the same commit, and at a candidate commit that adds tracepoints
# firing on every system call. 'compare --baseline' must call the same
# commit unchanged or inconclusive (exit 0; at --fail-above 5, what runs of
# 8 s can hold: their CIs reach +-2-3 pp, and the default 2 pp would make
# this check fail now and then) and the candidate worse (exit 1,
# its line and its Markdown row saying so); runs of another workload are
# refused unless --force; usage errors exit 2 (those need no root).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

note "usage errors: exit 2, one line"
fx=$top_srcdir/doc/example
expect_usage() {
	local want=$1 rc=0
	shift
	"$LOADBENCH" "$@" >"$tmp/u.out" 2>"$tmp/u.err" || rc=$?
	[[ $rc -eq 2 ]] || fail "exit $rc, not 2: $* ($(cat "$tmp/u.err"))"
	grep -q -- "$want" "$tmp/u.err" || fail "not '$want': $(cat "$tmp/u.err")"
	[[ $(wc -l <"$tmp/u.err") -eq 1 ]] || fail "more than one line: $(cat "$tmp/u.err")"
	note "ok: $(cat "$tmp/u.err")"
}
expect_usage "--fail-above '0': expected a number from 0.01 to 100" \
	compare --baseline "$fx" --fail-above 0 "$fx"
expect_usage "--format 'csv': expected lines or markdown" compare --baseline "$fx" --format csv "$fx"
expect_usage "--baseline needs the results directory to gate" compare --baseline "$fx"
expect_usage "--fail-above is for the regression gate: add --baseline DIR" \
	compare --fail-above 3 "$fx" "$fx"
expect_usage "--baseline prints the regression gate and draws no figure: drop --output" \
	compare --baseline "$fx" -o "$tmp/x" "$fx"
rc=0
"$LOADBENCH" compare --baseline "$fx" "$tmp/absent" >/dev/null 2>"$tmp/u.err" || rc=$?
[[ $rc -eq 2 ]] || fail "a missing directory exited $rc, not 2: $(cat "$tmp/u.err")"

require_root
require_tracefs
require_runs_here syscalls
assert_no_leftovers

# The probe set as a team keeps it: the baseline commit's, and the candidate's.
mkdir "$tmp/base" "$tmp/cand"
cat >"$tmp/base/agent.probeset" <<'PS'
description  What the agent records (baseline commit): process starts and exits
tracer       ftrace
tracepoint   sched:sched_process_exec
tracepoint   sched:sched_process_exit
PS
cp "$tmp/base/agent.probeset" "$tmp/cand/agent.probeset"
sed -i 's/(baseline commit)/(candidate: and every system call)/' "$tmp/cand/agent.probeset"
# Two tracepoints on every system call, and each call's own entry and exit: ~32 events
# per operation, a change of 20 pp or more, far outside a short run's noise.
printf 'tracepoint   raw_syscalls:sys_enter\ntracepoint   raw_syscalls:sys_exit\nsyscall      all\n' \
	>>"$tmp/cand/agent.probeset"

measure() {
	lb --probeset "$1/agent.probeset" --max-time 8 --precision 1 --duration 0.5 --warmup 0.3 \
		--quiet --no-plot --output "$2" >/dev/null || fail "the run of $1 into $2 failed"
}
note "three runs: the baseline commit, the same again, the candidate"
measure "$tmp/base" "$tmp/r-base"
measure "$tmp/base" "$tmp/r-same"
measure "$tmp/cand" "$tmp/r-cand"
assert_no_leftovers

note "the same commit twice: not worse (exit 0)"
rc=0
"$LOADBENCH" compare --baseline "$tmp/r-base" --fail-above 5 "$tmp/r-same" >"$tmp/same.out" 2>&1 || rc=$?
cat "$tmp/same.out"
[[ $rc -eq 0 ]] || fail "the same commit twice exited $rc, not 0"
grep -Eq '^agent: (unchanged|inconclusive): [+-][0-9.]+ pp \[' "$tmp/same.out" ||
	fail "no unchanged or inconclusive line for agent"
grep -q '^gate: 0 worse, .*: PASS$' "$tmp/same.out" || fail "no PASS line"

note "the candidate: worse (exit 1)"
rc=0
"$LOADBENCH" compare --baseline "$tmp/r-base" "$tmp/r-cand" >"$tmp/cand.out" 2>&1 || rc=$?
cat "$tmp/cand.out"
[[ $rc -eq 1 ]] || fail "the candidate exited $rc, not 1"
# (No ns/event change: the baseline's set records next to no events, so it has no cost per event.)
grep -Eq '^agent: worse: \+[0-9.]+ pp \[\+[0-9.]+, \+[0-9.]+\] \([0-9.-]+% -> [0-9.]+%\)' \
	"$tmp/cand.out" || fail "no worse line for agent with its CI above 0"
grep -q '^gate: 1 worse, .*: FAIL$' "$tmp/cand.out" || fail "no FAIL line"
"$LOADBENCH" compare --baseline "$tmp/r-base" --format markdown "$tmp/r-cand" >"$tmp/cand.md" || true
grep -q '^\*\*FAIL\*\*: 1 worse, ' "$tmp/cand.md" || fail "the Markdown does not say FAIL: $(cat "$tmp/cand.md")"
grep -q '^| agent | .* | \*\*worse\*\* |$' "$tmp/cand.md" || fail "no worse row: $(cat "$tmp/cand.md")"

note "another workload: refused, unless --force"
mkdir "$tmp/r-tcp"
sed 's/"workload": *"udp-rr"/"workload": "tcp-rr"/' "$tmp/r-cand/results.json" >"$tmp/r-tcp/results.json"
grep -q '"workload": "tcp-rr"' "$tmp/r-tcp/results.json" || fail "the workload field was not found to change"
rc=0
"$LOADBENCH" compare --baseline "$tmp/r-base" "$tmp/r-tcp" >/dev/null 2>"$tmp/tcp.err" || rc=$?
[[ $rc -eq 2 ]] || fail "another workload exited $rc, not 2"
grep -q "were not measured alike (workload udp-rr (.*) vs tcp-rr (.*)): .* add --force" "$tmp/tcp.err" ||
	fail "the refusal does not name the workloads: $(cat "$tmp/tcp.err")"
rc=0
"$LOADBENCH" compare --baseline "$tmp/r-base" --force "$tmp/r-tcp" >/dev/null 2>"$tmp/tcp.err" || rc=$?
[[ $rc -eq 1 ]] || fail "--force: exit $rc, not 1 (the candidate is still worse)"
grep -q "warning: .*compared as asked (--force)" "$tmp/tcp.err" || fail "--force did not warn"
echo PASS
