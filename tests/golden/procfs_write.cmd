# procfs write probes: what writers write is the probe's $value as it comes
# (each read of the FIFO's worth: a writer's write(2), unless writers follow
# each other faster than tap reads), in pieces of at most 95 bytes (the BPF
# context's room; SystemTap's are MAXSTRINGLEN - 1); each .write probe on the
# file runs. This case waits for each write's line before the next write.
d=/run/tap/golden_procfs_write; out=$(mktemp)
@TAP@ -T 20 -o $out -m golden_procfs_write -e 'probe procfs("in").write { printf("in: %d [%s]\n", strlen($value), $value) }
probe procfs("in").write { if ($value == "stop\n") exit() }
probe procfs.write { printf("command: %s", $value) }' & tap=$!
for i in $(seq 200); do [ -p $d/command ] && break; sleep 0.05; done
lines() { for i in $(seq 200); do [ "$(grep -c '' $out)" -ge $1 ] && break; sleep 0.05; done; }
echo hello > $d/in; lines 2
printf 'no newline' > $d/in; lines 3
echo cmd > $d/command; lines 4
printf '%0100d' 0 > $d/in; lines 6
echo stop > $d/in
wait $tap; echo "rc=$?"
cat $out; rm -f $out
[ -e $d ] || echo gone
