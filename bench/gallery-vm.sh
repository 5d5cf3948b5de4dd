#!/bin/bash
# Runs bench/gallery.sh inside a Debian kernel booted under QEMU by tests/vm/run-in-vm.sh (default:
# Debian 12's stock 6.1, which has kprobes and fentry, so the examples on kernel.function can run).
# One VM for the whole run; the log is written as it goes to a host directory the guest can write.
#
#   bench/gallery-vm.sh TAP SYSTEMTAP_SOURCE [FILTER_REGEX]
#
# TAP, SYSTEMTAP_SOURCE (a checkout or the bare mirror) and this tree must lie outside /tmp, /root,
# /run and /var/tmp (tmpfs in the guest). Knobs (environment):
#   GALLERY_VM_OUT   directory of the log gallery.log (default: gallery-vm/ beside TAP)
#   GALLERY_TIMEOUT  seconds per command (default here 180: TCG runs about 6 times slower than the host)
#   VM_TIMEOUT       seconds for the whole VM (default 14400)
#   VM_DEBUGINFO     1 (default here): the guest sees the kernel's DWARF, as SystemTap's gallery expects
#   VM_KVER, VM_SMP, VM_MEM, ...: see tests/vm/run-in-vm.sh
# Do not rebuild TAP or edit its tapsets while the VM runs (the guest caches the host's files).
set -u
[[ $# -ge 2 ]] || { echo "usage: $0 TAP SYSTEMTAP_SOURCE [FILTER_REGEX]" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tap=$(readlink -f "$1"); src=$(readlink -f "$2"); filter=${3:-.}
out=${GALLERY_VM_OUT:-$(dirname "$tap")/gallery-vm}
mkdir -p "$out" && out=$(cd "$out" && pwd)
export VM_OUT=$out VM_TIMEOUT=${VM_TIMEOUT:-14400} VM_DEBUGINFO=${VM_DEBUGINFO:-1}
cmd=$(printf 'echo "kernel $(uname -r), tap %q, per-command timeout %ss"; GALLERY_TIMEOUT=%q bash %q %q %q %q 2>&1 | tee %q' \
    "$tap" "${GALLERY_TIMEOUT:-180}" "${GALLERY_TIMEOUT:-180}" "$here/gallery.sh" "$tap" "$src" "$filter" "$out/gallery.log")
cd "$here/.." && exec bash tests/vm/run-in-vm.sh "$cmd"
