# SIGKILL of tap running a -c command: the command is not killed with it
# and runs on to its normal end (when its standard input ends, after the
# checks); nothing of tap stays attached.
source ../kill_check.sh; t=@PROGRAMS@/t_threads; d=$(mktemp -d); trap 'rm -rf $d' EXIT
mkfifo $d/in; exec 3<>$d/in
@TAP@ -c "$t 2 0 10000" -o $d/out -e 'global n
probe process("'$t'").function("step") { if (!n++) println("attached") }' <$d/in >$d/target 2>&1 3>&- & tap=$!
wait_for_line $d/out attached $tap; ids=$(bpf_ids $tap)
target=$(pgrep -P $tap -x t_threads)
kill -9 $tap; { wait $tap; } 2>/dev/null; echo "tap: $?"
report_left_behind "$ids"
exec 3>&-; while kill -0 $target 2>/dev/null; do sleep 0.1; done; cat $d/target
