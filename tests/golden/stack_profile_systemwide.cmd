# timer.profile without a target, on spin started before tap (-O2, no frame
# pointers; its files are in no index built at start): the walk meets them,
# tap reads their CFI then (tap_unwind_wanted), and the mappings of every
# process come from tap_proc_maps (one bpf_find_vma a run, with interrupts
# off, found only the first). Lines naming the same functions are added up;
# the stack counted most goes from _start through libc to main;hot;work.
# spin runs until killed: in a TCG guest, compiling may take seconds.
s=@PROGRAMS@/../../examples/spin; $s 60000 & pid=$!; sleep 0.3
@TAP@ -T 4 -e 'global p probe timer.profile { if (pid() == $1) p[ubacktrace()]++ } probe end { foreach (s in p-) { print_ustack_folded(s); printf(" %d\n", p[s]) } }' $pid | awk '
  { n = $NF; sub(/ [0-9]+$/, ""); sum[$0] += n }
  END {
    for (k in sum) if (sum[k] > best) { best = sum[k]; top = k }
    print (top ~ /^_start;.*;main;hot;work$/ ? "counted most: _start;...;main;hot;work" : "counted most: " top)
  }'; kill $pid 2>/dev/null; wait
