# examples/flame.tp on spin (busy for 300 ms) writes folded stacks to the -o
# file. Lines naming the same functions are added up (as flamegraph.pl does);
# then the stack counted most is _start;...;main;hot;work (hot() runs three
# times as long as warm(); the walk goes through libc back to the program's
# _start), main;warm;work comes after, and
# every line has the folded form (frames joined by ';', then the count).
f=$(mktemp); s=@PROGRAMS@/../../examples/spin; @TAP@ ../../examples/flame.tp -c "$s 300" -o $f; awk '
  !/^[^ ;]+(;[^ ;]+)* [0-9]+$/ { print "not folded: " $0; next }
  { n = $NF; sub(/ [0-9]+$/, ""); sum[$0] += n; total += n }
  END {
    for (k in sum) if (sum[k] > best) { best = sum[k]; top = k }
    for (k in sum) if (k ~ /(^|;)main;hot;work$/) hot += sum[k]; else if (k ~ /(^|;)main;warm;work$/) warm += sum[k]
    print (top ~ /^_start;.*;main;hot;work$/ ? "counted most: _start;...;main;hot;work" : "counted most: " top)
    print (warm > 0 && warm < hot ? "main;warm;work: fewer" : "main;warm;work: " warm + 0 ", main;hot;work: " hot + 0)
  }' $f; rm -f $f
