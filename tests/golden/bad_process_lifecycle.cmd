# process.begin/.end/.thread.* have no target variables (as in SystemTap);
# a wrong lifecycle point says which are the process events; a missing
# executable.
@TAP@ -p2 -e 'probe process.begin { println($x) }'
@TAP@ -p2 -e 'probe process(1).thread.end { println($$parms) }'
@TAP@ -p2 -e 'probe process.thread { }'
@TAP@ -p2 -e 'probe process.begin.return { }'
@TAP@ -p2 -e 'probe process("/bin/sh").thread.begin(1) { }'
@TAP@ -p2 -e 'probe process("/nonexistent/prog").end { }'
