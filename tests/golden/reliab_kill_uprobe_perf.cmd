# SIGKILL of tap with uprobes attached as perf events (the path of kernels
# without uprobe_multi, forced by TAP_NO_UPROBE_MULTI=1), one of them
# sleepable (it reads a user string): every program goes with tap's fds,
# no tracefs uprobe remains, the traced program ends normally.
source ../kill_check.sh; t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
mkfifo $d/in; $t 2 0 10000 <$d/in >$d/target & target=$!; exec 3>$d/in
TAP_NO_UPROBE_MULTI=1 @TAP@ -x $target -e 'global n, m, s
probe process("'$t'").function("step") { if (!n++) println("attached"); m += $i }
probe process("'$t'").function("step").return { s = user_string2(0, "fault") }
probe process("'$t'").function("worker") { m++ }' >$d/out 2>&1 3>&- & tap=$!
wait_for_line $d/out attached $tap; ids=$(bpf_ids $tap); bpf_kinds $tap
kill -9 $tap; { wait $tap; } 2>/dev/null; echo "tap: $?"
report_left_behind "$ids"; echo "uprobe events: $(uprobe_events_naming $t)"
exec 3>&-; wait $target; echo "target: $?"; cat $d/target
