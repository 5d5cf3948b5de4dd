# As uprobe_refused_wildcard, on one perf-event uprobe per probe (the path of kernels without uprobe_multi).
TAP_NO_UPROBE_MULTI=1 @TAP@ -e 'probe process("libc.so.6").function("pthread_spin*") {}' -c true
