# With -c, process probes fire in the target and its descendants (a forked
# child), never in another process running the same binary.
t=@PROGRAMS@/t_fork; (for i in 1 2 3 4 5 6 7 8 9 10; do $t 100; sleep 0.05; done) & other=$!; @TAP@ -e 'probe process("'$t'").function("work") { printf("work(%d)\n", $n) }' -c "$t 0"; status=$?; wait $other; exit $status
