# README one-liner: files `cat /etc/hostname` opens (syscall.openat, execname()
# and filename). The loader's and libc's opens depend on the machine (locales);
# cat's own open of its argument, on the stack since exec, is there once with
# its name. A name in a page not yet touched may print as its address (the
# tapset's user_string_quoted fallback), so both shapes are accepted for the
# others. The hostname cat prints is left out.
set -o pipefail; bash users_readme_oneliner.sh @TAP@ opens | awk '
  !/^cat / { next }
  /^cat ("[^"]*"|0x[0-9a-f]+)$/ { opens++; if ($0 == "cat \"/etc/hostname\"") hostname++; next }
  { print "unexpected: " $0 }
  END { print (opens >= 3 ? "3 opens or more" : opens + 0 " opens") ", /etc/hostname " hostname + 0 " time(s)" }'
