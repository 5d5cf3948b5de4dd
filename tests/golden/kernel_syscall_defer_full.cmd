# Two syscall-entry handlers waiting for their syscalls' exits at once (t_cold_fifo: the first blocks
# in openat on a FIFO) with room for one (-D TAP_DEBUG_DEFER_ENTRIES=1): the second is a skipped probe,
# counted at the end, never a record silently dropped (an LRU map evicted the waiting one). The probe is
# system-wide: another process's cold openat while the map is full is skipped too, so the count is N.
d=$(mktemp -d) && mkfifo "$d/fifo" || exit 1
@TAP@ -D TAP_DEBUG_DEFER_ENTRIES=1 -e 'probe syscall.openat { if (pid() == target() && dfd == 4242) printf("%s(%s)\n", name, argstr) }' -c "@PROGRAMS@/t_cold_fifo $d/fifo /etc/hostname" 2>&1 | sed -E "s|$d|DIR|; s/skipped probes: [1-9][0-9]*,/skipped probes: N,/"
rm -rf "$d"
