# Issue 15 (5): usymname() and umodname() in timer.profile of a process
# started before tap (-x): its files are indexed from /proc/PID/maps, so
# they resolve (they printed hex and <unknown>). hot() runs nine times as
# long as cold(). The program runs for seconds and tap stops after 2 (-T):
# with a short run, a slow start of tap under load found the process gone.
@PROGRAMS@/t_stack 1000 & pid=$!; @TAP@ -x $pid -T 2 -e 'global hits probe timer.profile { if (pid() == target()) hits[usymname(uaddr()), umodname(uaddr())]++ } probe end { foreach ([f, m] in hits- limit 1) printf("%s %s\n", f, m) }' | sed "s|$(realpath @PROGRAMS@)|PROGRAMS|"; kill $pid 2>/dev/null; wait
