semantic error: probe point kernel\.function\("vfs_read"\)\.return needs kprobes or BPF trampolines \(fentry\): this kernel has no kprobes .*: identifier 'kernel' at bad_probe_kernel_function_return\.tp:2:7
        source: probe kernel\.function\("vfs_read"\)\.return \{ exit\(\) \}
                      \^
