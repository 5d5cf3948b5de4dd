# issue 20: the target SIGKILLs itself from inside a probed function (die(), whose entry probe has run and whose .return at its ret holds an @entry record) while its two threads are in and out of step()'s entry probe (a sleepable one: it reads a user string) and its .return at its single-stepped ret: tap runs the end probe (die called once, never returned), reports the signal in SystemTap's words, exits 1, and nothing of it stays attached (its programs and links freed, no tracefs uprobe event). Twice: with uprobe_multi links where the kernel has them, and with one perf event per uprobe (TAP_NO_UPROBE_MULTI=1).
source ../kill_check.sh; t=@PROGRAMS@/t_kill_in_probe; d=$(mktemp -d); trap 'rm -rf $d' EXIT
for no_multi in 0 1; do
mkfifo $d/in; exec 3<>$d/in
TAP_NO_UPROBE_MULTI=$no_multi @TAP@ -c $t -e 'global steps, rets, dies, died
probe process("'$t'").function("step") { if (!steps++) println("attached"); if (user_string($name) != "step") println("wrong name") }
probe process("'$t'").function("step").return { rets[@entry($i) >= 0]++ }
probe process("'$t'").function("die") { dies++ }
probe process("'$t'").function("die").return { died[@entry($signal)]++ }
probe end { printf("steps seen: %d, their returns seen: %d, die: %d calls, %d returns\n", steps > 0, rets[1] > 0, dies, died[9]) }' <$d/in >$d/out 2>$d/err 3>&- & tap=$!
wait_for_line $d/out attached $tap; ids=$(bpf_ids $tap)
echo go >&3; wait $tap; echo "tap: $?"
exec 3>&-; rm $d/in
report_left_behind "$ids"; echo "uprobe events: $(uprobe_events_naming $t)"
pgrep -x t_kill_in_probe >/dev/null && echo "target still running"
cat $d/out $d/err
done
