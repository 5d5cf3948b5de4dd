# procfs read probes: each reader of /run/tap/MODULE/FILE runs the probe once
# and reads its $value (`=` sets it, `.=` appends), then EOF; procfs.read's
# file is "command"; a name with '/' makes the directories. All of it is gone
# once tap ends.
d=/run/tap/golden_procfs_read
@TAP@ -T 20 -m golden_procfs_read -e 'global n
probe procfs("hello").read { n++; $value = "hello"; $value .= sprintf(" %d\n", n) }
probe procfs.read { $value = "dropped"; $value = "command\n" }
probe procfs("sub/dir/leaf").read { $value = "leaf\n" }
probe end { printf("end: %d reads of hello\n", n) }' & tap=$!
for i in $(seq 200); do [ -p $d/sub/dir/leaf ] && break; sleep 0.05; done
cat $d/hello; cat $d/hello; cat $d/command; cat $d/sub/dir/leaf; cat $d/hello
kill -INT $tap; wait $tap; echo "rc=$?"
[ -e /run/tap/golden_procfs_read ] || echo gone
