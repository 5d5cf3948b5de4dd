# libc without its separate debug info (libc6-dbg), as the output below expects: SYSTEMTAP_DEBUGINFO_PATH names no directory.
# ubacktrace() kept as keys in a system-wide timer.profile, of a program
# started after tap (system() in begin, after a pause), printed in end
# with print_ustack() once it has exited: its mappings were recorded as it
# made them (perf MMAP2 records), so its frames are named in its files.
# hot() runs nine times as long as cold(), so the stack counted most
# starts in hot().
SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -T 4 -e 'global p probe timer.profile { if (execname() == "t_stack") p[ubacktrace()]++ } probe begin { system("sleep 0.2; exec @PROGRAMS@/t_stack 150") } probe end { foreach (s in p- limit 1) print_ustack(s) }' | sed -E "s|$(realpath @PROGRAMS@)|PROGRAMS|; s/^ 0x[0-9a-f]+ : ([a-z_]+)\+0x[0-9a-f]+\/0x[0-9a-f]+ /  \1 /; s/^ 0x[0-9a-f]+ \[\/.*libc\.so\.6\+0x[0-9a-f]+\]$/  library frame/"
