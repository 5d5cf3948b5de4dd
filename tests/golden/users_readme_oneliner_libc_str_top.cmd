# README one-liner: calls into libc's str* functions by `ls /`, top 5: at most
# 5 lines "%-12s %d" of str* names, most called first. ls sorts its listing
# with strcoll, so strcoll (or its strcoll_l) is among them. ls's own listing
# of / is left out (names without a count).
set -o pipefail; bash users_readme_oneliner.sh @TAP@ libc_str_top | awk '
  !/ [0-9]+$/ { next }
  /^str[a-z0-9_]* +[0-9]+$/ && length($1) <= 12 && (length($1) == 12 || substr($0, 13, 1) == " ") {
    if (rows && $2 > prev) print "not sorted by count: " $0
    rows++; prev = $2; if ($1 ~ /^strcoll/) coll = 1; next
  }
  { print "unexpected: " $0 }
  END { print (rows >= 1 && rows <= 5 ? "1 to 5 rows" : rows + 0 " rows") ", strcoll " (coll ? "among them" : "missing") }'
