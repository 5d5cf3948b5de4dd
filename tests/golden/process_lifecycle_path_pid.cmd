# process("PATH").begin/.end/.thread.*: the processes running that executable
# (a copy of t_lifecycle: an inode no other case runs), -c or not: it begins
# 3 times (the shell's exec, 2 forks), ends 3 times (a child's exec of true
# away from it, a child's exit, its own exit), 3 threads begin and end;
# process("/bin/true") begins at that exec and ends at true's exit (its
# executable was recorded at the exec). process(PID): a subshell that waits
# for tap (a FIFO the begin probe writes), then execs true: an end at the
# exec away, true's begin in the same process, an end at its exit.
d=$(mktemp -d); cp @PROGRAMS@/t_lifecycle $d/t_lc; mkfifo $d/go
(read x < $d/go; exec /bin/true) & pid=$!
@TAP@ -e 'global n
probe process("'$d'/t_lc").begin { n["path begin " . execname()]++ }
probe process("'$d'/t_lc").end { n["path end " . execname()]++ }
probe process("'$d'/t_lc").thread.begin { n["path thread.begin " . execname()]++ }
probe process("'$d'/t_lc").thread.end { n["path thread.end " . execname()]++ }
probe process("/bin/true").begin { n["true begin " . execname()]++ }
probe process("/bin/true").end { n["true end " . execname()]++ }
probe process('$pid').begin { n[sprintf("pid begin %s %d", execname(), pid() == '$pid')]++ }
probe process('$pid').end { n[sprintf("pid end %s %d", execname(), pid() == '$pid')]++ }
probe begin { system("echo > '$d'/go") }
probe end { foreach (e+ in n) printf("%s %d\n", e, n[e]) }' -c "sh -c '$d/t_lc /bin/true; sleep 0.2'"; wait; rm -r $d
