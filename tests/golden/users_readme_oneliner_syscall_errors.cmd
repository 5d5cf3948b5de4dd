# README one-liner: the failing system calls of `ls /`, with the error. Which
# fail depends on the machine (the PATH search for ls, locale files); on any
# Debian 12, the loader's access("/etc/ld.so.preload") fails with ENOENT and
# ls's isatty(1) ioctl with ENOTTY (stdout is a pipe). ls's listing of / is
# left out (names without " = ").
set -o pipefail; bash users_readme_oneliner.sh @TAP@ syscall_errors | awk '
  !/ = / { next }
  /^[a-z0-9_]+ = -[0-9]+ \([A-Z0-9]+\)$/ { n++; if (!seen[$0]++ && ($1 == "access" || $1 == "ioctl")) print; next }
  { print "unexpected: " $0 }
  END { print (n >= 2 ? "2 failures or more" : n + 0 " failures") }' | LC_ALL=C sort
