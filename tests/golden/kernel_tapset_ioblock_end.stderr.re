semantic error: probe point kernel.function\("bio_endio"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*ioblock.tp:[0-9]+:[0-9]+
        source: probe ioblock.end = kernel.function\("bio_endio"\) \{
 +\^
semantic error: probe alias ioblock.end cannot be used here \(its points failed above\): identifier 'ioblock' at kernel_tapset_ioblock_end.tp:4:7
        source: probe ioblock.end \{ println\(devname, bytes_done, error\) \}
                      \^
