# The -c command killed by a signal: the session ends, the end probe runs,
# tap reports the signal (SystemTap's words) and exits 1 (cli.md).
source ../kill_check.sh; t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -c "$t 1 100000 10000" -e 'global n
probe process("'$t'").function("step") { if (!n++) println("attached") }
probe end { println("end ran") }' >$d/out 2>$d/err & tap=$!
wait_for_line $d/out attached $tap; pkill -KILL -P $tap -x t_threads; wait $tap; echo "tap: $?"
cat $d/out $d/err
