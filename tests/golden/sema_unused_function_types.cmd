# Types are inferred after unused functions are elided, as SystemTap does: a type error in a function
# nothing calls, or a store of another type into a global there, is not an error (the function is
# dropped with a warning); with -u it is kept, checked, and the error is reported.
@TAP@ -p2 -e 'global g function bad() { g = "s"; return 1 + "s" } probe begin { g = 1 }'; echo "exit $?"
@TAP@ -u -p2 -e 'global g function bad() { g = "s"; return 1 + "s" } probe begin { g = 1 }'; echo "exit $?"
