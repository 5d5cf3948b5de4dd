# Sourced by run-in-vm.sh and goldens.sh: VM_KVER names the kernel package linux-image-$VM_KVER.
#   unset or empty  the kernel Debian 12's linux-image-amd64 depends on (its stock 6.1 kernel)
#   a series: 6.12  the kernel linux-image-6.12-amd64 depends on (Debian 12's newer kernel)
#   anything else   as is: 6.1.0-56-amd64, 6.12.117+deb12-amd64
# so CI follows the archive's security updates, which retire old ABI versions.
kver_depends() { apt-cache depends "$1" 2>/dev/null | sed -n 's/^ *Depends: linux-image-\(.*\)$/\1/p' | head -1; }
case ${VM_KVER:-} in
'') VM_KVER=$(kver_depends linux-image-amd64); VM_KVER=${VM_KVER:-6.1.0-56-amd64} ;;
*-*) ;;
*) VM_KVER=$(kver_depends "linux-image-$VM_KVER-amd64") ;;
esac
