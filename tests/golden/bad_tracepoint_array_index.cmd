# An element of a tracepoint's integer array field ($args of raw_syscalls,
# what process.syscall's $argN read) is at a constant index within the
# array's length.
@TAP@ -p2 -e 'probe kernel.trace("raw_syscalls:sys_enter") { println($args[6]) }'
@TAP@ -p2 -e 'probe kernel.trace("raw_syscalls:sys_enter") { i = 1; println($args[i]) }'
