# examples/slowsyscalls.tp on the copier, threshold 15 ms (the lines sorted: tap's last line may come
# after the copier's own under an emulated kernel): its three 20 ms
# pauses (copier.c's settle()) are always there; on a loaded machine a read
# or write may be slow too, so only the pauses are compared (argstr as
# SystemTap's: the clock by name, the request read). The duration varies.
d=$(mktemp -d); c=@PROGRAMS@/../../examples/copier; @TAP@ ../../examples/slowsyscalls.tp 15 -c "$c $d" | cat |
  grep -E '^copier: |clock_nanosleep' | sed -E 's/0x[0-9a-f]{6,}/ADDR/; s/\[(1[5-9]|[2-9][0-9]|[0-9]{3,}) ms\]$/[>= 15 ms]/' | LC_ALL=C sort; rmdir $d
