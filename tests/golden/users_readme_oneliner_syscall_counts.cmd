# README one-liner: the system calls of `ls /`, counted into n[name]++ with no
# probe that reads n: SystemTap prints such a global when the session ends, one
# line per entry sorted by value descending (spec/output.md). Counts depend on
# the machine (PATH, locales, the size of /); those that follow from what ls
# does with a small directory do not: it reads it with getdents64 until a
# read returns nothing (2), writes its listing in one write (stdout is a
# pipe), and exits once. ls's listing of / is left out.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ syscall_counts | awk '
  !/^n\[/ { next }
  /^n\["[a-z0-9_]+"\]=[0-9]+$/ {
    v = substr($0, index($0, "=") + 1) + 0
    if (rows && v > last) print "not sorted by value: " $0
    rows++; last = v
    if ($0 ~ /^n\["(getdents64|write|exit_group)"\]=/) print
    next
  }
  { print "unexpected: " $0 }
  END { print (rows >= 10 ? "10 system calls or more" : rows + 0 " system calls") }' | LC_ALL=C sort
