# The JSON tapset's runtime errors, SystemTap's messages: a metric added twice,
# a metric output twice in one read of data.json (the reader gets what was
# written before it). Their site is in the tapset, whose path varies: .stderr.re.
@TAP@ -e 'probe begin { json_add_numeric_metric("n", "", ""); json_add_string_metric("n", "") }'; echo "rc=$?"
d=/run/tap/golden_procfs_json_errors
@TAP@ -T 20 -m golden_procfs_json_errors -e 'probe json_data {
    @json_output_data_start
    @json_output_numeric_value("n", 1)
    @json_output_numeric_value("n", 2)
    @json_output_data_end
}' & tap=$!
for i in $(seq 200); do [ -p $d/data.json ] && break; sleep 0.05; done
cat $d/data.json; echo
wait $tap; echo "rc=$?"
