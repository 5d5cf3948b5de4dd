# -T 1 while a uprobe prints as fast as two threads can call step():
# the session ends normally (cli.md): the end probe runs and its line comes
# last, every event before it is delivered or counted as lost (delivered +
# lost == fired, fired counted in BPF), the -c command is stopped without a
# warning, and tap exits 0.
t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -c "$t 2 100000000" -e 'global fired
probe process("'$t'").function("step") { fired <<< 1; printf("hit\n") }
probe end { printf("end: fired %d\n", @count(fired)) }' -T 1 >$d/out 2>$d/err; echo "tap: $?"
tail -1 $d/out | sed -E 's/[0-9]+/N/'
delivered=$(grep -c '^hit$' $d/out); fired=$(sed -n 's/^end: fired //p' $d/out)
lost=$(sed -n 's/^WARNING: Number of errors: 0, skipped probes: 0, lost events: \([0-9]*\)$/\1/p' $d/err)
grep -v '^WARNING: Number of errors: 0, skipped probes: 0, lost events: [0-9]*$' $d/err
echo "delivered + lost == fired: $((delivered + ${lost:-0} == fired))"
