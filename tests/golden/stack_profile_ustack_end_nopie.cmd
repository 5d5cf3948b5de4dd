# libc without its separate debug info (libc6-dbg), as the output below expects: SYSTEMTAP_DEBUGINFO_PATH names no directory.
# Issue 15 (4): stacks kept as keys in timer.profile (ubacktrace() strings),
# printed in end with print_ustack() after the nopie program has exited: named
# in that program (not in tap, the process running end). hot() runs nine
# times as long as cold(), so the stack counted most starts in hot(). It
# goes on through libc to _start: the timer runs with interrupts off, where
# one bpf_find_vma a run found only the first file's mapping; the others
# come from tap_proc_maps (runtime/proc_maps.c).
SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -c "@PROGRAMS@/t_stack_nopie 20" -e 'global p probe timer.profile { if (pid() == target()) p[ubacktrace()]++ } probe end { foreach (s in p- limit 1) print_ustack(s) }' | sed -E "s|$(realpath @PROGRAMS@)|PROGRAMS|; s/^ 0x[0-9a-f]+ : ([a-z_]+)\+0x[0-9a-f]+\/0x[0-9a-f]+ /  \1 /; s/^ 0x[0-9a-f]+ \[\/.*libc\.so\.6\+0x[0-9a-f]+\]$/  library frame/"
