@TAP@ -l 'syscall.openat*'
