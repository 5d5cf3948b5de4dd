# SIGKILL of tap while a uprobe_multi link (entry and return probes), a
# tracepoint and perf events are attached: the kernel drops every link and
# program with tap's fds, no tracefs uprobe remains, and the traced program
# runs on to its normal end with its normal output (it stops when its
# standard input ends, once the checks are done).
source ../kill_check.sh; t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
mkfifo $d/in; $t 2 0 10000 <$d/in >$d/target & target=$!; exec 3>$d/in
@TAP@ -x $target -e 'global n, m, k
probe process("'$t'").function("step") { if (!n++) println("attached") }
probe process("'$t'").function("step").return { m++ }
probe kernel.trace("sched:sched_switch") { k++ }
probe timer.profile { k++ } probe perf.sw.cpu_clock { k++ }' >$d/out 2>&1 3>&- & tap=$!
wait_for_line $d/out attached $tap; ids=$(bpf_ids $tap); bpf_kinds $tap
kill -9 $tap; { wait $tap; } 2>/dev/null; echo "tap: $?"
report_left_behind "$ids"; echo "uprobe events: $(uprobe_events_naming $t)"
exec 3>&-; wait $target; echo "target: $?"; cat $d/target
