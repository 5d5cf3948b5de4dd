# exit() under load, with the output ring full (a slow consumer; records
# carry four strings): the exit goes through its own ring (tap_control), so the session ends at once and
# runs its end probe, instead of waiting for the target, which would run
# for minutes (2 x 20 million calls). The end probe's output comes last.
t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
# the reader holds back for 5 s from the target's start, not from the
# pipeline's (tap's compile under TCG took most of a fixed 3 s)
hold_then_cat() {
  for i in $(seq 600); do pgrep -f "^$t 2 20000000" >/dev/null && break; sleep 0.1; done
  sleep 5; cat
}
@TAP@ -s 1 -c "$t 2 20000000" -e 'global n
probe process("'$t'").function("step") { e = execname(); printf("hit %s%s%s%s\n", e, e, e, e); if (++n >= 50000) exit() }
probe end { println("end ran") }' 2>$d/err | hold_then_cat >$d/out
echo "tap: ${PIPESTATUS[0]}"
tail -1 $d/out
lost=$(sed -n 's/^WARNING: Number of errors: 0, skipped probes: 0, lost events: \([0-9]*\)$/\1/p' $d/err)
grep -v '^WARNING: Number of errors: 0, skipped probes: 0, lost events: [0-9]*$' $d/err
echo "the ring was full: $((${lost:-0} > 0))"
echo "hits before the end: $(($(grep -c '^hit t_threadst_threadst_threadst_threads$' $d/out) > 0))"
