# A perf counter of the -x process (opened enabled: it runs already): t_loop
# sleeps once between two tick() calls: one context switch each time (a
# preemption on a loaded machine may add one).
@PROGRAMS@/t_loop & a=$!; sleep 0.1
@TAP@ -x $a -e 'probe perf.sw.context_switches.process.counter("cs") {}
global last, n
probe process.function("tick") {
  v = @perf("cs"); if (n++) printf("context switches since the last tick >= 1: %d, <= 3: %d\n", v - last >= 1, v - last <= 3)
  last = v; if (n == 4) exit()
}'
kill $a
