# execve of a path not resident at the syscall's entry (t_cold_path --exec):
# deferred to sys_exit, a failed exec still has the caller's memory and
# prints the path; a successful one replaced it, so the read faults (the
# fallback) instead of reading the new image. tail drops the -c command's
# own exec.
SCRIPT='probe kernel.trace("syscalls:sys_enter_execve") { if (pid() == target()) println(user_string2($filename, "<gone>")) }'
@TAP@ -e "$SCRIPT" -c '@PROGRAMS@/t_cold_path --exec /nonexistent' | tail -n +2
@TAP@ -e "$SCRIPT" -c '@PROGRAMS@/t_cold_path --exec /bin/true' | tail -n +2
