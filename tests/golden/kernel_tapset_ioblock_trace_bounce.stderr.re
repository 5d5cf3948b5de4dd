semantic error: while resolving probe point: no match for tracepoint "block:block_bio_bounce": identifier 'trace' at .*ioblock\.tp:[0-9]+:[0-9]+
        source: probe ioblock_trace\.bounce = kernel\.trace\("block:block_bio_bounce"\) \{
 +\^
semantic error: probe alias ioblock_trace\.bounce cannot be used here \(its points failed above\): identifier 'ioblock_trace' at kernel_tapset_ioblock_trace_bounce\.tp:4:7
        source: probe ioblock_trace\.bounce \{ println\(devname, " ", bytes_done\) \}
                      \^
