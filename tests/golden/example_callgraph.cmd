# examples/callgraph.tp on the workload: thread_indent() as SystemTap formats
# it ("%6d %s:%-*s": microseconds since the outermost call, execname(tid),
# one space per level below the first). Round 0 is printed as it is, without
# the times and the tid; then every line of the 200 returns is checked: each
# return closes the innermost open call, at its indentation, and time does
# not go backwards. The session ends at the 200th return, inside main().
w=@PROGRAMS@/../../examples/workload; @TAP@ ../../examples/callgraph.tp $w '*' -c $w | awk '
  !match($0, /^ *[0-9]+ workload\([0-9]+\):( *)(->|<-) ([a-z0-9_]+)$/) { print "unexpected: " $0; next }
  {
    ts = $1 + 0; split($0, parts, "):"); rest = parts[2]
    indent = (index(rest, "->") ? index(rest, "->") : index(rest, "<-")) - 2
    arrow = (rest ~ /->/) ? "->" : "<-"; fn = rest; sub(/^ *(->|<-) /, "", fn)
    if (NR == 1 && ts != 0) print "first time not 0: " ts
    if (ts < last) print "time goes back at line " NR
    last = ts
    if (NR <= 12) { line = $0; sub(/^ *[0-9]+ workload\([0-9]+\):/, "workload(TID):", line); print line }
    if (arrow == "->") { if (indent != depth) print "bad call indent at line " NR; stack[++depth] = fn }
    else { if (stack[depth] != fn || indent != depth - 1) print "bad return at line " NR; depth--; returns++ }
  }
  END { print returns " returns; _start and main still open: " (stack[1] == "_start" && stack[2] == "main" && depth >= 2) }'
