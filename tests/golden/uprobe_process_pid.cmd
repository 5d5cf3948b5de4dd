# process(PID) and process with -x PID find the binary through /proc/PID/exe.
@PROGRAMS@/t_loop & a=$!; sleep 0.1
@TAP@ -e "probe process($a).function(\"tick\") { printf(\"tick\n\"); exit() }"
@TAP@ -x $a -e 'probe process.function("tick") { printf("tick in %s\n", pid() == target() ? "target" : "other"); exit() }'
kill $a
