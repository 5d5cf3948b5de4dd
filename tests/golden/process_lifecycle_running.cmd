# A process already running when tap starts (the -x target: a shell looping
# over sleep) has each process.begin probe fire once, at its first system
# call after tap's start, in its own context; its children (each sleep)
# begin at their fork and exec, in the -x tree (how many in 2 s depends on
# the machine: a VM under load forks twice). Two begin probes: each
# fires once for the target.
sh -c 'while :; do sleep 0.05; done' & pid=$!
@TAP@ -x $pid -e 'global n, m
probe process.begin { if (pid() == target()) n[execname(), tid() == pid()]++ else m[execname()]++ }
probe process.begin { if (pid() == target()) n["second probe", 1]++ }
probe timer.s(2) { exit() }
probe end {
    foreach ([e+, main] in n) printf("target %s %d: %d\n", e, main, n[e, main])
    foreach (e+ in m) printf("children: %s %d\n", e, m[e] > 0)
}'
kill $pid
