# issue 15, defect 8: -x names a process that does not exist (pid_max is at most 4194304, so 999999 may exist only on machines with a raised pid_max; this one's is 32768): an error before anything is compiled or attached, not a warning and a session that never ends.
@TAP@ -x 999999 -e 'probe begin{exit()}'
