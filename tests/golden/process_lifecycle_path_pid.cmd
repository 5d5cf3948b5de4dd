# process("PATH").begin/.end/.thread.*: the processes running that executable
# (a copy of t_lifecycle: an inode no other case runs), -c or not: it begins
# 3 times (the shell's exec, 2 forks), ends 3 times (a child's exec of true
# away from it, a child's exit, its own exit), 3 threads begin and end;
# process("$d/true") (a copy of true) begins at that exec and ends at its
# exit (its executable was recorded at the exec). process(PID): a subshell
# already running when tap starts begins at its first system call after
# that (tap's scan of /proc), in its context; the handler lets it go on: it
# execs true (an end: the exec away; a begin), which exits (an end).
d=$(mktemp -d); cp @PROGRAMS@/t_lifecycle $d/t_lc; cp /bin/true $d/true
(while [ ! -e $d/go ]; do sleep 0.05; done; exec $d/true) & pid=$!
@TAP@ -e 'global n
probe process("'$d'/t_lc").begin { n["path begin " . execname()]++ }
probe process("'$d'/t_lc").end { n["path end " . execname()]++ }
probe process("'$d'/t_lc").thread.begin { n["path thread.begin " . execname()]++ }
probe process("'$d'/t_lc").thread.end { n["path thread.end " . execname()]++ }
probe process("'$d'/true").begin { n["true begin " . execname()]++ }
probe process("'$d'/true").end { n["true end " . execname()]++ }
probe process('$pid').begin {
    n[sprintf("pid begin %s %d", execname(), pid() == '$pid')]++
    if (!go++) system("touch '$d'/go")
}
probe process('$pid').end { n[sprintf("pid end %s %d", execname(), pid() == '$pid')]++ }
global go
probe end { foreach (e+ in n) printf("%s %d\n", e, n[e]) }' -c "sh -c 'while [ ! -e $d/go ]; do sleep 0.05; done; $d/t_lc $d/true; sleep 0.2'"; wait; rm -r $d
