#!/bin/busybox sh
# The guest's /init (run-in-vm.sh packs it into the initramfs): loads the 9p modules, mounts the
# host's root (read-only over 9p, or under a tmpfs overlay), the kernel filesystems and tmpfs dirs, then
# runs /run/vm/cmd.sh chrooted with its stdout and stderr on the second and third serial ports, writes
# its exit status to /run/vm/rc and powers off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /mod/order); do insmod /mod/$m || echo "vm-init: insmod $m failed"; done
KVER=$(uname -r); MODDIR=; OUT=; KEEP=; OVERLAY=1; CACHE=loose; DEBUG=
for x in $(cat /proc/cmdline); do
	case $x in
	vm_moddir=*) MODDIR=${x#vm_moddir=} ;; vm_out=*) OUT=${x#vm_out=} ;; vm_keep=*) KEEP=${x#vm_keep=} ;;
	vm_overlay=*) OVERLAY=${x#vm_overlay=} ;; vm_cache=*) CACHE=${x#vm_cache=} ;; vm_debug=*) DEBUG=${x#vm_debug=} ;;
	esac
done
fail() { echo "vm-init: $*"; poweroff -f; }
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=$CACHE,msize=512000 hostroot /lower || fail "9p root mount failed"
if [ "$OVERLAY" = 1 ]; then
	mount -t tmpfs -o mode=755 tmpfs /upper && mkdir -p /upper/u /upper/w
	mount -t overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w overlay /newroot || fail "overlay failed"
else
	mount --bind /lower /newroot
fi
R=/newroot
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm
# what udev adds on a booted system: bash's <(...) opens /dev/fd/N
[ -e $R/dev/fd ] || ln -s /proc/self/fd $R/dev/fd
for i in 0:stdin 1:stdout 2:stderr; do [ -e $R/dev/${i#*:} ] || ln -s /proc/self/fd/${i%%:*} $R/dev/${i#*:}; done
mount -t devpts -o ptmxmode=666 devpts $R/dev/pts
mount -t tmpfs tmpfs $R/dev/shm
mount -t tracefs tracefs $R/sys/kernel/tracing
mount -t debugfs debugfs $R/sys/kernel/debug
mount -t bpf bpf $R/sys/fs/bpf
mount -t securityfs securityfs $R/sys/kernel/security   # the active LSMs (kernel.lsm), as systemd mounts it
mount -t tmpfs -o mode=755 tmpfs $R/sys/fs/cgroup && mkdir -p $R/sys/fs/cgroup/unified
mount -t cgroup2 cgroup2 $R/sys/fs/cgroup/unified
# modules of the guest's kernel at /lib/modules/$KVER (from the host path vm_moddir)
if [ "$OVERLAY" = 1 ] && [ -n "$MODDIR" ] && [ -d "/lower$MODDIR" ]; then
	mkdir -p "$R/lib/modules/$KVER" && mount --bind "/lower$MODDIR" "$R/lib/modules/$KVER"
fi
# the kernel's /boot (config-$KVER, as an installed kernel has: the preprocessor's CONFIG_HZ) when it
# was unpacked beside its modules under the host's cache dir, not installed there
BOOTDIR=${MODDIR%/lib/modules/*}/boot
if [ -n "$MODDIR" ] && [ -f "/lower$BOOTDIR/config-$KVER" ] && [ ! -e "$R/boot/config-$KVER" ] && [ -d "$R/boot" ]; then
	mount --bind "/lower$BOOTDIR" "$R/boot" || echo "vm-init: cannot bind the kernel's /boot"
fi
# the kernel's DWARF (VM_DEBUGINFO=1) where SystemTap looks for it, from the host's cache dir
if [ -n "$DEBUG" ] && [ -d "/lower$DEBUG" ]; then
	mount --bind "/lower$DEBUG" "$R/usr/lib/debug/boot" || echo "vm-init: cannot bind the kernel's DWARF at /usr/lib/debug/boot"
fi
mkdir -p $R/run $R/tmp $R/root $R/var/tmp
for d in /run /tmp /root /var/tmp; do mount -t tmpfs -o mode=755 tmpfs $R$d; done
chmod 1777 $R/tmp $R/var/tmp
# the kernel's module loader (ip link add ... type veth loads veth) runs /proc/sys/kernel/modprobe in this
# initramfs, not in the chroot: a wrapper runs the host's modprobe there, on the guest kernel's modules
# (bound under /run: without the overlay the read-only root has no /lib/modules/$KVER to bind onto)
if [ -n "$MODDIR" ] && [ -d "/lower$MODDIR" ]; then
	mkdir -p "$R/run/vm-kroot/lib/modules/$KVER" && mount --bind "/lower$MODDIR" "$R/run/vm-kroot/lib/modules/$KVER" &&
		printf '#!/bin/sh\nexec chroot %s /sbin/modprobe -d /run/vm-kroot "$@"\n' "$R" >/vm-modprobe &&
		chmod 755 /vm-modprobe && echo /vm-modprobe >/proc/sys/kernel/modprobe ||
		echo "vm-init: no module loader for $KVER"
fi
# a tree the command needs that lies under one of those tmpfs (a clone in /root or /tmp): the host's again
if [ -n "$KEEP" ] && [ -d "/lower$KEEP" ] && [ ! -d "$R$KEEP" ]; then
	mkdir -p "$R$KEEP" && mount --bind "/lower$KEEP" "$R$KEEP"
fi
mkdir -p $R/run/vm
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 vmrun $R/run/vm || fail "9p run dir mount failed"
if [ -n "$OUT" ]; then
	mkdir -p "$R$OUT" && mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 vmout "$R$OUT"
fi
hostname vm
ip link set lo up || echo "vm-init: lo did not come up"   # 127.0.0.1 for cases that talk to themselves
stty -F /dev/ttyS1 raw -echo 2>/dev/null
stty -F /dev/ttyS2 raw -echo 2>/dev/null
echo "vm-init: ready $(cut -d' ' -f1 /proc/uptime)s after boot" >/dev/kmsg
chroot $R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root TERM=dumb LANG=C.UTF-8 USER=root LOGNAME=root \
	/bin/bash /run/vm/cmd.sh </dev/null >/dev/ttyS1 2>/dev/ttyS2
echo $? >$R/run/vm/rc
echo "vm-init: done $(cut -d' ' -f1 /proc/uptime)s after boot" >/dev/kmsg
sync
umount $R/run/vm
poweroff -f
