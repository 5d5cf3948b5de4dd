# A probe named exactly (no wildcard) that the kernel would refuse is an error naming it, before anything is attached.
@TAP@ -e 'probe process("libc.so.6").function("pthread_spin_lock") {}' -c true
