semantic error: probe point kernel.function\("vfs_read"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*vfs.tp:[0-9]+:[0-9]+
        source: probe vfs.read = kernel.function\("vfs_read"\) \{
 +\^
semantic error: probe alias vfs.read cannot be used here \(its points failed above\): identifier 'vfs' at kernel_tapset_vfs_needs_kprobes.tp:3:7
        source: probe vfs.read \{ println\(devname\) \}
                      \^
