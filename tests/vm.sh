#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-vm: boots Debian's kernel under QEMU with scripts/loadbench-vm
# and runs short ftrace+kprobe, ftrace+kretprobe, bpf+kprobe and all measurements there (this
# machine's kernel has no kprobes). Asserts, with tests/check-results, that
# every probe set recorded events and has a slowdown figure, that the VM
# brought its results back, and that the guest powered off cleanly.
# Not part of make check: it downloads a kernel package on its first run
# (cached in /var/cache/loadbench-vm, outside the clone).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
command -v apt-get >/dev/null || skip "needs apt-get (a Debian system) to fetch the kernel"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sets=ftrace+kprobe,ftrace+kretprobe,bpf+kprobe,all
note "loadbench-vm: $sets under the current Debian kernel"
start=$(date +%s)
rc=0
LOADBENCH_BUILDDIR=$top_builddir "$top_srcdir/scripts/loadbench-vm" -- \
	--probeset "$sets" --duration 1 --warmup 0.3 --repeat 3 \
	--output "$tmp/results" >"$tmp/out.txt" 2>"$tmp/err.txt" || rc=$?
cat "$tmp/err.txt" "$tmp/out.txt"
note "loadbench-vm took $(($(date +%s) - start)) s"
[[ $rc -eq 0 ]] || fail "scripts/loadbench-vm exited $rc"
[[ -s $tmp/results/results.json ]] || fail "no results.json came back from the VM"

console=$tmp/results/vm-console.log
[[ -s $console ]] || fail "no vm-console.log in the results"
grep -q 'LOADBENCH-EXIT: 0' "$console" || fail "the guest did not report LOADBENCH-EXIT: 0"
grep -q 'reboot: Power down' "$console" || fail "the guest did not power off cleanly"
if grep -E 'LOADBENCH-VM: (cannot|module load failed|warning)|Kernel panic|BUG:|Oops' "$console"; then
	fail "the guest console shows an error"
fi
grep -q '"virtualization": *"qemu-' "$tmp/results/results.json" ||
	fail "results.json does not record the QEMU virtualization"
if grep -q '"virtualization": *"qemu-tcg"' "$tmp/results/results.json"; then
	grep -q 'timings under qemu-tcg are emulated' "$tmp/out.txt" "$tmp/results/summary.txt" ||
		fail "a TCG run's output does not say that timings are emulated"
fi

# check-results (as is): events > 0, slowdown figure, CI, JSON keys, CSV rows.
"$top_builddir/tests/check-results" "$tmp/results" ftrace+kprobe ftrace+kretprobe bpf+kprobe all
note "pass"
