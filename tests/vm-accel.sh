#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/loadbench-vm's accelerator decision, without a VM: --print-accel
# against a fake sysfs (LOADBENCH_VM_SYSFS) and a fake /dev/kvm
# (LOADBENCH_VM_KVM_DEV). No /dev/kvm, or one this user cannot write, is TCG;
# kvm_pvm without kvm_intel or kvm_amd is TCG, naming kvm_pvm; a vendor
# module, or none known, is KVM under the boot watchdog; --accel kvm|tcg
# overrides and says what auto would have done. Bad --accel and
# --boot-timeout values are refused. The unwritable case runs as user nobody
# when run as root (root can write any file).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

runner=$top_srcdir/scripts/loadbench-vm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# fake_host NAME MODULE...: a sysfs root $tmp/NAME/sys with those modules and a /dev/kvm.
fake_host() {
	local m
	mkdir -p "$tmp/$1/sys/module"
	for m in "${@:2}"; do mkdir -p "$tmp/$1/sys/module/$m"; done
	: >"$tmp/$1/kvm"
	chmod 644 "$tmp/$1/kvm"
}

# expect NAME WANT_MSG WANT_WORD [RUNNER ARGS...]: --print-accel on host NAME prints the
# decision line matching WANT_MSG and the guest's word matching WANT_WORD (extended regexes).
expect() {
	local name=$1 msg=$2 word=$3 out
	shift 3
	out=$(LOADBENCH_VM_SYSFS=$tmp/$name/sys LOADBENCH_VM_KVM_DEV=$tmp/$name/kvm \
		"$runner" "$@" --print-accel) || fail "$name $*: --print-accel exited $?"
	[[ $(wc -l <<<"$out") -eq 2 ]] || fail "$name $*: expected two lines, got:"$'\n'"$out"
	[[ $(head -n 1 <<<"$out") =~ $msg ]] ||
		fail "$name $*: decision '$(head -n 1 <<<"$out")' does not match /$msg/"
	[[ $(tail -n 1 <<<"$out") =~ $word ]] ||
		fail "$name $*: guest word '$(tail -n 1 <<<"$out")' does not match /$word/"
	note "ok $name $*: $(head -n 1 <<<"$out")"
}

fake_host pvm kvm_pvm kvm
fake_host pvm-intel kvm_pvm kvm_intel kvm
fake_host amd kvm_amd kvm
fake_host unknown kvm
fake_host nodev kvm_intel kvm
rm "$tmp/nodev/kvm"

note "auto"
expect pvm '^.*/kvm is kvm_pvm, which runs only PVM-built guest kernels: using TCG$' \
	'^tcg: .*/kvm is kvm_pvm \(runs only PVM-built guest kernels\)$'
expect pvm-intel '/kvm is kvm_intel: using KVM \(TCG if the guest.s init has not started within 60 s\)$' \
	'^kvm: .*/kvm is kvm_intel$'
expect amd '/kvm is kvm_amd: using KVM' '^kvm: .*/kvm is kvm_amd$'
expect unknown 'is writable \(no kvm_intel, kvm_amd or kvm_pvm in .*\): using KVM \(TCG if' \
	'^kvm: .*/kvm is writable'
expect nodev '^no .*/kvm: using TCG$' '^tcg: no .*/kvm$'
expect amd 'within 7 s\)$' '^kvm: ' --boot-timeout 7

note "--accel overrides"
expect pvm '^--accel kvm: using KVM \(TCG if .* 60 s; auto would use TCG: .* is kvm_pvm' \
	'^kvm: --accel kvm$' --accel kvm
expect amd '^--accel tcg: using TCG \(auto would use KVM: .* is kvm_amd\)$' '^tcg: --accel tcg$' \
	--accel=tcg
expect pvm-intel '/kvm is kvm_intel: using KVM' '^kvm: ' --accel auto

note "unwritable /dev/kvm"
if [[ $(id -u) -ne 0 ]]; then
	chmod 444 "$tmp/amd/kvm"
	expect amd "/kvm is not writable by uid $(id -u): using TCG$" '^tcg: .* is not writable'
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -x "$runner" -a -r "$tmp/amd/kvm" 2>/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env \
		LOADBENCH_VM_SYSFS="$tmp/amd/sys" LOADBENCH_VM_KVM_DEV="$tmp/amd/kvm" \
		"$runner" --print-accel) || fail "--print-accel as nobody exited $?"
	[[ $out == *"/kvm is not writable by uid 65534: using TCG"$'\n'"tcg: "*"/kvm is not writable by uid 65534" ]] ||
		fail "an unwritable /dev/kvm as nobody: $out"
	note "ok as nobody: $(head -n 1 <<<"$out")"
else
	note "unwritable case not run: root writes any file, and user nobody cannot run $runner"
fi

note "refused options"
expect_error "--accel must be auto, kvm or tcg, not 'qemu'" "$runner" --accel qemu --print-accel
expect_error "--boot-timeout must be a whole number of seconds above 0, not '1.5'" \
	"$runner" --boot-timeout 1.5 --print-accel
expect_error "--boot-timeout must be a whole number of seconds above 0, not '0'" \
	"$runner" --boot-timeout 0 --print-accel
note "pass"
