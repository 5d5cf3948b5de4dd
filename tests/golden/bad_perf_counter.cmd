# SystemTap's perf counters (perf.TYPE.NAME.process(PATH).counter(NAME), read with
# @perf(NAME); gallery profiling/perf.stp) where tap refuses them, at their place:
# without -c/-x in a run (BPF cannot open a per-task event when some process
# starts PATH; -p4 alone compiles it for --run -c, run_object_target_events),
# a PATH the target does not run, @perf outside a process probe's body (the
# kernel reads a task's counter only in that task), an undeclared or non-literal
# name, a duplicate counter, .sample after .process (not SystemTap's either),
# and hardware counters on a machine without a PMU.
@TAP@ -e 'probe perf.sw.page_faults.process.counter("x") {}'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.sw.page_faults.process("/bin/true").counter("x") {}'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.sw.page_faults.counter("x") {} probe begin { println(@perf("x")) }'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'function f() { return @perf("x") } probe perf.sw.page_faults.counter("x") {} probe process.function("main") { println(f()) }'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.sw.page_faults.counter("x") {} probe process.function("main") { println(@perf("y")) }'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.sw.page_faults.counter("x") {} probe process.function("main") { n = "x"; println(@perf(n)) }'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.sw.page_faults.counter("x") {} probe perf.sw.cpu_clock.counter("x") {}'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.sw.page_faults.process.sample(1) {}'
@TAP@ -p2 -c @PROGRAMS@/t_perf_work -e 'probe perf.hw.instructions.process.counter("insns") {}'
