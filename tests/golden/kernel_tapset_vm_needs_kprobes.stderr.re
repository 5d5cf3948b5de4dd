semantic error: probe point kernel.function\("handle_mm_fault"\).return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*memory.tp:[0-9]+:[0-9]+
        source: probe vm.pagefault.return = kernel.function\("handle_mm_fault"\).return \{
 +\^
semantic error: probe alias vm.pagefault.return cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_vm_needs_kprobes.tp:4:7
        source: probe vm.pagefault.return \{ println\(fault_type\) \}
                      \^
semantic error: probe point kernel.function\("vfs_open"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*vfs.tp:[0-9]+:[0-9]+
        source: probe vfs.open = kernel.function\("vfs_open"\) \{
 +\^
semantic error: probe alias vfs.open cannot be used here \(its points failed above\): identifier 'vfs' at kernel_tapset_vm_needs_kprobes.tp:5:7
        source: probe vfs.open \{ println\(name\) \}
                      \^
