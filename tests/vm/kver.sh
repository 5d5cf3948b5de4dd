# Sourced by run-in-vm.sh and goldens.sh: VM_KVER, when unset, is the kernel Debian 12's
# linux-image-amd64 depends on (its stock 6.1 kernel as the archive has it today).
if [ -z "${VM_KVER:-}" ]; then
	VM_KVER=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\(.*\)$/\1/p' | head -1)
	VM_KVER=${VM_KVER:-6.1.0-56-amd64}
fi
