@TAP@ -l 'kprobe.function("vfs_fsync*")'
@TAP@ -L 'kprobe.function("vfs_fsync*").return'
