# kernel.lsm on a kernel that refuses BPF trampolines (this host): -L still
# lists the hooks from BTF; a run is refused, saying why.
@TAP@ -L 'kernel.lsm("file_open")'
@TAP@ -p2 -e 'probe kernel.lsm("file_open") { }'
