# system(cmd): started once what was printed before it is out; tap waits for
# it before exiting (its line comes before rc=), and its output goes to tap's
# standard output, not to the -o file (as SystemTap's stapio does).
@TAP@ -e 'probe begin { println("before"); system("sleep 0.3; echo command $((6*7))"); exit() }'; echo "rc=$?"
out=$(mktemp); @TAP@ -o "$out" -e 'probe begin { println("to the file"); system("echo to stdout") exit() }'; echo "rc=$?"; cat "$out"; rm -f "$out"
