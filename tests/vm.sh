#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-vm: boots Debian's kernel under QEMU with scripts/loadbench-vm
# and runs short measurements there of the probe sets this machine's kernel
# cannot run: ftrace+kprobe, ftrace+kretprobe, lttng, lttng+kprobe and
# bpf+kprobe (kprobes, LTTng's modules). Each of the five whose probe-set file
# is in this tree is measured; a missing one is reported loudly (and fails
# the test with CHECK_VM_REQUIRE_ALL=1); so is `all' (every ftrace mechanism at
# once, kprobes included) when it is there. Asserts, with tests/check-results,
# that every measured probe set recorded events and has a slowdown figure;
# that the lttng command recorded a kprobe and a kretprobe in the guest
# (--lttng-check), and that a SIGKILLed lttng+kprobe and ftrace+kprobe run's
# watchdog removed its session, trace directory, instance and kprobes (the
# guest's kill-check lines); that the VM brought its results back, the guest loaded
# the LTTng modules, stopped lttng-sessiond, left nothing loadbench_* in its
# kernel and powered off cleanly; that the runner stated its accelerator
# decision, the guest got it and results.json's host records it
# (vm_accelerator; TCG naming kvm_pvm on a kvm_pvm host); and that nothing is
# left on the host.
# Not part of make check: its first run downloads and builds the kernel and
# lttng-modules (several minutes), cached in /var/cache/loadbench-vm, outside
# the clone. A second boot measures the SystemTap sets (modules built on the
# host, cached there too) beside the ftrace sets that record the same
# tracepoints: their events per operation must match.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
command -v apt-get >/dev/null || skip "needs apt-get (a Debian system) to fetch the kernel"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# (lttng+kprobe-int3 is refused: liblttng-ctl cannot send a kprobe's offset; see its file.)
wanted=(ftrace+kprobe ftrace+kprobe-int3 ftrace+kretprobe lttng lttng+kprobe bpf+kprobe
	bpf+kprobe-int3 lttng-syscalls-pid)
optional=(all)
sets=()
missing=()
for s in "${wanted[@]}" "${optional[@]}"; do
	if [[ -f $top_srcdir/probesets/$s.probeset ]]; then
		sets+=("$s")
	elif [[ " ${wanted[*]} " == *" $s "* ]]; then
		missing+=("$s")
	fi
done
for s in "${missing[@]}"; do
	echo "WARNING: probe set $s is missing (no probesets/$s.probeset in this tree): NOT MEASURED"
done
if ((${#missing[@]})) && [[ -n ${CHECK_VM_REQUIRE_ALL-} ]]; then
	fail "CHECK_VM_REQUIRE_ALL is set and ${missing[*]} missing"
fi
((${#sets[@]})) || fail "none of ${wanted[*]} is in probesets/"
list=$(IFS=,; echo "${sets[*]}")

note "loadbench-vm --lttng-check: $list under the current Debian kernel"
# The runner's scratch directory goes below $tmp/t, to see that it removed it. The default
# method, alternating, every set in the VM: under TCG a switch takes about a second (each text
# patch makes QEMU retranslate), so short: 0.3 s slices, 30 s per group (at least 2 units
# used; the ftrace group, 8 switches of ~2.5 s a unit, needs room for a third when TCG
# holds up a slice and it is dropped: up to 3 x 30 s).
mkdir "$tmp/t"
start=$(date +%s)
rc=0
TMPDIR=$tmp/t LOADBENCH_BUILDDIR=$top_builddir "$top_srcdir/scripts/loadbench-vm" --lttng-check -- \
	--probeset "$list" --warmup 1 --slice 0.3 --settle 0.1 --max-time 30 \
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
grep -E 'LOADBENCH-VM: [0-9]+ LTTng modules loaded' "$console" ||
	fail "the guest loaded no LTTng modules"
grep -q 'LOADBENCH-VM: lttng-sessiond stopped' "$console" ||
	fail "the guest did not report lttng-sessiond started and stopped"
for ev in lbvm_kprobe_udp_sendmsg lbvm_func_udp_sendmsg_entry lbvm_func_udp_sendmsg_exit; do
	n=$(awk -v ev="$ev" '$2 == "lttng-check:" && $3 == ev { print $4 }' "$console" | tr -d '\r')
	[[ $n =~ ^[0-9]+$ ]] && ((n > 0)) || fail "the lttng command recorded no $ev event in the guest"
done
# A run SIGKILLed once armed: its watchdog removes its LTTng session, trace directory,
# instance, kprobes and run lock (the guest's kill_check in scripts/loadbench-vm).
kills=("lttng+kprobe" "ftrace+kprobe")
# A breakpoint-kprobe run holds kprobes-optimization off: given back by its watchdog, and by
# loadbench cleanup when the watchdog was SIGKILLed too.
if [[ " ${sets[*]} " == *" ftrace+kprobe-int3 "* ]]; then
	kills+=("ftrace+kprobe-int3" "ftrace+kprobe-int3 all")
fi
for s in "${kills[@]}"; do
	line=$(grep -a -F "LOADBENCH-VM: kill-check: $s " "$console" | tr -d '\r' | grep -v -F "$s all" |
		head -n 1)
	[[ $s != *" all" ]] || line=$(grep -a -F "LOADBENCH-VM: kill-check: $s " "$console" |
		tr -d '\r' | head -n 1)
	[[ $line == *" ok: "* ]] || fail "kill-check of $s: ${line:-no line}"
	note "${line#*LOADBENCH-VM: }"
done
# And loadbench's own run gave it back.
line=$(grep -a "LOADBENCH-VM: note: kprobes-optimization " "$console" | tr -d '\r' | head -n 1)
[[ $line =~ kprobes-optimization\ ([0-9a-z]+)\ before.*,\ ([0-9a-z]+)\ after ]] ||
	fail "the guest did not report kprobes-optimization before and after: ${line:-no line}"
[[ ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] ||
	fail "loadbench's run left kprobes-optimization at ${BASH_REMATCH[2]} (${BASH_REMATCH[1]} before)"
note "${line#*LOADBENCH-VM: note: }"
# An LTTng trace in a 16 MiB tmpfs stays within its bound, and the run says it reached it.
line=$(grep -a "LOADBENCH-VM: bound-check: " "$console" | tr -d '\r' | head -n 1)
[[ $line == *"bound-check: ok: "* ]] || fail "bound-check: ${line:-no line}"
note "${line#*LOADBENCH-VM: }"
grep -q '"virtualization": *"qemu-' "$tmp/results/results.json" ||
	fail "results.json does not record the QEMU virtualization"

# The accelerator: decided before booting and said in one line, passed into the guest
# and recorded in results.json's host (and the summary), consistent with the guest's CPUID.
decision=$(grep -E '^loadbench-vm: .*: using (KVM|TCG)( \(.*\))?$' "$tmp/err.txt" | head -n 1 || true)
[[ -n $decision ]] || fail "the runner's output does not state the accelerator decision"
note "decision: $decision"
vm_accel=$(sed -n 's/^ *"vm_accelerator": *"\(.*\)",\{0,1\}$/\1/p' "$tmp/results/results.json")
[[ $vm_accel =~ ^(kvm|tcg):\ . ]] ||
	fail "results.json's host has no vm_accelerator \"kvm|tcg: why\" (found '$vm_accel')"
note "host.vm_accelerator: $vm_accel"
grep -a -m1 'LOADBENCH-VM: ' "$console" | grep -q 'LOADBENCH-VM: init' ||
	fail "the guest's /init did not print LOADBENCH-VM: init first"
grep -a -q -F "LOADBENCH-VM: accelerator: $vm_accel" "$console" ||
	fail "the guest console does not show the accelerator it was given"
grep -q -F "VM accelerator $vm_accel" "$tmp/results/summary.txt" ||
	fail "the summary's host line does not show the VM accelerator"
if [[ $vm_accel == tcg:* ]]; then
	grep -q '"virtualization": *"qemu-tcg"' "$tmp/results/results.json" ||
		fail "vm_accelerator says TCG but the guest's CPUID does not"
fi
# Machines of this kind differ: no /dev/kvm at all (with or without kvm_pvm loaded), or a
# /dev/kvm that is kvm_pvm's. The runner looks at /dev/kvm first.
if [[ ! -e /dev/kvm ]]; then
	[[ $decision == *"no /dev/kvm"*"using TCG" ]] ||
		fail "without /dev/kvm the decision does not say so and TCG: $decision"
	[[ $vm_accel == tcg:* ]] || fail "without /dev/kvm vm_accelerator is '$vm_accel'"
	note "no /dev/kvm: TCG, and the reason says so"
elif [[ -e /sys/module/kvm_pvm && ! -e /sys/module/kvm_intel && ! -e /sys/module/kvm_amd ]]; then
	# This host's KVM runs only PVM-built guests: TCG from the start, no KVM boot tried.
	[[ $decision == *kvm_pvm*"using TCG" ]] ||
		fail "on a kvm_pvm host the decision does not name kvm_pvm and TCG: $decision"
	[[ $vm_accel == tcg:*kvm_pvm* ]] || fail "on a kvm_pvm host vm_accelerator is '$vm_accel'"
	if grep -q 'under QEMU (kvm)' "$tmp/err.txt"; then
		fail "on a kvm_pvm host the runner booted under KVM first"
	fi
	note "kvm_pvm host: TCG, and the reason names kvm_pvm"
fi
if grep -q '"virtualization": *"qemu-tcg"' "$tmp/results/results.json"; then
	grep -q 'timings under qemu-tcg are emulated' "$tmp/out.txt" "$tmp/results/summary.txt" ||
		fail "a TCG run's output does not say that timings are emulated"
fi

# Nothing left on the host: the runner's scratch directory and its QEMU.
left=$(ls -A "$tmp/t")
[[ -z $left ]] || fail "scripts/loadbench-vm left $left in its TMPDIR"
if pgrep -f "qemu-system-x86_64.*$tmp/t" >/dev/null; then
	fail "QEMU still runs: $(pgrep -af "qemu-system-x86_64.*$tmp/t")"
fi

# check-results: events > 0, a slowdown figure inside its CI, JSON keys, CSV
# rows. Under TCG the sign of a slowdown is not a robust fact: with every
# instruction emulated on one host thread, the baseline's spread reached a
# CV of 32% in a CI run (after each kprobe arm and disarm the emulator
# retranslates the patched code), and bpf+kprobe came out at -9% [-29, 33].
# There the slowdown must exist and be finite, and the probes must be seen to
# fire instead: a kprobe per traced event site adds events per operation.
any=()
if grep -q '"virtualization": *"qemu-tcg"' "$tmp/results/results.json"; then
	any=(--any-slowdown)
fi
# The kprobe sets' compare-with lines bring along ftrace and bpf, which were not named.
added=()
for s in ftrace bpf; do
	if [[ " ${sets[*]} " == *" $s+kprobe "* ]]; then
		added+=("$s")
	fi
done
# Every kprobe's mechanism is read from the kernel's kprobes/list; Debian's 6.1 has
# CONFIG_KPROBES_ON_FTRACE, so a kprobe on a function's entry is ftrace-based, and the
# -int3 sets' kprobes, past the entry with optimization off, must be breakpoints.
specs=()
for s in "${sets[@]}"; do
	case $s in
	*+kprobe-int3) specs+=("$s=breakpoint") ;;
	*+kprobe) specs+=("$s=ftrace") ;;
	*) specs+=("$s") ;;
	esac
done
"$top_builddir/tests/check-results" "${any[@]}" "$tmp/results" "${specs[@]}" "${added[@]}" |
	tee "$tmp/check.txt"
for s in "${added[@]}"; do
	grep -q "\"added_for\": \"$s+kprobe\"" "$tmp/results/results.json" ||
		fail "results.json does not say that $s was added for $s+kprobe"
done
more_events() { # more_events A B [CHECK]: probe set A records clearly more events/op than B
	local a b
	a=$(per_op "$1" "${3:-$tmp/check.txt}") b=$(per_op "$2" "${3:-$tmp/check.txt}")
	[[ -n $a && -n $b ]] || return 0 # one of them was not measured (reported above)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > b * 1.3) }' ||
		fail "$1 ($a events/op) does not record clearly more than $2 ($b): do its kprobes fire?"
	note "$1 $a events/op > $2 $b"
}
more_events lttng+kprobe lttng
more_events all ftrace+kprobe
more_events ftrace+kprobe ftrace
more_events bpf+kprobe bpf
# lttng-syscalls-pid: the PID tracker starts empty and attach adds the workload's
# processes, which make 8 syscalls per round trip (udp-rr, 4 extra): 16 entry and
# exit events per op, a count, not a timing. An empty tracker would record none.
pid_per_op=$(per_op lttng-syscalls-pid "$tmp/check.txt")
if [[ -n $pid_per_op ]]; then
	awk -v a="$pid_per_op" 'BEGIN { exit !(a >= 15.5 && a <= 16.5) }' ||
		fail "lttng-syscalls-pid records $pid_per_op events/op; the workload makes 16"
	note "lttng-syscalls-pid: $pid_per_op events/op (the workload's 16)"
fi
# The guest leaves debugfs unmounted: the mechanisms were read through loadbench's private
# mount (and the guest checked that its mounts did not change: a warning fails above).
for s in "${sets[@]}"; do
	[[ $s == *+kprobe* ]] || continue
	grep -q -E '"source": *"debugfs, private mount"' "$tmp/results/results.json" ||
		fail "results.json does not say the kprobes' mechanisms were read through a private debugfs mount"
	break
done
# The verdict: one line per kprobe set, with the paired CI of what the kprobes add, the base's
# slowdown and CI, the ratio (with its CI, or why not), the mechanism and the 2006 figure.
for s in "${sets[@]}"; do
	[[ $s == *+kprobe || $s == *+kprobe-int3 ]] || continue
	base=${s%%+*}
	line=$(grep -E "^$(printf '%s' "$s" | sed 's/+/\\+/g'): a kprobe per traced event \(11 kprobes: 11 (ftrace-based|breakpoint)[^;]*; \+[0-9.]+ events/op\) slows $base by a further -?[0-9.]+% \[-?[0-9.]+, -?[0-9.]+\], on top of $base's -?[0-9.]+% \[-?[0-9.]+, -?[0-9.]+\]: .*the tracer's impact .*2006: LTTng 35% -> 73%.*$" \
		"$tmp/out.txt") || fail "no verdict line for $s in the summary"
	note "verdict: $line"
	grep -q -F "$line" <(cd "$tmp" && "$top_builddir/src/loadbench" report --format lines "$tmp/results") ||
		fail "loadbench report --format lines does not give $s's verdict line"
done
# The 2006 comparison line: lttng+kprobe beside the set it builds on.
grep -E '^lttng\+kprobe vs lttng \(the set it builds on\): .* events/op; each of the [0-9.]+ extra events/op costs -?[0-9.]+ ns \[-?[0-9.]+, (-?[0-9.]+|unbounded)\]$' \
	"$tmp/out.txt" || fail "the summary has no 'lttng+kprobe vs lttng' line"

# SystemTap: the catalog's systemtap sets, their modules built on the host by the runner
# (loadbench stap-build), beside the ftrace sets that record the same tracepoints. Under
# --method runs: SystemTap 4.8 cannot switch a tracepoint probe off. stap+kprobe's
# kprobe.function probes need the kernel's symbols to build, and Debian's System.map is a stub:
# the runner reads them from the guest once (a first boot, then cached).
stap_sets=()
for s in stap stap+kprobe stap-syscalls stap-syscalls-pid; do
	if [[ -f $top_srcdir/probesets/$s.probeset ]]; then
		stap_sets+=("$s")
	elif [[ -n ${CHECK_VM_REQUIRE_ALL-} ]]; then
		fail "CHECK_VM_REQUIRE_ALL is set and probe set $s is missing"
	fi
done
if ((${#stap_sets[@]})); then
	stap_list=$(IFS=,; echo "${stap_sets[*]}")
	note "loadbench-vm: $stap_list beside ftrace, ftrace+kprobe, syscalls and syscalls-pid (--method runs)"
	rc=0
	start=$(date +%s)
	TMPDIR=$tmp/t LOADBENCH_BUILDDIR=$top_builddir "$top_srcdir/scripts/loadbench-vm" --no-lttng -- \
		--probeset "$stap_list,ftrace,ftrace+kprobe,syscalls,syscalls-pid" --method runs --duration 2 \
		--warmup 0.5 --repeat 3 --output "$tmp/stap" >"$tmp/stap.txt" 2>"$tmp/stap.err" || rc=$?
	cat "$tmp/stap.err" "$tmp/stap.txt"
	note "loadbench-vm (SystemTap) took $(($(date +%s) - start)) s"
	[[ $rc -eq 0 ]] || fail "scripts/loadbench-vm (SystemTap) exited $rc"
	console=$tmp/stap/vm-console.log
	if grep -E 'LOADBENCH-VM: (cannot|warning)|Kernel panic|BUG:|Oops' "$console"; then
		fail "the guest console shows an error or something left behind (SystemTap run)"
	fi
	"$top_builddir/tests/check-results" --any-slowdown "$tmp/stap" "${stap_sets[@]}" ftrace \
		ftrace+kprobe syscalls syscalls-pid | tee "$tmp/check-stap.txt"
	# same_events A B: A counts what B records, the same tracepoints (within 10%: system-wide
	# events other tasks make, and runs that differ).
	same_events() {
		local a b
		a=$(per_op "$1" "$tmp/check-stap.txt") b=$(per_op "$2" "$tmp/check-stap.txt")
		[[ -n $a && -n $b ]] || fail "no events/op for $1 or $2"
		awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && a >= b * 0.9 && a <= b * 1.1) }' ||
			fail "$1 counts $a events/op where $2 records $b: not the same tracepoints?"
		note "$1 $a events/op, $2 $b"
	}
	[[ " ${stap_sets[*]} " != *" stap "* ]] || same_events stap ftrace
	[[ " ${stap_sets[*]} " != *" stap-syscalls "* ]] || same_events stap-syscalls syscalls
	if [[ " ${stap_sets[*]} " == *" stap+kprobe "* ]]; then
		# Its 11 kprobes fire as ftrace+kprobe's do, and its verdict line says what they add.
		same_events stap+kprobe ftrace+kprobe
		more_events stap+kprobe stap "$tmp/check-stap.txt"
		line=$(grep -E '^stap\+kprobe: a kprobe per traced event \(11 kprobes[^;]*; \+[0-9.]+ events/op\) slows stap by a further -?[0-9.]+% \[-?[0-9.]+, -?[0-9.]+\], on top of stap.s -?[0-9.]+% \[-?[0-9.]+, -?[0-9.]+\]: .*$' \
			"$tmp/stap.txt") || fail "no verdict line for stap+kprobe in the summary"
		note "verdict: $line"
	fi
	# The pid map: the workload's 8 syscalls per round trip, 16 events, a count.
	if [[ " ${stap_sets[*]} " == *" stap-syscalls-pid "* ]]; then
		e=$(per_op stap-syscalls-pid "$tmp/check-stap.txt")
		awk -v a="$e" 'BEGIN { exit !(a >= 15.5 && a <= 16.5) }' ||
			fail "stap-syscalls-pid counts $e events/op; the workload makes 16"
		note "stap-syscalls-pid: $e events/op (the workload's 16)"
	fi
	left=$(ls -A "$tmp/t")
	[[ -z $left ]] || fail "scripts/loadbench-vm left $left in its TMPDIR (SystemTap run)"
fi

if ((${#missing[@]})); then
	note "pass for ${sets[*]}; WARNING: ${missing[*]} missing, not measured"
else
	note "pass"
fi
