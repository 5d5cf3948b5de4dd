# -L where the kernel's DWARF is installed (the VM stage binds Debian 6.1's at /usr/lib/debug/boot):
# kernel functions are listed with @FILE:LINE of their declaration as SystemTap lists them (the file
# relative to the kernel's source tree), their arguments typed from BTF; a kernel statement by line
# with the variables in scope there, typed from DWARF.
@TAP@ -L 'kernel.function("vfs_read")'
@TAP@ -L 'kernel.function("vfs_fsync*").return'
@TAP@ -L 'kernel.statement("vfs_read@fs/read_write.c:475")'
