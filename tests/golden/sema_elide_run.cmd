# What the elision of sema_p2_elide leaves runs as SystemTap's would: the elided
# assignment's call with a side effect still runs (f), a global only written is printed at
# the end (gv); a global set by -G is assigned, so not warned about. A global whose only
# read was an elided store is only written then, so printed at the end (gr), as SystemTap
# decides that after its elision; what became unused in a later round goes without a
# warning, as SystemTap warns in its first round only (z, the elided store's local).
@TAP@ -e 'global gv probe begin { z = f(); gv = 1; exit() } function f() { println("f ran"); return 3 }'; echo "exit $?"
@TAP@ -G g=4 -e 'global g probe begin { println(g + 1); exit() }'; echo "exit $?"
@TAP@ -e 'global gr probe begin { gr = 7; copy = gr; exit() }'; echo "exit $?"
