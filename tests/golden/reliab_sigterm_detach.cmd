# n is deleted in end: a count nobody wants printed at the end.
# After a normal end (SIGTERM) the links are closed by a background child
# once tap has exited (runtime.md: the user does not wait for detach); that
# child must not outlive its work: every program and link is freed soon
# after tap exits, and the traced program ends normally.
source ../kill_check.sh; t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
mkfifo $d/in; $t 2 0 10000 <$d/in >$d/target & target=$!; exec 3>$d/in
TAP_NO_UPROBE_MULTI=1 @TAP@ -x $target -e 'global n, k
probe process("'$t'").function("step") { if (!k++) println("attached") }
probe process("'$t'").function("worker") { n++ }
probe kernel.trace("sched:sched_switch") { n++ }
probe end { println("end ran"); delete n }' >$d/out 2>&1 3>&- & tap=$!
wait_for_line $d/out attached $tap; ids=$(bpf_ids $tap)
kill -TERM $tap; wait $tap; echo "tap: $?"; cat $d/out
report_left_behind "$ids"
exec 3>&-; wait $target; echo "target: $?"; cat $d/target
