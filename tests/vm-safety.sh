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
# - --output, which the runner writes in as root: a link to a victim directory
#   (also as DIR/ and DIR/.), a directory of nobody's with a link to the victim
#   in it, and a mode 777 one are refused at the start, before QEMU; a link
#   that nobody puts where the runner is to make --output, and a directory
#   that nobody swaps for a link, while the VM runs, are refused at the end;
#   nothing is written in the victim.
# - what the guest wrote: of a results directory holding a link, a device
#   node, a directory and files of other names (one with an escape sequence)
#   beside results.json and summary.txt, only those two come back, with the
#   console log and the figures, all regular files; the rest is named in one
#   line; the file behind a guest's stderr.txt link is never printed; a
#   results directory that is a link is refused.
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
# The other user of the shared machine.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test -x "$tmp" ||
	{ rm -rf "$tmp"; skip "user nobody cannot enter $tmp (TMPDIR below a directory only root may enter?)"; }
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

# guest NAME <BODY: the guest script $tmp/guest-NAME (bash; $1 the console, $2 the share).
guest() {
	{ echo 'set -eu'; cat; } >"$tmp/guest-$1"
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
guest sleep <<<'exec sleep 300'
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

note "--output: a link, another user's directory, one others may write in are refused"
# victim: a directory of root's that no one else may write in (/etc, say), with one file.
mkdir "$tmp/victim"
plant_victim "$tmp/victim/results.json"
# out_refused DIR PATTERN [LOADBENCH ARGS...]: --output DIR is refused in one line matching PATTERN.
out_refused() {
	vm sleep
	expect_error "^loadbench-vm: error: --output $2" "${vm_cmd[@]}" -- --probeset ftrace \
		--output "$1" "${@:3}"
}
ln -s victim "$tmp/out-link"
for d in "$tmp/out-link" "$tmp/out-link/" "$tmp/out-link/."; do
	out_refused "$d" "$d is a symbolic link: give the directory it points to \(results are written as root, never through a link\)$" --force
done
# A directory user nobody made in a sticky, world-writable directory (/tmp, say), and the link to
# the victim they put in it.
mkdir -m 1777 "$tmp/pub"
as_nobody mkdir "$tmp/pub/theirs"
as_nobody ln -s "$tmp/victim/results.json" "$tmp/pub/theirs/results.json"
out_refused "$tmp/pub/theirs" "$tmp/pub/theirs belongs to user nobody, who could put links in it for root to write through: give a directory that does not exist yet \(loadbench-vm makes it\)$" --force
mkdir -m 777 "$tmp/open-out"
out_refused "$tmp/open-out" "$tmp/open-out may be written by group or others \(mode 777\), who could put links in it for root to write through: chmod go-w $tmp/open-out, or give a directory that does not exist yet \(loadbench-vm makes it\)$"
assert_intact "$tmp/victim/results.json"
[[ $(ls -A "$tmp/victim") == results.json?results.json.orig ]] || fail "written into $tmp/victim: $(ls -A "$tmp/victim")"
[[ ! -e $tmp/qemu.pid ]] || fail "QEMU started for a refused --output"
scratch_clean

# A guest whose loadbench wrote results.json and summary.txt, and exited 0; then GUEST_MORE.
fixture=$top_srcdir/tests/fixtures/results.json
results_guest() {
	guest "$1" <<EOF
echo "LOADBENCH-VM: init" >>"\$1"
mkdir "\$2/results"
cp "$fixture" "\$2/results/results.json"
echo "summary from the guest" >"\$2/results/summary.txt"
echo "loadbench (guest) says hello" >"\$2/stderr.txt"
$(cat)
echo "LOADBENCH-EXIT: 0" >>"\$1"
EOF
}
# vm_run GUEST OUT: the runner, the stand-in playing GUEST, with --output OUT; its exit status in
# rc, its output in $tmp/GUEST.txt and on stdout (without depmod's notes on the fake kernel).
vm_run() {
	vm "$1"
	rc=0
	"${vm_cmd[@]}" -- --probeset ftrace --output "$2" >"$tmp/$1.txt" 2>&1 || rc=$?
	grep -v '^depmod: ' "$tmp/$1.txt" || true
}
# unwritten GUEST LINE: vm_run GUEST exited 1 with the error LINE, and wrote nothing in the victim.
unwritten() {
	[[ $rc -eq 1 ]] || fail "the runner exited $rc, not 1"
	grep -qxF "loadbench-vm: error: $2" "$tmp/$1.txt" || fail "no error line '$2'"
	[[ $(ls -A "$tmp/victim") == results.json?results.json.orig ]] ||
		fail "written into $tmp/victim: $(ls -A "$tmp/victim")"
	assert_intact "$tmp/victim/results.json"
	scratch_clean
}

note "--output: a link put where the runner is to make the directory, while the VM runs, is refused"
results_guest plant <<EOF
setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$tmp/victim" "$tmp/pub/fresh"
EOF
vm_run plant "$tmp/pub/fresh"
unwritten plant "cannot make --output $tmp/pub/fresh (did something appear there while the VM ran?): the results are not written"
note "ok: refused; nothing written through $tmp/pub/fresh -> $tmp/victim"

note "--output: a directory swapped for a link while the VM runs is refused"
# Root's directory, checked at the start, in a directory of nobody's, who swaps it for a link.
mkdir "$tmp/nob"
chown 65534:65534 "$tmp/nob"
mkdir "$tmp/nob/out"
results_guest swap <<EOF
setpriv --reuid=65534 --regid=65534 --clear-groups mv "$tmp/nob/out" "$tmp/nob/was-out"
setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$tmp/victim" "$tmp/nob/out"
EOF
vm_run swap "$tmp/nob/out"
unwritten swap "--output $tmp/nob/out was replaced while the VM ran (it is not the directory there before): the results are not written"
[[ -z $(ls -A "$tmp/nob/was-out") ]] || fail "written into the directory moved away: $(ls -A "$tmp/nob/was-out")"
note "ok: refused; nothing written through $tmp/nob/out -> $tmp/victim"

note "guest files: only regular files with loadbench's names come back; links, devices, others do not"
plant_victim "$tmp/secret"
results_guest hostile <<EOF
ln -s "$tmp/victim/results.json" "\$2/results/results.csv"
mknod "\$2/results/slices.csv" c 1 3
echo 'echo pwned' >"\$2/results/extra.sh"
mkdir "\$2/results/sub"
ln -s "$tmp/victim" "\$2/results/syscalls-per-op=0"
mkdir "\$2/results/flows=2"
ln -s "$tmp/victim/results.json" "\$2/results/flows=2/results.json"
echo 'flows=2 summary' >"\$2/results/flows=2/summary.txt"
printf x >"\$2/results/\$(printf 'evil\\033[2Jname')"
rm "\$2/stderr.txt"
ln -s "$tmp/secret" "\$2/stderr.txt"
EOF
vm_run hostile "$tmp/out"
[[ $rc -eq 0 ]] || fail "the runner exited $rc, not loadbench's 0"
grep -qx 'loadbench-vm: left out of the guest.s results (only regular files named results.json, results.csv, slices.csv, summary.txt, sweep.json, sweep.txt and --sweep.s KEY=V directories come back): .*' \
	"$tmp/hostile.txt" || fail "no line naming what was left out"
for left in "results.csv (symbolic link)" "slices.csv (character special file)" \
	"extra.sh (not a file loadbench writes)" "sub (not a file loadbench writes)" \
	"evil?[2Jname (not a file loadbench writes)" "syscalls-per-op=0 (symbolic link)" \
	"flows=2/results.json (symbolic link)"; do
	grep -qF "$left" "$tmp/hostile.txt" || fail "the left-out line does not name $left"
done
! grep -q "precious" "$tmp/hostile.txt" || fail "the runner printed the file behind the guest's stderr.txt link"
grep -qx 'summary from the guest' "$tmp/hostile.txt" || fail "the guest's summary was not printed"
[[ $(stat -c '%U %a' "$tmp/out") == "root 755" ]] || fail "$tmp/out is not root's, 755: $(stat -c '%U %a' "$tmp/out")"
# A sweep value's directory comes back as one (its regular files in it), a link as nothing.
[[ -d $tmp/out/flows=2 && ! -L $tmp/out/flows=2 && ! -e $tmp/out/syscalls-per-op=0 ]] ||
	fail "the sweep value's directory did not come back as a directory, or the link came back"
[[ $(cat "$tmp/out/flows=2/summary.txt") == "flows=2 summary" ]] ||
	fail "flows=2/summary.txt did not come back"
notreg=$(find "$tmp/out" -mindepth 1 ! -type f ! -path "$tmp/out/flows=2")
[[ -z $notreg ]] || fail "not regular files in the output: $notreg"
others=$(find "$tmp/out" -mindepth 1 -printf '%f\n' | grep -vxE 'results\.json|summary\.txt|flows=2|vm-console\.log|(slowdown|throughput|cost)\.(png|svg|pdf|gp|dat|caption\.txt|caption\.tex)' || true)
[[ -z $others ]] || fail "files in the output that are not loadbench's or the runner's: $others"
cmp -s "$fixture" "$tmp/out/results.json" || fail "results.json did not come back whole"
grep -q 'LOADBENCH-EXIT: 0' "$tmp/out/vm-console.log" || fail "no vm-console.log"
if have_gnuplot; then assert_figures "$tmp/out" slowdown throughput cost; fi
assert_intact "$tmp/victim/results.json" "$tmp/secret"
scratch_clean
note "ok: back came $(ls "$tmp/out" | tr '\n' ' ')"

note "guest files: a link for the results directory itself is refused"
mkdir "$tmp/elsewhere"
cp "$fixture" "$tmp/elsewhere/results.json"
guest results-link <<EOF
echo "LOADBENCH-VM: init" >>"\$1"
ln -s "$tmp/elsewhere" "\$2/results"
echo "LOADBENCH-EXIT: 0" >>"\$1"
EOF
vm_run results-link "$tmp/out-rl"
unwritten results-link "the guest's /share/results is a symbolic link, not a directory: nothing is copied back"
[[ ! -e $tmp/out-rl ]] || fail "the runner made $tmp/out-rl: $(ls -A "$tmp/out-rl")"

note "pass"
