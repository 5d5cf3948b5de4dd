# process(PID) and process with -x PID find the binary through /proc/PID/exe; process(PID) fires only
# in that process (a second copy of the program runs unseen).
@PROGRAMS@/t_loop & a=$!; @PROGRAMS@/t_loop & b=$!; sleep 0.1
@TAP@ -e "global n; probe process($a).function(\"tick\") { printf(\"tick in %s\n\", pid() == $a ? \"it\" : \"other\"); if (++n == 2) exit() }"
@TAP@ -x $a -e 'probe process.function("tick") { printf("tick in %s\n", pid() == target() ? "target" : "other"); exit() }'
kill $a $b
