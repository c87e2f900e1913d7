#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/loadbench-vm as root on a shared machine, without a VM: each attack
# is made and the test passes because the runner refuses it. A stand-in for
# QEMU (LOADBENCH_VM_QEMU) boots a fake kernel (--kernel, its 9p modules
# "built in") and plays the guest.
# - QEMU ends with the runner: the runner SIGKILLed, the stand-in is gone
#   within 2 s; --timeout still kills it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

require_root
runner=$top_srcdir/scripts/loadbench-vm
[[ -x $LOADBENCH ]] || skip "$LOADBENCH is not built"
for p in busybox-static cpio kmod util-linux; do
	[[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) == "install ok installed" ]] ||
		skip "needs the Debian package $p (the runner would install it)"
done

tmp=$(mktemp -d)
chmod 755 "$tmp"
qemu_pids=()
# The stand-ins this test started (through the runner) and that still run: only those, by pid.
end_test() {
	local p
	for p in "${qemu_pids[@]}"; do
		if [[ $(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline") == "sleep 300 "* ]]; then
			kill -KILL "$p" 2>/dev/null || true
		fi
	done
	rm -rf "$tmp"
}
trap end_test EXIT

# A kernel for --kernel: an empty image and a modules directory in which virtio_pci, 9pnet_virtio
# and 9p are built in (modprobe --show-depends says "builtin": nothing to insmod).
kver=9.9.9-lbtest
mkdir -p "$tmp/kernel/boot" "$tmp/kernel/lib/modules/$kver"
: >"$tmp/kernel/boot/vmlinuz-$kver"
printf '%s\n' kernel/drivers/virtio/virtio_pci.ko kernel/net/9p/9pnet_virtio.ko kernel/fs/9p/9p.ko \
	>"$tmp/kernel/lib/modules/$kver/modules.builtin"
: >"$tmp/kernel/lib/modules/$kver/modules.order"
: >"$tmp/kernel/lib/modules/$kver/modules.builtin.modinfo"
depmod -b "$tmp/kernel" "$kver" 2>/dev/null || skip "depmod cannot index a modules directory"

# The stand-in for QEMU: finds the console file and the 9p share in QEMU's arguments, writes its
# pid to $tmp/qemu.pid and runs the guest script $FAKE_GUEST (CONSOLE SHARE as $1 $2) in its place.
mkdir -p "$tmp/bin" "$tmp/scratch"
cat >"$tmp/bin/fake-qemu" <<'EOF'
#!/usr/bin/env bash
set -eu
console="" share=""
while (($#)); do
	case $1 in
	-serial) console=${2#file:}; shift ;;
	-virtfs) share=${2#local,path=}; share=${share%%,*}; shift ;;
	esac
	shift
done
echo $$ >"$FAKE_QEMU_PIDFILE"
exec bash "$FAKE_GUEST" "$console" "$share"
EOF
chmod 755 "$tmp/bin/fake-qemu"

# guest NAME BODY: the guest script $tmp/guest-NAME (bash; $1 the console, $2 the share).
guest() {
	printf '%s\n' 'set -eu' "$2" >"$tmp/guest-$1"
}

# The runner's environment: its scratch directory in $tmp/scratch, the stand-in for QEMU, TCG (no
# /dev/kvm).
lbvm=(env TMPDIR="$tmp/scratch" LOADBENCH_BUILDDIR="$top_builddir" LOADBENCH_VM_QEMU="$tmp/bin/fake-qemu"
	LOADBENCH_VM_KVM_DEV="$tmp/no-kvm" FAKE_QEMU_PIDFILE="$tmp/qemu.pid")

# vm GUEST: sets vm_cmd to the runner booting the fake kernel, the stand-in for QEMU playing
# GUEST, no LTTng; env execs the runner, so that "${vm_cmd[@]}" ... & has the runner's pid in $!.
vm() {
	rm -f "$tmp/qemu.pid"
	vm_cmd=("${lbvm[@]}" FAKE_GUEST="$tmp/guest-$1" "$runner" --kernel "$tmp/kernel/boot/vmlinuz-$kver"
		--no-lttng)
}

# gone PID: true when process PID has ended (a zombie not yet reaped by init counts as ended).
gone() {
	local state
	state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 0
	[[ $state == Z ]]
}

# scratch_clean: the runner removed its scratch directory.
scratch_clean() {
	[[ -z $(ls -A "$tmp/scratch") ]] || fail "the runner left its scratch directory: $(ls -A "$tmp/scratch")"
}

note "QEMU ends when the runner is killed with SIGKILL"
guest sleep 'exec sleep 300'
vm sleep
"${vm_cmd[@]}" -- --probeset ftrace --output "$tmp/out-kill" >"$tmp/kill.txt" 2>&1 &
runner_pid=$!
for ((i = 0; i < 600; i++)); do
	[[ -s $tmp/qemu.pid ]] && break
	kill -0 "$runner_pid" 2>/dev/null || { cat "$tmp/kill.txt"; fail "the runner ended before QEMU started"; }
	sleep 0.1
done
[[ -s $tmp/qemu.pid ]] || { cat "$tmp/kill.txt"; fail "QEMU did not start within 60 s"; }
qpid=$(cat "$tmp/qemu.pid")
qemu_pids+=("$qpid")
sleep 0.5
! gone "$qpid" || fail "the stand-in for QEMU ended by itself"
{ kill -KILL "$runner_pid" && wait "$runner_pid" || true; } 2>/dev/null
for ((i = 0; i < 20; i++)); do
	gone "$qpid" && break
	sleep 0.1
done
gone "$qpid" || fail "QEMU (pid $qpid) still runs 2 s after its runner was SIGKILLed"
note "ok: QEMU (pid $qpid) ended within $((i * 100)) ms of the runner's SIGKILL"
rm -rf "${tmp:?}/scratch/"*

note "--timeout still ends QEMU"
start=$(date +%s)
rc=0
vm sleep
"${vm_cmd[@]}" --timeout 2 -- --probeset ftrace --output "$tmp/out-timeout" >"$tmp/timeout.txt" 2>&1 ||
	rc=$?
qemu_pids+=("$(cat "$tmp/qemu.pid")")
cat "$tmp/timeout.txt"
[[ $rc -eq 1 ]] || fail "the runner exited $rc after its --timeout, not 1"
grep -q 'error: the VM did not finish within 2 s (killed' "$tmp/timeout.txt" ||
	fail "no timeout error line"
gone "$(cat "$tmp/qemu.pid")" || fail "QEMU still runs after the runner's timeout"
[[ -f $tmp/out-timeout/vm-console.log ]] || fail "no vm-console.log after the timeout"
scratch_clean
note "ok: the runner killed QEMU after its timeout ($(($(date +%s) - start)) s in all)"

note "pass"
