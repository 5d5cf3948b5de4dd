#!/usr/bin/env python3
"""Checks the task_* functions' output (stdin) against what the kernel shows
in /proc, which the traced program (or the case's command) printed beside it:
lines "tap KEY VALUES..." come from the script, "proc KEY VALUES..." from the
ground truth, in any order. Prints one verdict per check; any other line is
copied."""
import re, sys

tap, proc, other = {}, {}, []
for line in sys.stdin.read().splitlines():
    words = line.split(" ", 2)
    if len(words) == 3 and words[0] in ("tap", "proc"):
        (tap if words[0] == "tap" else proc)[words[1]] = words[2]
    else:
        other.append(line)

def ms(text):
    """ "usr: 0m1.234s, sys: 0m0.005s" -> (1234, 5) """
    m = re.fullmatch(r"usr: (\d+)m(\d+)\.(\d{3})s, sys: (\d+)m(\d+)\.(\d{3})s", text)
    if not m:
        return None
    v = [int(x) for x in m.groups()]
    return ((v[0] * 60 + v[1]) * 1000 + v[2], (v[3] * 60 + v[4]) * 1000 + v[5])

def nsecs(text):
    """ "1m2.000000003s" -> 62000000003 """
    m = re.fullmatch(r"(\d+)m(\d+)\.(\d{9})s", text)
    return (int(m[1]) * 60 + int(m[2])) * 10**9 + int(m[3]) if m else None

def check_times():
    # /proc/PID/stat: starttime, utime, stime in clock ticks (USER_HZ 100)
    start, utime, stime = (int(x) for x in proc["stat"].split())
    print("task_start_time matches /proc/PID/stat:", int(int(tap["start"]) // 10**7 == start))
    print("task_start_time of no thread:", tap["start_none"])
    # the kernel's utime/stime (tap) against /proc's, which scales both by
    # the exact runtime over their sum (cputime_adjust): the user share is
    # the same (within 5 points: /proc is read a little later), the sum no
    # more than /proc's (plus 0.1 s); ticks lost under emulation shrink the
    # sum, not the share. The program spun for 0.2 s or more of user time.
    proc_sum = (utime + stime) * 10
    for key in ("time", "time_tid"):
        got = ms(tap[key])
        close = got and sum(got) > 0 and proc_sum > 0 and \
            abs(got[0] / sum(got) - utime * 10 / proc_sum) <= 0.05 and sum(got) <= proc_sum + 100
        print(key, "usr >= 0.2 s:", int(bool(got) and got[0] >= 200), "near /proc/PID/stat:", int(bool(close)))
    print("task_time_string_tid of no thread:", tap["time_none"])

def check_rlimits():
    truth = proc["limits"].split()
    for key in ("limits", "named"):
        got = tap[key].split()
        print(key, "match /proc/PID/limits:", sum(a == b for a, b in zip(got, truth)), "of", len(truth))
    print("unknown names:", tap["unknown"])

def check_ancestry():
    # a level's names: those of its process's threads, one of which forked
    levels = [set(l.split("\x1f")) for l in proc["names"].split("\t")]
    starts = [int(x) for x in proc["starts"].split()]
    plain = tap["plain"].split("=>")
    print("names match /proc:", int(len(plain) == len(levels) and all(n in l for n, l in zip(plain, levels))))
    got = [re.fullmatch(r"(.*)\((\S+)\)", p) for p in tap["timed"].split("=>")]
    ok = len(got) == len(levels) and all(g and g[1] in l for g, l in zip(got, levels))
    print("timed names match /proc:", int(ok))
    ticks = [nsecs(g[2]) // 10**7 if g and nsecs(g[2]) is not None else None for g in got]
    print("start times match /proc/PID/stat:", int(ok and ticks == starts))

def check_namespaces():
    pid, tid = proc["nspid"].split(), proc["nstid"].split()
    ns = tap["ns"].split()
    print("in a nested pid namespace:", int(len(pid) == 2 and pid[1] != pid[0]))
    print("task_ns_pid, task_ns_tid as tap's namespace sees them:", int(ns[0] == pid[0]), int(ns[1] == tid[0]))
    print("not the nested namespace's:", int(ns[0] != pid[1]), int(ns[1] != tid[1]))
    ids = proc["ids"].split()    # uid, euid, gid, egid
    print("four ids of their own:", int(len(set(ids)) == 4))
    print("task_ns_uid, euid, gid, egid as tap's sees them:", *(int(a == b) for a, b in zip(ns[2:], ids)))

{"times": check_times, "rlimits": check_rlimits, "ancestry": check_ancestry,
 "namespaces": check_namespaces}[sys.argv[1]]()
for line in other:
    print(line)
