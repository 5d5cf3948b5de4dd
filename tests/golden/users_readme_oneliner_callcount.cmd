# README one-liner: calls[ppfunc()]++ on every function of the workload, with no
# probe that reads calls: SystemTap prints such a global when the session ends,
# one line per entry sorted by value descending (spec/output.md). The counts
# follow from workload.c (fib is recursive: 430 probe hits in 20 rounds, as in
# example_callcount); entries with equal counts may come in any order, so they
# are sorted by name here after checking the order by value.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ callcount | awk '
  /^workload:/ { print; next }
  match($0, /^calls\["[a-z_0-9]+"\]=[0-9]+$/) {
    v = substr($0, index($0, "=") + 1) + 0
    if (seen && v > last) print "not sorted by value: " $0
    seen = 1; last = v; print | "LC_ALL=C sort -t= -k2,2nr -k1,1"; next
  }
  { print "unexpected: " $0 }
  END { fflush(); close("LC_ALL=C sort -t= -k2,2nr -k1,1"); if (!seen) print "no calls[...] lines" }'
