# addr(), as SystemTap's: the instruction pointer of the probe's registers.
# In a process probe the probed address (uaddr(), usymname names the
# function); where a timer.profile sample interrupted: a user address in user
# mode, a kernel one (negative as a long) in kernel mode; 0 where a probe has
# no registers (tracepoints, begin).
# timer.profile can fire while another probe runs on its CPU (an emulator makes
# it likely): that sample is skipped with a warning, not miscounted; the
# warning is filtered out here, any other stderr line stays.
# t_stack calls inner() once and is done in a millisecond, less than a tick:
# `t_stack 2` then keeps a CPU busy for tens of ms so that samples come (the
# plain run alone gave none in 6 of 8 runs on a loaded host).
set -o pipefail
{ @TAP@ -e 'global user_ok, kernel_ok, samples, zero_tp
probe begin { printf("begin: %d\n", addr()) }
probe process(@1).function("inner") {
  a = addr()
  printf("process: %d %s\n", a == uaddr(), usymname(a))
}
probe timer.profile {
  a = addr()
  if (user_mode()) user_ok += a > 0 && a < 0x800000000000
  else kernel_ok += a < 0
  samples++
}
probe kernel.trace("sched:sched_process_exit") { if (!zero_tp) zero_tp = addr() == 0 ? 1 : 2 }
probe end {
  printf("profile: samples in range: %d\n", samples > 0 && user_ok + kernel_ok == samples)
  printf("tracepoint: %d\n", zero_tp)
}' @PROGRAMS@/t_stack -c "sh -c '@PROGRAMS@/t_stack && exec @PROGRAMS@/t_stack 2'" 2>&1 1>&3 | { grep -v '^WARNING: Number of errors: 0, skipped probes: [0-9]*, lost events: 0$' || true; } >&2; } 3>&1
