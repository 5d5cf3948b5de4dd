# --dump-probe-aliases: every tapset alias with what it expands to, sorted;
# the syscall tapset has one entry and one return alias per system call; the
# vm.* and workqueue.* aliases of issue 17, on tracepoints, sub-aliases and
# functions.
@TAP@ --dump-probe-aliases | grep -E '^(oneshot |process\.|syscall\.openat(\.return)? |syscall_any|vm\.(kmalloc_node|kmem_cache_alloc_node|write_shared) |workqueue\.)'
