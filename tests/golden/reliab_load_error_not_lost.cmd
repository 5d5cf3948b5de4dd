# A runtime error under load, with the output ring full (a slow consumer;
# records carry four strings): errors go through their own ring (tap_control), so the error is reported
# with its script location, the error probe runs, the session ends at once
# (the target would run for minutes) and tap exits 1. Both threads may fail
# before the session stops: only the first message and the count line's
# shape are fixed.
t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
# the reader holds back for 5 s from the target's start, not from the
# pipeline's (tap's compile under TCG took most of a fixed 3 s)
hold_then_cat() {
  for i in $(seq 600); do pgrep -f "^$t 2 20000000" >/dev/null && break; sleep 0.1; done
  sleep 5; cat
}
@TAP@ -s 1 -c "$t 2 20000000" -e 'global n, zero = 0
probe process("'$t'").function("step") {
  e = execname(); printf("hit %s%s%s%s\n", e, e, e, e); if (++n >= 50000) n = n / zero }
probe error { println("error probe ran") }' 2>$d/err | hold_then_cat >$d/out
echo "tap: ${PIPESTATUS[0]}"
tail -1 $d/out
head -1 $d/err
tail -1 $d/err | sed 's/[0-9][0-9]*/N/g'
echo "the ring was full: $(tail -1 $d/err | grep -c 'lost events: [1-9]')"
