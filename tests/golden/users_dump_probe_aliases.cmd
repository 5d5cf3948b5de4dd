# --dump-probe-aliases: every tapset alias with what it expands to, sorted;
# the syscall tapset has one entry and one return alias per system call; the
# vm.* and workqueue.* aliases of issue 17, on tracepoints, sub-aliases and
# functions; the socket.*, tcp.setsockopt and vm.* ones on kernel functions;
# nfsd.* on the nfsd module's functions (or the kernel's, where built in).
@TAP@ --dump-probe-aliases | grep -E '^(oneshot |process\.|syscall\.openat(\.return)? |syscall_any|vm\.(kmalloc_node|kmem_cache_alloc_node|write_shared|write_shared_copy|oom_kill) |workqueue\.|socket\.(sendmsg|recvmsg|read_iter|write_iter|readv)(\.return)? |tcp\.(ipv4\.|ipv6\.)?setsockopt(\.return)? |nfsd\.(dispatch|entries|proc\.entries) )'
