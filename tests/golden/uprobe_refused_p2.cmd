# libc without its separate debug info (libc6-dbg), as the output below expects: SYSTEMTAP_DEBUGINFO_PATH names no directory.
# -p2 lists the probe the kernel would refuse as skipped, after the warning (pcs masked: they move with libc updates).
SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -p2 -e 'probe process("libc.so.6").function("pthread_spin*") {}' 2>&1 | sed 's/: identifier.*//' | grep -v '^  ' | sed 's/pc=0x[0-9a-f]*/pc=PC/'
