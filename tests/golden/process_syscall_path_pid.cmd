# process("PATH").syscall: in every process running that executable, -c or
# not, and nowhere else: a copy of t_fork (an inode no other case runs), run
# twice by a shell, exits 4 times (2 parents, 2 children); the shell's exits
# don't count. process(PID).syscall.return: in that process only (a shell
# that starts a sleep every 0.1 s, whenever tap is ready).
d=$(mktemp -d) && cp @PROGRAMS@/t_fork $d/t_fork_copy && @TAP@ -e 'global exits, execs probe process("'$d'/t_fork_copy").syscall { if ($syscall == 231) exits++; execs[execname()] = 1 } probe end { printf("exit_group %d in", exits); foreach (e in execs) printf(" %s", e); println("") }' -c "sh -c '$d/t_fork_copy 1; $d/t_fork_copy 2; exit 0'"; rm -r $d
sh -c 'while :; do sleep 0.1; done' & pid=$!; @TAP@ -e 'probe process('$pid').syscall.return { printf("a syscall returned in the process: %d\n", pid() == '$pid'); exit() }'; kill $pid
