@TAP@ -e 'global n probe timer.ms(50) { n++; if (n == 5) exit() } probe end { printf("n=%d\n", n) }'
