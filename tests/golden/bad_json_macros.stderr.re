semantic error: writing to the traced program's variables needs SystemTap's guru mode \(-g\), which tap does not offer: BPF programs cannot write kernel memory, and tap does not write user memory \(bpf_probe_write_user\): identifier '\$value' at /.*/json\.stpm:9:5
        source:     \$value = "\{\\n"
                    \^
	in expansion of macro: operator '@json_output_data_start' at <input>:1:15
        source: probe begin \{ @json_output_data_start \}
                              \^
semantic error: procfs \$value variable is read-only in a procfs write probe: identifier '\$value' at /.*/json\.stpm:9:5
        source:     \$value = "\{\\n"
                    \^
	in expansion of macro: operator '@json_output_data_start' at <input>:1:27
        source: probe procfs\("x"\)\.write \{ @json_output_data_start \}
                                          \^
parse error: macro '@json_output_numeric_value' takes 2 arguments, given 1
        saw: operator '@json_output_numeric_value' at <input>:1:19
     source: probe json_data \{ @json_output_numeric_value\("a"\) \}
                               \^
semantic error: type mismatch: expected long, got string: string '"s"' at <input>:3:37
        source:     @json_output_numeric_value\("n", "s"\)
                                                    \^
