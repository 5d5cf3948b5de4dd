# procfs files' permissions, as SystemTap's: 0444 for a read probe, 0222 for a
# write probe, less the umask (default 0044 and 0022: 0400 and 0200).
d=/run/tap/golden_procfs_umask
@TAP@ -T 20 -m golden_procfs_umask -e 'probe procfs("r").read { $value = "r\n" }
probe procfs("w").write { }
probe procfs("r0").umask(0).read { $value = "r0\n" }
probe procfs("r40").umask(0040).read.maxsize(64) { $value = "r40\n" }
probe procfs("w2").umask(0002).write { }' & tap=$!
for i in $(seq 200); do [ -p $d/w2 ] && break; sleep 0.05; done
cd $d && stat -c '%a %F %n' r w r0 r40 w2; cat r40; cd /
kill -INT $tap; wait $tap; echo "rc=$?"
