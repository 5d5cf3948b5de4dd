ERROR: kernel 2\.6\.[0-9]+[^ ]* is older than 5\.19, the oldest tap runs on \(BPF helpers such as bpf_map_lookup_percpu_elem are missing\)
