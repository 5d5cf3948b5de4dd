@TAP@ -e 'probe syscall.openat { if (pid() == target() && filename == "\"/etc/hostname\"") printf("%s %s\n", name, argstr) }' -c 'head -c0 /etc/hostname'
