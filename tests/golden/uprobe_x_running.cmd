# -x PID: probes fire only in that process (a second copy runs unseen); target(), pid(), execname().
@PROGRAMS@/t_loop & a=$!; @PROGRAMS@/t_loop & b=$!; sleep 0.1
@TAP@ -x $a -e 'global n; probe process("@PROGRAMS@/t_loop").function("tick") { printf("%s %s %s\n", target() == pid() ? "target" : "other", execname(), $i >= 0 ? "i>=0" : "?"); if (++n == 3) exit() }'
kill $a $b
