#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root test: SIGINT and SIGTERM at random moments of tracing runs, for every
# tracer that runs here (ftrace, ftrace in consumer mode, syscalls, perf,
# perf-count, bpf, bpf-syscalls, uprobe, strace), each on lo, with
# --topology veth and with --flows 2: 27 runs. Every time: exit status
# 128+N (or 0 when the run had already finished), the partial results
# written and marked incomplete (or, when the signal came before the first
# run, a line saying nothing was measured), no temporary file beside them,
# and nothing left behind: no tracefs instance or dynamic event, no veth
# end, no process of the run, no BPF program or link it held (bpftool), no
# network namespace of its servers.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
require_tracefs
assert_no_leftovers

mapfile -t sets < <(running_here ftrace ftrace-consumer syscalls perf perf-count bpf bpf-syscalls \
	uprobe strace)
((${#sets[@]})) || skip "none of the probe sets runs here"
variants=("" "--topology veth" "--flows 2")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What the run $1 and its children hold right now: BPF program and link ids
# (from their descriptors' fdinfo) and the servers' network namespaces.
held() {
	local p f
	for p in "$1" $(pgrep -P "$1" 2>/dev/null); do
		# One sed per process, not per descriptor: perf's and bpf's runs hold
		# dozens, and a fork each behind a busy pinned pair on every CPU
		# (--flows 2) took 10-25 s, so the signal came after the run ended.
		sed -n 's/^prog_id:[[:space:]]*\([0-9]*\)/prog \1/p; s/^link_id:[[:space:]]*\([0-9]*\)/link \1/p' \
			/proc/"$p"/fdinfo/* 2>/dev/null || true
		[[ $p == "$1" ]] && continue
		f=$(readlink "/proc/$p/ns/net" 2>/dev/null) || continue
		[[ $f == "$(readlink /proc/self/ns/net)" ]] || echo "netns $f"
	done | sort -u
}

# still_there KIND ID - true while that BPF object or network namespace exists.
still_there() {
	case $1 in
	prog | link)
		command -v bpftool >/dev/null || return 1
		bpftool "$1" show id "$2" >/dev/null 2>&1 ;;
	netns)
		local d
		for d in /proc/[0-9]*/ns/net; do
			[[ $(readlink "$d" 2>/dev/null) == "$2" ]] && return 0
		done
		return 1 ;;
	esac
}

runs=27 interrupted=0 early=0 checked_bpf=0 checked_netns=0
for i in $(seq 1 $runs); do
	set_=${sets[$(((i - 1) % ${#sets[@]}))]}
	variant=${variants[$(((i - 1) / ${#sets[@]} % ${#variants[@]}))]}
	sig=INT
	((i % 2)) || sig=TERM
	# A third of the signals within the first 0.3 s (set-up: namespace,
	# probes, first arm), the rest anywhere in the ~2.5 s a run takes.
	if ((i % 3 == 1)); then
		delay=0.$(printf '%03d' $((10 + RANDOM % 290)))
	else
		delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.01 + 2.5 * r / 32768 }')
	fi
	# Its own process group, so that a third of the signals can go to the whole group as a
	# terminal's Ctrl-C does (the workload processes must ignore it; loadbench stops them).
	# shellcheck disable=SC2086
	# Every other run alternates (the default method; it never reaches a 0.01 pp CI, so it
	# switches for its whole 2 s), the others are fresh runs.
	method=(--method runs)
	((i % 2)) || method=(--max-time 2 --precision 0.01)
	LB_TEST_TAG=$LB_TAG setsid "$LOADBENCH" --probeset "$set_" $variant "${method[@]}" \
		--duration 0.4 --warmup 0.2 --repeat 2 --quiet --no-plot --output "$tmp/r$i" \
		>"$tmp/out$i" 2>"$tmp/err$i" &
	pid=$!
	t0=$EPOCHREALTIME
	sleep "$delay"
	had=$(held "$pid")
	delay=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
	target=$pid
	((i % 3)) || target=-$pid
	kill -"$sig" -- "$target" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	what="run $i ($set_${variant:+ $variant} ${method[*]}): SIG$sig to $target at ${delay}s"
	if [[ $rc -eq 0 ]]; then
		grep -q '"complete": *true' "$tmp/r$i/results.json" ||
			fail "$what: exit 0 but the results are not complete"
		note "$what: had finished"
	elif [[ $rc -eq $want ]]; then
		interrupted=$((interrupted + 1))
		if [[ -e $tmp/r$i/results.json ]]; then
			grep -q '"complete": *false' "$tmp/r$i/results.json" ||
				fail "$what: interrupted results not marked incomplete"
			grep -q "interrupted by signal $((want - 128))" "$tmp/r$i/results.json" ||
				fail "$what: results.json does not say it was interrupted"
			[[ -s $tmp/r$i/results.csv && -s $tmp/r$i/summary.txt ]] ||
				fail "$what: results.csv or summary.txt missing"
		else
			grep -q 'before the first run: nothing measured' "$tmp/err$i" ||
				fail "$what: no results and no word why: $(cat "$tmp/err$i")"
			early=$((early + 1))
		fi
		note "$what -> exit $rc, $(tail -1 "$tmp/err$i")"
	else
		fail "$what gave exit $rc, expected $want: $(cat "$tmp/err$i")"
	fi
	left=$(find "$tmp/r$i" -name '*.tmp*' 2>/dev/null || true)
	[[ -z $left ]] || fail "$what: temporary files left in the results: $left"
	assert_no_leftovers
	left=$(tagged_leftovers .)
	[[ -z $left ]] || fail "$what: processes of the run still alive: $left"
	grep -q ": lb${pid}h" <<<"$(ip -o link show 2>/dev/null)" &&
		fail "$what: veth lb${pid}h* still in the host namespace"
	# BPF objects and namespaces go away asynchronously once the last holder is gone.
	while read -r kind id; do
		[[ -n $kind ]] || continue
		for _ in $(seq 1 40); do
			still_there "$kind" "$id" || break
			sleep 0.05
		done
		still_there "$kind" "$id" && fail "$what: $kind $id it held outlived it"
		case $kind in prog | link) checked_bpf=$((checked_bpf + 1)) ;;
		netns) checked_netns=$((checked_netns + 1)) ;; esac
	done <<<"$had"
done
note "SIGHUP stops a run (129) unless it was started under nohup"
for how in plain nohup; do
	cmd=("$LOADBENCH")
	[[ $how == plain ]] || cmd=(nohup "$LOADBENCH")
	"${cmd[@]}" --probeset ftrace --duration 0.5 --warmup 0.1 --method runs --repeat 2 --quiet --no-plot \
		--output "$tmp/hup-$how" >/dev/null 2>"$tmp/hup-$how.err" &
	pid=$!
	sleep 0.8
	kill -HUP "$pid"
	rc=0
	wait "$pid" || rc=$?
	case $how in
	plain) [[ $rc -eq 129 ]] && grep -q '"complete": *false' "$tmp/hup-$how/results.json" ||
		fail "SIGHUP: exit $rc, expected 129 and incomplete results: $(cat "$tmp/hup-$how.err")" ;;
	nohup) [[ $rc -eq 0 ]] && grep -q '"complete": *true' "$tmp/hup-$how/results.json" ||
		fail "SIGHUP under nohup: exit $rc, expected 0 and complete results" ;;
	esac
	assert_no_leftovers
done
rm -f nohup.out

if command -v strace >/dev/null; then
	note "result files are written atomically: a temporary file beside each, then rename(2)"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$tmp/atomic.st" \
		-e trace=openat,rename,renameat,renameat2 "$LOADBENCH" --probeset none --duration 0.2 \
		--warmup 0 --method runs --repeat 1 --quiet --no-plot --output "$tmp/atomic" >/dev/null 2>&1 ||
		fail "the traced run failed"
	# Relative to the results directory's descriptor (d60c0cf): renameat(FD, "F.tmp-X", FD, "F").
	for f in results.json results.csv summary.txt; do
		grep -qE "renameat2?\\(([0-9]+), \"$f\\.tmp-[^\"]*\", \\1, \"$f\"(, 0)?\\) = 0" \
			"$tmp/atomic.st" || fail "$f was not renamed into place from a temporary file: $(grep "$f" "$tmp/atomic.st")"
		grep -qE "openat\\([^\"]*\"($tmp/atomic/)?$f\"" "$tmp/atomic.st" &&
			fail "$f was opened in place: $(grep "\"$f\"" "$tmp/atomic.st")"
	done
fi
((interrupted >= runs / 2)) ||
	fail "only $interrupted of $runs runs were interrupted; the timing is off"
command -v bpftool >/dev/null || note "bpftool is not installed: BPF objects checked by descriptors only"
echo "PASS ($interrupted of $runs runs interrupted, $early of them before the first run;" \
	"$checked_bpf BPF objects and $checked_netns namespaces seen gone)"
