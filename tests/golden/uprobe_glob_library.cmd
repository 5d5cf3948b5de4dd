# .library("GLOB") matches the libraries the program loads (its DT_NEEDED and theirs), by file name,
# or by path when it has a '/'; a library that several files of a process glob load is probed once:
# t_calls* all load libc, whose exit() t_calls calls once. A pattern no library matches says what
# the program loads.
P=@PROGRAMS@
@TAP@ -c "$P/t_calls" -e "probe process(\"$P/t_calls*\").library(\"libc.so.6\").function(\"exit\") { printf(\"%s exit\n\", execname()) }"; echo "exit $?"
@TAP@ -c "$P/t_calls" -e "probe process(\"$P/t_calls*\").library(\"libc.so*\").function(\"exit\") { printf(\"%s exit\n\", execname()) }"; echo "exit $?"
@TAP@ -l "process(\"$P/t_calls\").library(\"/usr/lib/*/libc.so*\").function(\"exit\")"
@TAP@ -p2 -e "probe process(\"$P/t_calls\").library(\"libz*\").function(\"exit\") {}" 2>&1 | sed "s|$P/|PROGRAMS/|g"; echo "exit ${PIPESTATUS[0]}"
