# README one-liner: files `cat /etc/hostname` opens (syscall.openat, execname()
# and filename). The loader's and libc's opens depend on the machine (locales);
# cat's own open of its argument, on the stack since exec, is there once with
# its name. Every name must print as a string: one in a page not yet touched
# is read at the syscall's exit (issue 15, defect 7), never shown as its
# address. The hostname cat prints is left out.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ opens | awk '
  !/^cat / { next }
  /^cat "[^"]*"$/ { opens++; if ($0 == "cat \"/etc/hostname\"") hostname++; next }
  { print "unexpected: " $0 }
  END { print (opens >= 3 ? "3 opens or more" : opens + 0 " opens") ", /etc/hostname " hostname + 0 " time(s)" }'
