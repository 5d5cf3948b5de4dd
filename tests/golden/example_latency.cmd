# The README's example: a latency histogram of compute() in the bundled workload.
# Timings vary; the calls, the histogram's shape and that its counts sum to the calls do not.
w=@PROGRAMS@/../../examples/workload; @TAP@ ../../examples/latency.tp $w -c $w | awk '
  /^workload:/ { print; next }
  /^compute\(\): / { print $1, $2, $3; next }
  /^ *value \|-+ count$/ { print "header ok"; next }
  /^ *[0-9]+ \|@* +[0-9]+$/ { sum += $NF; next }
  /^$/ { next }
  /^ *~$/ { next }
  { print "unexpected: " $0 }
  END { print "histogram counts sum to " sum }'
