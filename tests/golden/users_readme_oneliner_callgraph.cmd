# README one-liner: an indented call graph of compute() and fib() (the
# workload's functions matching [cf]*) with thread_indent(), as SystemTap
# formats it ("%6d %s:%-*s": microseconds since the outermost call began,
# execname(tid), one space per level below it). Round 0 is printed as it is,
# without the times and the tid; then every line is checked: each call opens
# a level, each return closes the innermost open call at its indentation, an
# outermost call starts at 0 us and time does not go backwards within it.
# 20 calls of compute(); fib() is hit 430 times (workload.c at -O2 turns one of
# its two recursive calls into a loop), every call returns.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ callgraph | awk '
  /^workload:/ { workload = $0; next }
  !match($0, /^ *[0-9]+ workload\([0-9]+\):( *)(->|<-) (compute|fib)$/) { print "unexpected: " $0; next }
  {
    ts = $1 + 0; split($0, parts, "):"); rest = parts[2]
    indent = (index(rest, "->") ? index(rest, "->") : index(rest, "<-")) - 2
    arrow = (rest ~ /->/) ? "->" : "<-"; fn = rest; sub(/^ *(->|<-) /, "", fn)
    if (depth == 0 && ts != 0) print "outermost call not at 0 us at line " NR
    if (depth > 0 && ts < last) print "time goes back at line " NR
    last = ts
    if (NR <= 6) { line = $0; sub(/^ *[0-9]+ workload\([0-9]+\):/, "workload(TID):", line); print line }
    if (arrow == "->") { if (indent != depth) print "bad call indent at line " NR; stack[++depth] = fn; calls[fn]++ }
    else { if (depth == 0 || stack[depth] != fn || indent != depth - 1) print "bad return at line " NR; depth--; returns++ }
  }
  END { print calls["compute"] + 0 " calls of compute, " calls["fib"] + 0 " of fib, " returns + 0 " returns, " depth + 0 " left open"; print workload }'
