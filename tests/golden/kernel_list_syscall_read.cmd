@TAP@ -L syscall.read
