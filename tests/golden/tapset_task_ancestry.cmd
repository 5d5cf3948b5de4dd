# task_ancestry() against /proc (task_check.py): tap's parent is this shell,
# whose ancestors /proc lists up to init, whose parent is the idle task
# (swapper/0, started at 0). A parent is the thread that forked (the kernel's
# real_parent), so a name is that of one of its process's threads (pid 1's
# threads may have names of their own). With time, each name carries its process's
# start since boot, which /proc/PID/stat's starttime gives in 10 ms ticks.
out=$(mktemp); trap 'rm -f $out' EXIT
@TAP@ -e 'probe begin { t = task_parent(task_current()); printf("tap plain %s\ntap timed %s\n", task_ancestry(t, 0), task_ancestry(t, 1)); exit() }' >$out
{ cat $out; python3 -c '
import os, sys
pid, names, starts = int(sys.argv[1]), [], []
while pid > 0:
    text = open("/proc/%d/stat" % pid).read()
    fields = text.rsplit(")", 1)[1].split()
    threads = os.listdir("/proc/%d/task" % pid)
    names.insert(0, "\x1f".join(open("/proc/%d/task/%s/comm" % (pid, t)).read()[:-1] for t in threads))
    starts.insert(0, fields[19])
    pid = int(fields[1])
print("proc names", "\t".join(["swapper/0"] + names))
print("proc starts", " ".join(["0"] + starts))' $$; } | ./task_check.py ancestry
