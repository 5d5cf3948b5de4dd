# -u keeps unused functions as SystemTap does: without it they are elided with a warning; with it
# they are checked, typed and printed by -p2 (before, -u only silenced the warning), and one whose
# parameter nothing types is an error.
@TAP@ -p2 -e 'function unused(x) { return x + 1 } probe begin { }'; echo "exit $?"
@TAP@ -u -p2 -e 'function unused(x) { return x + 1 } probe begin { }'; echo "exit $?"
@TAP@ -u -p2 -e 'function untyped(x) { return x } probe begin { }'; echo "exit $?"
