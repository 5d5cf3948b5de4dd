#!/usr/bin/env bash
# run-in-vm.sh: run one command as root inside a QEMU (TCG, no KVM needed) guest booted from a Debian
# distribution kernel, with this machine's root filesystem as the guest's root (shared read-only over
# 9p; VM_OVERLAY=1 puts a throw-away tmpfs overlay on top), the way virtme-ng does.
#
#   run-in-vm.sh [COMMAND [ARG...]]     one argument: a bash command line; several: argv, run as is
#
# The guest has /proc, /sys, /sys/kernel/btf/vmlinux, tracefs (/sys/kernel/tracing), debugfs, bpffs
# (/sys/fs/bpf), cgroup2, devpts, and tmpfs on /tmp /root /run /var/tmp (so the host's /tmp is hidden:
# put shared files under $VM_OUT or outside /tmp). The command runs in the caller's working directory
# (read-only, unless VM_OVERLAY=1: then writes go to the overlay and vanish with the VM), stdin is
# /dev/null, its stdout and stderr come back on this script's stdout and stderr (two serial ports), and
# this script exits with the command's exit status (or 124 on timeout, 125 when the VM itself failed).
# Files written under $VM_OUT (default: none) in the guest are the host's, read-write: set
# VM_OUT=/some/host/dir and the guest sees it at the same path.
#
# Environment knobs:
#   VM_KVER     kernel package version, default: the one Debian 12's linux-image-amd64 depends on
#               (its stock 6.1 kernel, e.g. 6.1.0-56-amd64); any linux-image-<VM_KVER> that apt can
#               fetch works (e.g. 6.12.117+deb12-amd64, Debian 12's newer kernel); unpacked under
#               $VM_DIR/kernels unless apt installed it on the host
#   VM_KEEP_DIR a host directory under one of the guest's tmpfs (/tmp /root /run /var/tmp) that the
#               guest must still see, read-only (goldens.sh: the source tree, wherever it was cloned)
#   VM_DIR      cache dir (kernels, initramfs, per-run dirs), default /var/tmp/tap-vm
#   VM_CPU      -cpu model, default qemu64 (faster under TCG than max: no AVX2 code paths to emulate)
#   VM_MEM      memory, default 4G
#   VM_SMP      vCPUs, default 2                    VM_TIMEOUT  seconds for the whole VM, default 900
#   VM_OVERLAY  1: tmpfs overlay over the 9p root (writable everywhere), /lib/modules/$VM_KVER bound in
#               (breaks build-id symbolization of user stacks: tap prints raw addresses);
#               0 (default): the 9p root as is, read-only (only the tmpfs dirs and $VM_OUT writable)
#   VM_9P_CACHE 9p cache mode of the root: loose (default, fastest; the host must not change files
#               under the guest's feet), none, mmap, fscache
#   VM_TCG_THREAD  multi (default: one host thread per vCPU) or single (one thread for all vCPUs:
#               slower, but no cross-vCPU code-patching races; see the report)
#   VM_DEBUGINFO  1: the guest sees the kernel's DWARF at /usr/lib/debug/boot/vmlinux-$VM_KVER, where
#               SystemTap and tap look for it: only that file of linux-image-$VM_KVER-dbg, fetched and
#               unpacked once under $VM_DIR/dbg (about 860 MB to fetch, 600 MB kept); default 0: none
#   VM_APPEND   extra kernel command line          VM_KEEP=1 keep the run dir (console log) afterwards
#   VM_VERBOSE=1  copy the guest's kernel console log to stderr at the end
#   VM_CONSOLE=FILE  copy the guest's kernel console log to FILE at the end (goldens.sh looks for oopses)
#   VM_STALL=S  with VM_OUT: end the VM when no file under VM_OUT has changed for S seconds (a guest
#               that hangs without panicking), and exit 125 as for a VM that died; default 0: never
#   VM_BROKEN_RE=ERE  end the VM as soon as its kernel console has a line matching ERE (an oops),
#               and exit 125 the same way; default: never
#
# Needs qemu-system-x86, busybox-static, kmod, cpio (scripts/install-deps.sh installs them). The guest's
# /init is guest-init.sh beside this script.
set -u -o pipefail

VM_DIR=${VM_DIR:-/var/tmp/tap-vm}
VM_CPU=${VM_CPU:-qemu64}
VM_MEM=${VM_MEM:-4G}
VM_SMP=${VM_SMP:-2}
VM_TIMEOUT=${VM_TIMEOUT:-900}
VM_APPEND=${VM_APPEND:-}
VM_OUT=${VM_OUT:-}
VM_KEEP_DIR=${VM_KEEP_DIR:-}
VM_OVERLAY=${VM_OVERLAY:-0}
VM_9P_CACHE=${VM_9P_CACHE:-loose}
VM_TCG_THREAD=${VM_TCG_THREAD:-multi}
VM_DEBUGINFO=${VM_DEBUGINFO:-0}
VM_STALL=${VM_STALL:-0}
VM_BROKEN_RE=${VM_BROKEN_RE:-}

die() { echo "run-in-vm: $*" >&2; exit 125; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# ---------------------------------------------------------------- setup (cached, idempotent)
missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
[ -x /bin/busybox ] && dpkg -s busybox-static >/dev/null 2>&1 || missing+=(busybox-static)
command -v depmod >/dev/null || missing+=(kmod)
command -v cpio >/dev/null || missing+=(cpio)
[ ${#missing[@]} -eq 0 ] || die "missing ${missing[*]}: run scripts/install-deps.sh"

. "$here/kver.sh"
mkdir -p "$VM_DIR" || die "cannot create $VM_DIR"
# Runs side by side share the kernels and initramfs: one sets them up at a time.
exec 9>"$VM_DIR/setup.lock" && flock 9 || die "cannot lock $VM_DIR/setup.lock"

# Kernel: the one installed on the host by apt (linux-image-$VM_KVER) if present, else the package
# unpacked under $VM_DIR/kernels (no root fs change, no initramfs-tools run).
if [ -f "/boot/vmlinuz-$VM_KVER" ] && [ -d "/lib/modules/$VM_KVER/kernel" ]; then
	KROOT=""
else
	KROOT="$VM_DIR/kernels/$VM_KVER"
	if [ ! -f "$KROOT/boot/vmlinuz-$VM_KVER" ]; then
		mkdir -p "$VM_DIR/debs" "$KROOT" || die "cannot create $KROOT"
		echo "run-in-vm: fetching linux-image-$VM_KVER" >&2
		( cd "$VM_DIR/debs" && apt-get download "linux-image-$VM_KVER" >&2 ) || die "apt-get download linux-image-$VM_KVER failed"
		dpkg -x "$VM_DIR"/debs/linux-image-"$VM_KVER"_*.deb "$KROOT" || die "dpkg -x failed"
	fi
	[ -f "$KROOT/lib/modules/$VM_KVER/modules.dep" ] || depmod -b "$KROOT" "$VM_KVER" || die "depmod failed"
fi
KERNEL="$KROOT/boot/vmlinuz-$VM_KVER"
MODDIR="$KROOT/lib/modules/$VM_KVER"

# The kernel's DWARF (VM_DEBUGINFO=1): only vmlinux from the -dbg package (tar stops at it), bound at
# /usr/lib/debug/boot in the guest, which needs that directory on the shared root as a mount point.
DEBUGDIR=""
if [ "$VM_DEBUGINFO" = 1 ]; then
	DEBUGDIR="$VM_DIR/dbg/$VM_KVER/usr/lib/debug/boot"
	if [ ! -f "$DEBUGDIR/vmlinux-$VM_KVER" ]; then
		mkdir -p "$VM_DIR/dbg/$VM_KVER" || die "cannot create $VM_DIR/dbg/$VM_KVER"
		echo "run-in-vm: fetching linux-image-$VM_KVER-dbg (its vmlinux only)" >&2
		mkdir -p "$VM_DIR/debs" && ( cd "$VM_DIR/debs" && apt-get download "linux-image-$VM_KVER-dbg" >&2 ) || die "apt-get download linux-image-$VM_KVER-dbg failed"
		deb=$(ls "$VM_DIR"/debs/linux-image-"$VM_KVER"-dbg_*.deb | head -1)
		dpkg-deb --fsys-tarfile "$deb" 2>/dev/null | tar -x -C "$VM_DIR/dbg/$VM_KVER" --occurrence=1 "./usr/lib/debug/boot/vmlinux-$VM_KVER"
		[ -f "$DEBUGDIR/vmlinux-$VM_KVER" ] || die "no vmlinux-$VM_KVER in $deb"
		rm -f "$deb"   # 860 MB: only the vmlinux is kept
	fi
	mkdir -p /usr/lib/debug/boot || die "cannot create /usr/lib/debug/boot (the guest's mount point)"
fi

INITRD="$VM_DIR/initramfs-$VM_KVER.cpio.gz"
if [ ! -f "$INITRD" ] || [ "$0" -nt "$INITRD" ] || [ "$here/guest-init.sh" -nt "$INITRD" ]; then
	build=$(mktemp -d "$VM_DIR/initramfs.XXXXXX") || die "mktemp failed"
	mkdir -p "$build"/{bin,proc,sys,dev,mod,lower,upper,newroot}
	cp /bin/busybox "$build/bin/busybox"
	# modules to boot from 9p, with their dependencies first (modules.dep order, deepest first)
	declare -A seen=()
	order=()
	add_mod() {
		local name=$1 path deps d
		path=$(grep -E "(^|/)${name}\.ko(\.[a-z]+)?:" "$MODDIR/modules.dep" | head -1 | cut -d: -f1)
		[ -n "$path" ] || return 0   # built in
		[ -n "${seen[$path]:-}" ] && return 0
		seen[$path]=1
		deps=$(grep -E "^${path}:" "$MODDIR/modules.dep" | cut -d: -f2)
		for d in $deps; do add_mod "$(basename "$d" | sed -E 's/\.ko(\.[a-z]+)?$//')"; done
		order+=("$path")
	}
	for m in virtio_pci virtio_rng 9pnet_virtio 9p overlay; do add_mod "$m"; done
	for p in "${order[@]}"; do
		b=$(basename "$p")
		case "$b" in
		*.ko.xz) xz -dc "$MODDIR/$p" >"$build/mod/${b%.xz}" ;;
		*.ko.zst) zstd -qdc "$MODDIR/$p" >"$build/mod/${b%.zst}" ;;
		*.ko.gz) gzip -dc "$MODDIR/$p" >"$build/mod/${b%.gz}" ;;
		*) cp "$MODDIR/$p" "$build/mod/$b" ;;
		esac
		echo "${b%%.ko*}.ko" >>"$build/mod/order"
	done
	cp "$here/guest-init.sh" "$build/init"
	chmod +x "$build/init"
	( cd "$build" && find . | cpio -o -H newc --quiet | gzip -1 ) >"$INITRD.tmp" && mv "$INITRD.tmp" "$INITRD" \
		|| die "initramfs build failed"
	rm -rf "$build"
fi
exec 9>&-

# ---------------------------------------------------------------- one run
# watch_guest PID: ends the VM (timeout's PID: it passes the signal on to qemu) as soon as the guest's
# console has a line matching VM_BROKEN_RE (leaving it in $RUN/broken), or once no file under VM_OUT
# has changed for VM_STALL seconds (leaving $RUN/stalled). A hung guest (both vCPUs stuck without a
# soft-lockup panic, RCU's kthread starved) otherwise holds the caller for the whole VM_TIMEOUT.
watch_guest() {
	local vm=$1 last now
	last=$(date +%s)
	touch "$RUN/progress"
	while sleep 10; do
		now=$(date +%s)
		if [ -n "$VM_BROKEN_RE" ] && grep -Em1 "$VM_BROKEN_RE" "$RUN/console.log" >"$RUN/broken.line" 2>/dev/null; then
			mv "$RUN/broken.line" "$RUN/broken"
			kill -TERM "$vm" 2>/dev/null
			return
		fi
		[ -n "$VM_OUT" ] && [ "$VM_STALL" -gt 0 ] || continue
		touch "$RUN/progress.next"
		if [ -n "$(find "$VM_OUT" -newer "$RUN/progress" -print -quit 2>/dev/null)" ]; then last=$now; fi
		mv "$RUN/progress.next" "$RUN/progress"
		if [ $((now - last)) -ge "$VM_STALL" ]; then
			touch "$RUN/stalled"
			kill -TERM "$vm" 2>/dev/null
			return
		fi
	done
}
mkdir -p "$VM_DIR/runs"
RUN=$(mktemp -d "$VM_DIR/runs/run.XXXXXX") || die "mktemp failed"
cleanup() { [ "${VM_KEEP:-0}" = 1 ] || rm -rf "$RUN"; }
trap cleanup EXIT
{
	echo "cd $(printf %q "$PWD") 2>/dev/null || cd /root"
	if [ $# -eq 1 ]; then
		printf '%s\n' "$1"
	elif [ $# -gt 1 ]; then
		printf 'exec'; printf ' %q' "$@"; printf '\n'
	else
		echo 'echo "kernel $(uname -r)"'
	fi
} >"$RUN/cmd.sh"

out_args=()
if [ -n "$VM_OUT" ]; then
	mkdir -p "$VM_OUT"
	VM_OUT=$(cd "$VM_OUT" && pwd)
	out_args=(-virtfs "local,path=$VM_OUT,mount_tag=vmout,security_model=none,multidevs=remap")
fi
# stdout/stderr: qemu writes each serial port into a FIFO that a cat copies to our own stdout/stderr
# (qemu reopening /proc/self/fd/1 would get a new file offset when stdout is a regular file)
mkfifo "$RUN/out" "$RUN/err" || die "mkfifo failed"
cat "$RUN/out" & cat_out=$!
cat "$RUN/err" >&2 & cat_err=$!
exec 5<>"$RUN/out" 6<>"$RUN/err"   # a writer that outlives qemu, so the cats end only when we close it
# softlockup_panic=0: under TCG a vCPU whose host thread has not run for a while looks to the guest
# like a CPU stuck (a soft lockup, an RCU stall) though it goes on when the host runs it again, as it
# did in CI twice in one run, each panic costing a VM. The guest logs it and goes on; one that hangs for
# good is ended by VM_STALL (no progress) or VM_TIMEOUT instead.
timeout --foreground -k 10 "$VM_TIMEOUT" qemu-system-x86_64 \
	-machine q35 -accel tcg,thread=$VM_TCG_THREAD -cpu "$VM_CPU" -m "$VM_MEM" -smp "$VM_SMP" \
	-nodefaults -no-user-config -display none -vga none -no-reboot \
	-kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyS0 panic=-1 softlockup_panic=0 loglevel=4 rdinit=/init vm_moddir=$MODDIR vm_out=$VM_OUT vm_keep=$VM_KEEP_DIR vm_overlay=$VM_OVERLAY vm_cache=$VM_9P_CACHE vm_debug=$DEBUGDIR $VM_APPEND" \
	-chardev "file,id=con,path=$RUN/console.log" -serial chardev:con \
	-chardev "file,id=out,path=$RUN/out" -serial chardev:out \
	-chardev "file,id=err,path=$RUN/err" -serial chardev:err \
	-device virtio-rng-pci \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$RUN,mount_tag=vmrun,security_model=none" \
	"${out_args[@]}" </dev/null 2>"$RUN/qemu.err" &
vm=$!
watchdog=""
if { [ -n "$VM_OUT" ] && [ "$VM_STALL" -gt 0 ]; } || [ -n "$VM_BROKEN_RE" ]; then
	watch_guest "$vm" & watchdog=$!
fi
wait "$vm"
qrc=$?
[ -z "$watchdog" ] || { kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null; }
exec 5>&- 6>&-
wait "$cat_out" "$cat_err"
[ "${VM_VERBOSE:-0}" = 1 ] && cat "$RUN/console.log" >&2
[ -n "${VM_CONSOLE:-}" ] && cp "$RUN/console.log" "$VM_CONSOLE"
if [ -f "$RUN/broken" ]; then
	echo "run-in-vm: the guest's kernel is broken ($(cat "$RUN/broken")); ended it. Console tail:" >&2
	tail -30 "$RUN/console.log" >&2
	exit 125
fi
if [ -f "$RUN/stalled" ]; then
	echo "run-in-vm: nothing under $VM_OUT changed for ${VM_STALL}s: the guest hung; ended it. Console tail:" >&2
	tail -30 "$RUN/console.log" >&2
	exit 125
fi
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "run-in-vm: timed out after ${VM_TIMEOUT}s; console tail:" >&2
	tail -20 "$RUN/console.log" >&2
	exit 124
fi
if [ ! -s "$RUN/rc" ]; then
	echo "run-in-vm: the VM ended without an exit status (qemu rc $qrc); qemu said:" >&2
	cat "$RUN/qemu.err" >&2
	echo "run-in-vm: console tail:" >&2
	tail -30 "$RUN/console.log" >&2
	exit 125
fi
exit "$(cat "$RUN/rc")"
