# examples/topsyscalls.tp on the copier, whose own calls are counted by hand
# (copier.c): write 10 + 79 + 10 + 3 + 1 (stdout), read 80 + 11 + 4 + 1
# (ld.so reads libc's header), openat and close 2 (ld.so) + 1 + 3 x 2,
# clock_nanosleep 3. The dynamic loader's mmap, brk... are left out.
d=$(mktemp -d); c=@PROGRAMS@/../../examples/copier; @TAP@ ../../examples/topsyscalls.tp -c "$c $d" | cat | awk '
  NR <= 2 || $2 ~ /^(write|read|openat|close|clock_nanosleep)$/'; rmdir $d
