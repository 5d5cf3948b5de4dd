# libc without its separate debug info (libc6-dbg), as the output below expects: SYSTEMTAP_DEBUGINFO_PATH names no directory.
# As uprobe_refused_wildcard, on one perf-event uprobe per probe (the path of kernels without uprobe_multi).
TAP_NO_UPROBE_MULTI=1 SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -e 'probe process("libc.so.6").function("pthread_spin*") {}' -c true
