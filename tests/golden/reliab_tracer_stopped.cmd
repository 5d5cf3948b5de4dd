# issue 20: the tracer stopped (SIGSTOP) while its target runs: two threads call step() 20000 times each with a printf per call; tap is stopped as soon as its target has started, the target runs to its end (a zombie waiting for tap) within 60 s without tap ever running, then tap is continued: the target's answer is unchanged, and every event is either delivered or counted lost in the closing warning (delivered + lost == fired, fired counted by a BPF aggregate; the 1 MiB ring cannot hold 40000 records).
t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -s 1 -c "$t 2 20000 >$d/target" -e 'global fired
probe process("'$t'").function("step") { fired <<< 1; e = execname(); printf("hit %s%s%s%s\n", e, e, e, e) }
probe end { printf("fired %d\n", @count(fired)) }' >$d/out 2>$d/err &
tap=$!
# the target runs under tap's sh -c (for its redirection)
# (up to 60 s: under an emulated kernel, tap takes seconds to compile and attach)
for i in $(seq 1 6000); do kids=$(pgrep -d, -P $tap) && target=$(pgrep -x t_threads -P "$kids") && break; sleep 0.01; done
kill -STOP $tap
ended=0
for i in $(seq 1 6000); do
  state=$(awk '{ print $3 }' /proc/$target/stat 2>/dev/null)
  [[ $state == Z || -z $state ]] && { ended=1; break; }
  sleep 0.01
done
echo "target ended while tap was stopped: $ended"
kill -CONT $tap
wait $tap
echo "tap: $?"
cat $d/target
delivered=$(grep -c '^hit t_threadst_threadst_threadst_threads$' $d/out)
fired=$(sed -n 's/^fired //p' $d/out)
lost=$(sed -n 's/^WARNING: Number of errors: 0, skipped probes: 0, lost events: \([0-9]*\)$/\1/p' $d/err)
grep -v '^WARNING: Number of errors: 0, skipped probes: 0, lost events: [0-9]*$' $d/err
echo "fired: $fired"
echo "some lost: $((${lost:-0} > 0))"
echo "delivered + lost == fired: $((delivered + ${lost:-0} == fired))"
