# README one-liner: a latency histogram of compute() in microseconds. Timings
# vary; the header, the layout of the rows (powers of 2, one after the other)
# and that the counts add up to compute()'s 20 calls do not.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ latency_hist | awk '
  /^workload:/ { print; next }
  /^ *value \|-+ count$/ { print "header ok"; next }
  /^ *[0-9]+ \|@* +[0-9]+$/ {
    if (rows && !gap && $1 != 2 * prev) print "row " $1 " after " prev
    rows++; gap = 0; prev = $1; sum += $NF; next
  }
  /^ *~$/ { gap = 1; next }
  /^$/ { next }
  { print "unexpected: " $0 }
  END { print (rows >= 3 ? "3 rows or more" : rows + 0 " rows") ", counts sum to " sum + 0 }'
