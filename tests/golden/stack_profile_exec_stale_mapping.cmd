# A wrong name is worse than none: usymname() of code in an anonymous
# mapping at 0x401000, in a process whose previous image (before its exec,
# same pid) had its text there. t_anon_code_nopie runs 300 ms after tap
# started (tap records its mappings), then execs t_anon_code, which runs a
# loop from an anonymous mapping at 0x401000. The exec ends the old image's
# mappings (a perf COMM exec record), so the loop's addresses are found in
# no file: hex. They were named after t_anon_code_nopie's functions there,
# from the dead image's entries in tap_proc_maps. t_anon_code sleeps 100 ms
# first: until tap reads the exec record (milliseconds) the old entries
# still answer.
@TAP@ -T 4 -e 'global seen probe timer.profile { if (execname() == "t_anon_code" && uaddr() >= 0x401000 && uaddr() < 0x402000) seen[usymname(uaddr())]++ } probe begin { system("sleep 0.2; exec @PROGRAMS@/t_anon_code_nopie 1500") } probe end { foreach (n in seen) println(n) }' | sed -E 's/^0x40100[0-9a-f]$/hex/' | sort -u
