# -L lists process.syscall's variables by SystemTap's names, for every
# process or one (by pid, by path).
@TAP@ -L 'process.syscall'
@TAP@ -L 'process(1).syscall.return'
@TAP@ -L 'process("/bin/sh").syscall'
