# At -O2 twice(), twice_tail(), by_pointer() and alone() start with a lea or a mov, which the kernel single-steps: the probes on twice (two direct calls and twice_tail's tail jmp), twice_tail and alone move to their calls, each emulated; by_pointer's address is taken, so it stays at its entry. Counts and arguments are the same as with --no-call-sites, which keeps every probe at the entry. A handler reading uaddr() stays at the entry too.
script='global n
probe process("@PROGRAMS@/t_calls_o2").function("twice") { n["twice"]++; if ($a >= 100) printf("twice a=%d b=%d\n", $a, $b) }
probe process("@PROGRAMS@/t_calls_o2").function("by_pointer"), process("@PROGRAMS@/t_calls_o2").function("alone"),
      process("@PROGRAMS@/t_calls_o2").function("twice_tail") { n[ppfunc()]++ }
probe end { foreach (f+ in n) printf("%s %d\n", f, n[f]) }'
for opt in --disable-cache --no-call-sites; do echo "$opt:"; @TAP@ $opt -c @PROGRAMS@/t_calls_o2 -e "$script"; done
@TAP@ -v -p2 -e "$script"' probe process("@PROGRAMS@/t_calls_o2").function("alone") { printf("%x\n", uaddr()) }' 2>&1 | grep -o 'function("[a-z_]*@[^"]*") sits .*' | sed 's/@[^"]*//'
@TAP@ -p2 -e "$script" | grep -o 'function("[a-z_]*@[^"]*") /\* uprobe pc=0x[0-9a-f]*[ a-z=0-9x,]*' | sed 's/@[^"]*//; s/0x[0-9a-f]*/ADDR/g; s/ *$//'
many=$(for i in $(seq 21); do echo "probe process(\"@PROGRAMS@/t_calls_o2\").function(\"twice\") { }"; done); @TAP@ -v -p2 -e "$many" 2>&1 | grep -E "sits|single-stepped entries"
