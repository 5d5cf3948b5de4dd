# SystemTap's dead-code elision at -p2 (elaborate.cxx semantic_pass_opt2..4), with its
# warnings, each text once: an assignment to a local nothing reads (at its `=`) becomes
# its right side, a statement left without a side effect goes, then the local (y goes
# first, then x, which only y read); a call with a side effect stays (f). Only the first
# round warns, as SystemTap's (checked against Debian 12's stap 4.8 -p2): what became
# unused in a later round (y, z, x) goes silently. A global nothing
# names is dropped (gu); one only written is used (printed at the end: gv); one read but
# never assigned is warned about (g, with the nearest other globals), not when it has an
# initialiser (h) or -G sets it. -u keeps everything, silently; -w silences the warnings.
@TAP@ -p2 -e 'global gu, gv, g, h = 2
probe begin { x = 1; y = x; z = f(); x = 2; gv = 1; println(g + h) }
function f() { println("f"); return 3 }'; echo "exit $?"
@TAP@ -p2 -G g=4 -e 'global g probe begin { println(g + 1) }'; echo "exit $?"
@TAP@ -u -p2 -e 'global gu probe begin { x = 1 }'; echo "exit $?"
@TAP@ -w -p2 -e 'global gu probe begin { x = 1 }'; echo "exit $?"
