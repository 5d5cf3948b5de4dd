# README one-liner: context switches by the name of the task switched out
# (sched:sched_switch's $prev_comm) for one second, the 5 largest counts. Which
# tasks they are depends on the machine; the shape does not: 1 to 5 lines
# "%-16s %d" (a task name has at most 15 characters), most first.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ sched_switch | awk '
  length($0) >= 18 && substr($0, 1, 16) !~ /^ *$/ && substr($0, 17, 1) == " " && substr($0, 18) ~ /^[0-9]+$/ {
    n = substr($0, 18) + 0; if (rows && n > prev) print "not sorted by count: " $0
    rows++; prev = n; next
  }
  { print "unexpected: " $0 }
  END { print (rows >= 1 && rows <= 5 ? "1 to 5 rows" : rows + 0 " rows") }'
