# An object compiled with -p4 alone may hold events opened on the -c/-x target
# (perf .process counters, process.data): --run without a target refuses them
# by name; with -c they count in the target (it had been opened on tap itself).
obj=$(mktemp /tmp/tap-run-XXXXXX.bpf.o)
@TAP@ -p4 -o $obj -e 'global start probe perf.sw.task_clock.process.counter("clock") {}
probe process("@PROGRAMS@/t_perf_work").function("spin_ms") { start = @perf("clock") }
probe process("@PROGRAMS@/t_perf_work").function("spin_ms").return { printf("clock in spin_ms(20) >= 19 ms: %d\n", @perf("clock") - start >= 19000000) }' || exit 1
@TAP@ --run $obj; echo "without a target: exit $?"
@TAP@ --run $obj -c @PROGRAMS@/t_perf_work; echo "with -c: exit $?"
@TAP@ -p4 -o $obj -e 'probe process.data(0x1000).write { }' && echo "process.data compiles with -p4 alone"
rm -f $obj
