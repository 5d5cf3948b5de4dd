# README one-liner: malloc sizes of `ls /usr` as a histogram (libc's malloc,
# no debug information). What ls allocates depends on the machine; the header,
# the rows (powers of 2, one after the other, the first at 1 or below the
# smallest size: SystemTap shows two empty rows before the first used one) and
# a few tens of calls at least (locale, directory entries) do not. ls's own
# listing of /usr is left out.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ malloc_hist | awk '
  /^ *value \|-+ count$/ { print "header ok"; header = 1; next }
  header && /^ *[0-9]+ \|@* +[0-9]+$/ {
    if (rows && !gap && $1 != 2 * prev) print "row " $1 " after " prev
    rows++; gap = 0; prev = $1; sum += $NF; next
  }
  header && /^ *~$/ { gap = 1; next }
  header && !/^$/ { print "unexpected: " $0 }
  END { print (rows >= 4 ? "4 rows or more" : rows + 0 " rows") ", " (sum >= 20 ? "20 calls or more" : sum + 0 " calls") }'
