# print_ustack_folded()/print_stack_folded(): one flame-graph line, root first.
# The user stack of leaf() in t_qsort (-O2, no frame pointers, called by libc's
# qsort: the frames stack_cfi_qsort_pie checks against gdb), reversed and
# joined by ';', then the kernel stack of the exiting process on top
# (a sched tracepoint: a syscalls one has no kernel stack on 6.1; its frames
# after do_syscall_64 vary with the kernel: cut to "..."); a stack
# cut by ucallers(2) is its two callers, the outer one first.
@TAP@ -e 'global u, c probe process(@1).function("leaf") { if (u == "") { u = ubacktrace(); c = ucallers(2) } } probe kernel.trace("sched:sched_process_exit") { if (pid() == target()) { print_ustack_folded(u); print(";"); print_stack_folded(backtrace()); println(" 1"); print_ustack_folded(c); println(" 1") } }' @PROGRAMS@/t_qsort -c @PROGRAMS@/t_qsort | sed -E 's/;do_syscall_64;.* 1$/;do_syscall_64;... 1/'
