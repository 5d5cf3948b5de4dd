# What the elision of sema_p2_elide leaves runs as SystemTap's would: the elided
# assignment's call with a side effect still runs (f), a global only written is printed at
# the end (gv); a global set by -G is assigned, so not warned about.
@TAP@ -e 'global gv probe begin { z = f(); gv = 1; exit() } function f() { println("f ran"); return 3 }'; echo "exit $?"
@TAP@ -G g=4 -e 'global g probe begin { println(g + 1); exit() }'; echo "exit $?"
