semantic error: while resolving probe point: no match for tracepoint "kmem:kmalloc_node": identifier 'trace' at .*memory\.tp:[0-9]+:[0-9]+
        source: probe vm\.kmalloc_node = kernel\.trace\("kmem:kmalloc_node"\) \{
 +\^
semantic error: probe alias vm\.kmalloc_node cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_kmalloc_node_gone\.tp:4:7
        source: probe vm\.kmalloc_node \{ println\(bytes_req\) \}
                      \^
