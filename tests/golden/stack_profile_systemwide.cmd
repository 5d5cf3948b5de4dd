# timer.profile without a target, on spin started before tap (-O2, no frame
# pointers; its files are in no index built at start): the walk meets them,
# tap reads their CFI then (tap_unwind_wanted), and the mappings of every
# process come from tap_proc_maps (one bpf_find_vma a run, with interrupts
# off, found only the first). Stacks sampled before the rows are read stop
# early (a TCG guest takes seconds to read them), so the check is that
# stacks of spin go from _start through libc to main;hot;work.
# spin runs until killed: in a TCG guest, compiling may take seconds.
s=@PROGRAMS@/../../examples/spin; $s 60000 & pid=$!; sleep 0.3
@TAP@ -T 4 -e 'global p probe timer.profile { if (pid() == $1) p[ubacktrace()]++ } probe end { foreach (s in p-) { print_ustack_folded(s); printf(" %d\n", p[s]) } }' $pid | awk '
  { sub(/ [0-9]+$/, "") }
  /^_start;.*;main;hot;work$/ { full = 1 }
  END { print (full ? "seen: _start;...;main;hot;work" : "no stack reaches _start") }'; kill $pid 2>/dev/null; wait
