# SystemTap's prometheus tapset: `probe prometheus` is the procfs file
# __prometheus, filled by the @prometheus_dump_array* macros (keys quoted with
# string_quoted, or pasted as they are by the _unquoted forms; values and keys
# through the map functions), read here as Prometheus's scraper would.
d=/run/tap/golden_procfs_prometheus
@TAP@ -T 20 -m golden_procfs_prometheus -e 'global calls, bytes, paths
function kib(n) { return sprintf("%dKiB", n / 1024) }
function upper(s) { return s == "read" ? "READ" : s }
probe begin { calls["read"] = 3; calls["wr\"ite"] = 5; bytes["read", 7] = 4096; bytes["write", 8] = 10240
              paths["/bin/sh"] = 2 }
probe prometheus {
    @prometheus_dump_array1(calls, "call_count", "syscall")
    @prometheus_dump_array2_map(bytes, "kib", "syscall", "pid", kib, upper, sprint)
    @prometheus_dump_array1_map_unquoted(paths, "usage_count", "path", sprint, sprint)
}' & tap=$!
for i in $(seq 200); do [ -p $d/__prometheus ] && break; sleep 0.05; done
sort $d/__prometheus
kill -INT $tap; wait $tap; echo "rc=$?"
