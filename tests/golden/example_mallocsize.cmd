# examples/mallocsize.tp on the copier: its three copy buffers (512, 4096,
# 16384 bytes) and stdout's buffer (4096 bytes: a pipe's st_blksize) are the
# malloc calls of the program itself; libc may add small ones of its own, so
# only the buckets from 512 up are compared. By caller: copy_file made three
# calls of 512 + 4096 + 16384 bytes and comes first (most bytes).
d=$(mktemp -d); c=@PROGRAMS@/../../examples/copier; @TAP@ ../../examples/mallocsize.tp -c "$c $d" | cat | awk '
  /^malloc: [0-9]+ calls, [0-9]+ bytes, largest [0-9]+$/ { print $1, "largest", $NF; next }
  /^ *value \|-+ count$/ { print "header ok"; next }
  /^ *[0-9]+ \|@* +[0-9]+$/ { if ($1 >= 512) print $1, $NF; next }
  /^$/ { next }
  /^CALLER +CALLS +BYTES$/ { print "callers:"; callers = 1; next }
  callers && ++rank == 1 { print "first", $1, $2, $3; next }
  callers { next }
  { print }'; rmdir $d
