# A read probe's $value holds MAXSTRINGLEN bytes less its NUL unless
# .maxsize(N) says more; past it, SystemTap's runtime error (the size that
# would do) and the reader gets what fit. .maxsize lets $value outgrow a string.
d=/run/tap/golden_procfs_maxsize
@TAP@ -T 20 -m golden_procfs_maxsize -e 'probe procfs("big").read.maxsize(2000) {
    $value = ""
    for (i = 0; i < 30; i++) $value .= sprintf("%02d %s\n", i, "0123456789012345678901234567890123456789")
}
probe procfs("small").read.maxsize(8) { $value = "1234"; $value .= "56789"; $value .= "more" }' & tap=$!
for i in $(seq 200); do [ -p $d/small ] && break; sleep 0.05; done
cat $d/big | md5sum; cat $d/big | wc -c; cat $d/small; echo
wait $tap; echo "rc=$?"
