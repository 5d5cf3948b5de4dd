# Threads already running when tap starts: each thread of the -x target other than its first has its
# process.thread.begin once, at its first system call after tap's start, in its own context (tid() is
# its own); the first thread has none, and the process one process.begin. The target: t_threads with
# three workers calling usleep(2000) in a loop until its standard input (a FIFO this shell holds) ends.
d=$(mktemp -d) && mkfifo $d/in || exit 1
@PROGRAMS@/t_threads 3 0 2000 <$d/in >/dev/null & pid=$!
exec 3>$d/in
sleep 0.5
@TAP@ -x $pid -e 'global t, first, b
probe process.thread.begin { if (pid() == target()) { if (tid() == pid()) first++ else t[tid()]++ } }
probe process.begin { if (pid() == target()) b++ }
probe timer.s(1) { exit() }
probe end {
    n = 0; more = 0
    foreach (k in t) { n++; if (t[k] != 1) more++ }
    printf("thread.begin: %d threads, %d more than once, %d in the first; process.begin: %d\n", n, more, first, b)
}'
exec 3>&-
wait $pid
rm -r $d
