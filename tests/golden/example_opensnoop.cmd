# examples/opensnoop.tp on the copier, run in a fresh directory with relative
# paths: the loader's two opens, then the copier's own (copier.c).
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-   # descriptors the test runner leaks would shift the copier's
c=$(realpath @PROGRAMS@/../../examples/copier); s=$PWD/../../examples/opensnoop.tp; d=$(mktemp -d)
(cd $d && @TAP@ $s -c "$c ." | cat); rmdir $d
