# --dump-probe-aliases: every tapset alias with what it expands to, sorted;
# the syscall tapset has one entry and one return alias per system call.
@TAP@ --dump-probe-aliases | grep -E '^(oneshot |process\.|syscall\.openat(\.return)? |syscall_any)'
