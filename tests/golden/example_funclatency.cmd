# examples/funclatency.tp on the workload: the calls per function are fixed
# (fib is recursive: 430 calls in 20 rounds), timings are not; each histogram's
# counts must add up to its calls.
w=@PROGRAMS@/../../examples/workload; @TAP@ ../../examples/funclatency.tp $w '*' -c $w | awk '
  /^workload:/ { print; next }
  /^[a-z0-9_]+: [0-9]+ calls, avg [0-9]+ us, max [0-9]+ us$/ { if (name != "") print name, calls, sum; name = $1; calls = $2; sum = 0; next }
  /^ *value \|-+ count$/ { next }
  /^ *[0-9]+ \|@* +[0-9]+$/ { sum += $NF; next }
  /^$/ || /^ *~$/ { next }
  { print "unexpected: " $0 }
  END { print name, calls, sum }'
