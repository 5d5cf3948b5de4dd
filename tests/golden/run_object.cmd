# Compile once (-p4), run the object later with --run: same output.
obj=$(mktemp /tmp/tap-run-XXXXXX.bpf.o); @TAP@ -p4 -o $obj -e 'global n probe timer.ms(20) { n++; if (n == 3) exit() } probe end { printf("n=%d %s\n", n, "from the object") }' && @TAP@ --run $obj; status=$?; rm -f $obj; exit $status
