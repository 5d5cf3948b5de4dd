# @this1 ... @this8 (SystemTap's macros.stpm over this.stp's maps): a value
# per thread from one probe to another; here from a syscall's entry to its
# return (sleep's clock_nanosleep(CLOCK_REALTIME, ...): clock 0, returns 0).
@TAP@ -e 'probe syscall.clock_nanosleep { if (pid() == target()) { @this1 = which_clock; @this8 = name } }
probe syscall.clock_nanosleep.return { if (pid() == target()) printf("%s(%d) = %d\n", @this8, @this1, retval) }' -c 'sleep 0.01'
