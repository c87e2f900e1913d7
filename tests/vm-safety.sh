#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/loadbench-vm as root on a shared machine, without a VM: each attack
# is made and the test passes because the runner refuses it. A stand-in for
# QEMU (LOADBENCH_VM_QEMU) boots a fake kernel (--kernel, its 9p modules
# "built in") and plays the guest.
# - QEMU ends with the runner: the runner SIGKILLed, the stand-in is gone
#   within 2 s; --timeout still kills it.
# - --cache, which the runner empties as root: /, a link to /, a directory
#   without .loadbench-vm-cache, and marked ones that another user owns, can
#   write, or owns a directory above, are refused in one line before apt-get
#   runs, and what the runner would have removed there is intact; an absent
#   one is made (root, 755, marked) and then used, its other files left alone.
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
# /dev/kvm), and stand-ins for apt-cache and apt-get first in PATH: they know of one kernel
# package, linux-image-$kver, and download nothing (apt-get.log says what was asked), so that a
# runner that did not refuse a cache would go on to empty it, as it used to.
lbvm=(env TMPDIR="$tmp/scratch" LOADBENCH_BUILDDIR="$top_builddir" LOADBENCH_VM_QEMU="$tmp/bin/fake-qemu"
	LOADBENCH_VM_KVM_DEV="$tmp/no-kvm" FAKE_QEMU_PIDFILE="$tmp/qemu.pid" PATH="$tmp/apt:$PATH")
mkdir -p "$tmp/apt"
printf '%s\n' '#!/bin/sh' '[ "$1 $2" = "depends linux-image-amd64" ] || exit 0' \
	"printf '%s\\n' linux-image-amd64 '  Depends: linux-image-$kver'" >"$tmp/apt/apt-cache"
printf '%s\n' '#!/bin/sh' "echo \"apt-get \$*\" >>'$tmp/apt-get.log'" \
	'echo "E: the apt-get stand-in downloads nothing" >&2' 'exit 100' >"$tmp/apt/apt-get"
chmod 755 "$tmp/apt/apt-cache" "$tmp/apt/apt-get"

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

note "--cache: / and directories loadbench-vm did not make are refused before anything is removed"
# cache_victim DIR: in DIR what the runner empties in a cache without .extracted: root/ and the
# kernel's .deb, each with a file planted by plant_victim.
cache_victim() {
	mkdir -p "$1/root"
	plant_victim "$1/root/canary"
	plant_victim "$1/linux-image-${kver}_1_amd64.deb"
}
# refused DIR PATTERN [ENV...]: --cache DIR is refused with one error line matching PATTERN.
refused() {
	expect_error "^loadbench-vm: error: --cache $2" "${lbvm[@]}" "${@:3}" "$runner" --no-lttng \
		--cache "$1" -- --probeset ftrace --output "$tmp/out-cache"
}
# For / itself, apt stand-ins that know no kernel: a runner that did not refuse / would stop at
# apt-get update, never get to rm -rf /root.
mkdir -p "$tmp/apt-none"
printf '%s\n' '#!/bin/sh' 'exit 0' >"$tmp/apt-none/apt-cache"
printf '%s\n' '#!/bin/sh' 'exit 100' >"$tmp/apt-none/apt-get"
chmod 755 "$tmp/apt-none/apt-cache" "$tmp/apt-none/apt-get"
no_kernel=(PATH="$tmp/apt-none:$PATH")
rm -f "$tmp/apt-get.log"
refused / "/ is /: loadbench-vm empties and refills its cache as root, so it must be a directory of its own: give one that does not exist yet \(loadbench-vm makes it\)$" "${no_kernel[@]}"
ln -s / "$tmp/to-root"
refused "$tmp/to-root/" "$tmp/to-root/ is /: " "${no_kernel[@]}"
mkdir "$tmp/unmarked"
cache_victim "$tmp/unmarked"
refused "$tmp/unmarked" "$tmp/unmarked has no .loadbench-vm-cache, so loadbench-vm did not make it and will not empty anything in it: give a directory that does not exist yet \(loadbench-vm makes and marks it\)$"
# Marked, but another user can change it, or a directory above it.
mkdir -p "$tmp/open" "$tmp/theirs" "$tmp/under-theirs/cache"
for d in open theirs under-theirs/cache; do
	: >"$tmp/$d/.loadbench-vm-cache"
	cache_victim "$tmp/$d"
done
chmod 777 "$tmp/open"
chown 65534:65534 "$tmp/theirs" "$tmp/under-theirs"
refused "$tmp/open" "$tmp/open: $tmp/open may be written by group or others \(mode 777\), so another user could change what loadbench-vm empties as root: chown root and chmod go-w it, or give a new cache \(loadbench-vm makes it\)$"
refused "$tmp/theirs" "$tmp/theirs: $tmp/theirs belongs to user nobody, so "
refused "$tmp/under-theirs/cache" "$tmp/under-theirs/cache: $tmp/under-theirs belongs to user nobody, so "
for d in unmarked open theirs under-theirs/cache; do
	assert_intact "$tmp/$d/root/canary" "$tmp/$d/linux-image-${kver}_1_amd64.deb"
done
[[ ! -e $tmp/apt-get.log ]] || fail "the runner ran apt-get before refusing a cache: $(cat "$tmp/apt-get.log")"
scratch_clean

note "--cache: an absent directory is made and marked; a marked one is used"
# cache_run: the runner with --cache $tmp/new/cache, which gets as far as apt-get download.
cache_run() {
	"${lbvm[@]}" "$runner" --no-lttng --cache "$tmp/new/cache" -- --probeset ftrace >"$tmp/new.txt" 2>&1 &&
		fail "the runner succeeded with the apt-get stand-in"
	grep -q "error: apt-get download linux-image-$kver failed" "$tmp/new.txt" ||
		fail "the runner did not get to the download into its cache: $(cat "$tmp/new.txt")"
	grep -q "^apt-get .*download linux-image-$kver$" "$tmp/apt-get.log" || fail "no apt-get download"
	rm "$tmp/apt-get.log"
}
cache_run
[[ -f $tmp/new/cache/.loadbench-vm-cache && $(stat -c '%U %a' "$tmp/new/cache") == "root 755" ]] ||
	fail "the new cache is not root's, mode 755 and marked: $(ls -la "$tmp/new/cache")"
[[ -z $(find "$tmp/new" -name '.loadbench-vm-cache.*') ]] || fail "a cache in the making was left behind"
plant_victim "$tmp/new/cache/notes.txt"
cache_run
assert_intact "$tmp/new/cache/notes.txt"
scratch_clean
note "ok: made $tmp/new/cache (root, 755, marked), used it again, left its other files alone"

note "pass"
