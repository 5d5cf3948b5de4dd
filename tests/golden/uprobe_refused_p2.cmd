# -p2 lists the probe the kernel would refuse as skipped, after the warning.
@TAP@ -p2 -e 'probe process("libc.so.6").function("pthread_spin*") {}' 2>&1 | sed 's/: identifier.*//' | grep -v '^  '
