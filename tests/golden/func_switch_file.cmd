# switch_file() with -o FILE: the output goes on in FILE.1, FILE.2 ... (stapio's
# SIGUSR2); without -o it stays on standard output.
dir=$(mktemp -d); @TAP@ -o "$dir/log" -e 'global n probe begin { println("first") } probe timer.ms(20) { n++; printf("tick %d\n", n); if (n % 2 == 0) switch_file(); if (n == 5) exit() } probe end { println("end") }'; echo "rc=$?"; for f in $(ls "$dir"); do echo "== $f"; cat "$dir/$f"; done; rm -rf "$dir"
@TAP@ -e 'probe begin { println("one"); switch_file(); println("two"); exit() }'
