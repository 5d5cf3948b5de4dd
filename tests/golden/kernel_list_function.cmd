@TAP@ -L 'kernel.function("vfs_read")'
