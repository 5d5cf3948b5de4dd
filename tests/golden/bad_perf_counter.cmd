# SystemTap's perf counters of a process (perf.TYPE.process(PATH).counter(NAME)
# declared, read with @perf(NAME) in process probes; gallery profiling/perf.stp)
# are not implemented: both are refused at their place, saying what is missing.
@TAP@ -p2 -e 'probe process("/bin/true").function("main") { println(@perf("x")) }'
@TAP@ -p2 -e 'probe perf.sw.context_switches.process("/bin/true").counter("x") { }'
