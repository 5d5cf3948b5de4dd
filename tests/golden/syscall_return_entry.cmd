# @entry(expr) in syscall.NAME.return (tracepoint aliases: the exit record
# holds only the return value) is expr's value at the call, saved by a probe
# on the entry alias, per thread; $argument there is the argument's value at
# the call (SystemTap's entry value). sleep 0.01 calls
# clock_nanosleep(CLOCK_REALTIME, rqtp, ...) once: at least 10 ms between
# the call and its return; a string and a point list (nd_syscall) too.
@TAP@ -e 'probe syscall.clock_nanosleep.return, nd_syscall.nanosleep.return {
  if (pid() != target()) next
  printf("%s(rqtp %d) = %d, %s, slept %d\n", name, $rqtp != 0, retval, @entry(execname() . "!"),
         gettimeofday_us() - @entry(gettimeofday_us()) >= 10000)
}' -c 'sleep 0.01'
