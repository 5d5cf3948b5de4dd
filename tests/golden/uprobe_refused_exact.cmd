# libc without its separate debug info (libc6-dbg), as the output below expects: SYSTEMTAP_DEBUGINFO_PATH names no directory.
# A probe named exactly (no wildcard) that the kernel would refuse is an error naming it, before anything is attached.
SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -e 'probe process("libc.so.6").function("pthread_spin_lock") {}' -c true
