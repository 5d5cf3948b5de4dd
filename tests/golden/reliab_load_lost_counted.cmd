# Under load: two threads call step() 20000 times each while tap's reader
# is held back by a slow consumer (the pipe into a reader that waits for
# the program's answer, written as it exits, fills), so the 1 MiB ring
# overflows (each record carries four strings) however fast the machine. The traced
# program's answer is unchanged, and every printed event is either
# delivered or counted in the lost events of the closing warning
# (output.md): delivered + lost == fired, where fired is counted by an
# aggregate in BPF.
t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
# the program writes its answer to a file of its own: a big write of tap's
# into a shared pipe is not atomic, and its line could land inside one
@TAP@ -s 1 -c "$t 2 20000 >$d/target" -e 'global fired
probe process("'$t'").function("step") { fired <<< 1; e = execname(); printf("hit %s%s%s%s\n", e, e, e, e) }
probe end { printf("fired %d\n", @count(fired)) }' 2>$d/err | (for i in $(seq 1200); do [ -s $d/target ] && break; sleep 0.1; done; cat) >$d/out
echo "tap: ${PIPESTATUS[0]}"
cat $d/target
grep -v '^hit t_threadst_threadst_threadst_threads$' $d/out | grep -v '^fired '
delivered=$(grep -c '^hit t_threadst_threadst_threadst_threads$' $d/out)
fired=$(sed -n 's/^fired //p' $d/out)
lost=$(sed -n 's/^WARNING: Number of errors: 0, skipped probes: 0, lost events: \([0-9]*\)$/\1/p' $d/err)
grep -v '^WARNING: Number of errors: 0, skipped probes: 0, lost events: [0-9]*$' $d/err
echo "fired: $fired"
echo "some lost: $((${lost:-0} > 0))"
echo "delivered + lost == fired: $((delivered + ${lost:-0} == fired))"
