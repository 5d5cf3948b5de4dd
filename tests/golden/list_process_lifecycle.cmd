# -L lists the lifecycle points: every process, one by pid, one by path.
@TAP@ -L 'process.begin'
@TAP@ -L 'process.thread.end'
@TAP@ -L 'process(1).end'
@TAP@ -L 'process("/bin/sh").thread.begin'
