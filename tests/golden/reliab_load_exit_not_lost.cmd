# exit() under load, with the output ring full (a slow consumer): the exit
# goes through its own ring (tap_control), so the session ends at once and
# runs its end probe, instead of waiting for the target, which would run
# for minutes (2 x 20 million calls). The end probe's output comes last.
t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -s 1 -c "$t 2 20000000" -e 'global n
probe process("'$t'").function("step") { printf("hit %s\n", execname()); if (++n >= 50000) exit() }
probe end { println("end ran") }' 2>$d/err | (sleep 2; cat) >$d/out
echo "tap: ${PIPESTATUS[0]}"
tail -1 $d/out
grep -v '^WARNING: Number of errors: 0, skipped probes: 0, lost events: [0-9]*$' $d/err
echo "hits before the end: $(($(grep -c '^hit t_threads$' $d/out) > 0))"
