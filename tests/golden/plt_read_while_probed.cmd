# PLT stubs are read from the file while another tracer has uprobes on them: the kernel writes its
# int3s into every private mapping of the file that may execute, a read-only one too, so stubs read
# through libelf's mapping decoded to nothing ("has no PLT entries": two goldens probing t_plt_ibt
# side by side failed so). A first tap holds uprobes on every stub of t_plt_ibt; a second lists them.
out=$(mktemp); @TAP@ -T 30 -e 'probe process(@1).plt { } probe timer.ms(1) { if (!done++) println("holding") } global done' @PROGRAMS@/t_plt_ibt >"$out" 2>&1 & holder=$!
for i in $(seq 200); do grep -q holding "$out" && break; sleep 0.1; done; cat "$out"
@TAP@ -L 'process("@PROGRAMS@/t_plt_ibt").plt' | sed "s|@PROGRAMS@/|PROGRAMS/|g"
kill -INT $holder; wait $holder; echo "holder exit $?"; rm -f "$out"
