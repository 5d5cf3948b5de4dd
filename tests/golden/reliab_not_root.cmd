# Without root (or CAP_BPF and CAP_PERFMON), running a script says so in one
# line and exits 1, with no libbpf log; compiling (-p4) needs no privilege.
setpriv --reuid=65534 --regid=65534 --clear-groups @TAP@ -e 'probe begin { println("hi"); exit() }'; echo "run: $?"
setpriv --reuid=65534 --regid=65534 --clear-groups @TAP@ -p4 -o /dev/null -e 'probe begin { println("hi"); exit() }'; echo "compile: $?"
