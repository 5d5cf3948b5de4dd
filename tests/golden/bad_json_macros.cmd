# The JSON macros (tapsets/json.stpm) misused: each error names the place in
# the user's script, the macro body's place first for what goes wrong inside
# it (SystemTap's "in expansion of macro" chain; the tapset's path varies, so
# .stderr.re).
@TAP@ -p2 -e 'probe begin { @json_output_data_start }'
@TAP@ -p2 -e 'probe procfs("x").write { @json_output_data_start }'
@TAP@ -p2 -e 'probe json_data { @json_output_numeric_value("a") }'
@TAP@ -p2 -e 'probe json_data {
    @json_output_data_start
    @json_output_numeric_value("n", "s")
    @json_output_data_end
}'
