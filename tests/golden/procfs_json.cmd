# SystemTap's JSON tapset: the json_add_* functions describe the metrics in
# metadata.json (in the order added, description and units only when given,
# an array's "__id" index left out of its metrics); each read of data.json runs
# `probe json_data`, whose @json_output_* macros write the values in
# SystemTap's layout (an array's indices as objects with "__id").
d=/run/tap/golden_procfs_json
@TAP@ -T 20 -m golden_procfs_json -e 'global reads, sizes
probe begin {
    json_set_prefix("golden")
    json_add_numeric_metric("reads", "Reads of data.json", "count")
    json_add_string_metric("state", "")
    json_add_array("files", "Sizes by file")
    json_add_array_numeric_metric("files", "size", "", "bytes")
    json_add_array_string_metric("files", "kind", "File kind")
    sizes["a"] = 10; sizes["b"] = 20
}
probe json_data {
    reads++
    @json_output_data_start
    @json_output_numeric_value("reads", reads)
    foreach (f in sizes) {
        @json_output_array_numeric_value("files", f, "size", sizes[f])
        @json_output_array_string_value("files", f, "kind", f == "a" ? "text" : "binary")
    }
    @json_output_string_value("state", reads == 1 ? "first" : "later")
    @json_output_data_end
}' & tap=$!
for i in $(seq 200); do [ -p $d/data.json ] && break; sleep 0.05; done
cat $d/metadata.json; cat $d/data.json; cat $d/data.json
kill -INT $tap; wait $tap; echo "rc=$?"
