@TAP@ -L 'kernel.trace("syscalls:sys_*_openat")'
