# do_mmap has 9 arguments: where fentry takes 6 (6.1), it runs on a kprobe,
# which reads $pgoff, the 7th, from the stack at the entry. Running
# /bin/true maps its segments, its loader's and libc's at their file offsets
# (readelf's LOAD offsets, in pages): the nonzero $pgoff values of the
# target are exactly those.
d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -c /bin/true -e 'probe kernel.function("do_mmap") { if (pid() == target() && $pgoff) printf("%x\n", $pgoff) }' | sort -u > $d/got
echo "tap: ${PIPESTATUS[0]}"
for f in /bin/true /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6; do
  readelf -lW $f | while read -r kind offset rest; do
    [[ $kind == LOAD ]] && ((offset >= 4096)) && printf '%x\n' $((offset / 4096))
  done
done | sort -u > $d/want
echo "offsets: $(wc -l < $d/want)"
cmp -s $d/got $d/want && echo "the 7th argument matches them" || { echo "got:"; cat $d/got; echo "want:"; cat $d/want; }
