# examples/rwsizes.tp on the copier (copier.c): fd 3 reads the input in 80 +
# 11 + 4 calls of 512, 4096 and 16384 bytes (plus ld.so's 832-byte read of
# libc), fd 4 gets 79 + 10 + 3 writes of what was read (the last of each pass
# short: 64, 3136, 7232 bytes), fd 3 the 10 writes of 4000 that made the
# input, fd 1 the 40-byte summary line.
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-   # descriptors the test runner leaks would shift the copier's
d=$(mktemp -d); c=@PROGRAMS@/../../examples/copier; @TAP@ ../../examples/rwsizes.tp -c "$c $d" | cat; rmdir $d
