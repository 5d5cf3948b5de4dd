# After a normal end (SIGTERM) the links are closed by a background child
# once tap has exited (runtime.md: the user does not wait for detach); that
# child must not outlive its work: every program and link is freed soon
# after tap exits, and the traced program ends normally.
source ../kill_check.sh; t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
$t 2 200 10000 >$d/target & target=$!
TAP_NO_UPROBE_MULTI=1 @TAP@ -x $target -e 'global n, k
probe process("'$t'").function("step") { if (!k++) println("attached") }
probe process("'$t'").function("worker") { n++ }
probe kernel.trace("sched:sched_switch") { n++ }
probe end { println("end ran") }' >$d/out 2>&1 & tap=$!
wait_for_line $d/out attached $tap; ids=$(bpf_ids $tap)
kill -TERM $tap; wait $tap; echo "tap: $?"; cat $d/out
report_left_behind "$ids"
wait $target; echo "target: $?"; cat $d/target
