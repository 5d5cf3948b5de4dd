# examples/syscallerrors.tp on `ls /nonexistent`: whatever else fails on the
# way (locale files, the PATH search for ls), ls's own statx of the missing
# path is there, and its failure is reported (status 2, so tap exits 1).
@TAP@ ../../examples/syscallerrors.tp -c 'ls /nonexistent' | awk '
  NR == 1 { print; next }
  /^[a-z0-9_]+ +-[0-9]+ \([A-Z0-9]+\) +[0-9]+$/ { if ($1 == "statx" && $3 == "(ENOENT)") print "statx ENOENT seen"; next }
  { print "unexpected: " $0 }'
