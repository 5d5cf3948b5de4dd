semantic error: probe point kernel\.function\("vfs_read"\) needs kprobes or BPF trampolines \(fentry\): this kernel has no kprobes \(no /sys/bus/event_source/devices/kprobe\) and (refuses fentry programs \([A-Za-z ]+\)|no BTF for fentry programs): identifier 'kernel' at kernel_function_refused\.tp:2:7
        source: probe kernel\.function\("vfs_read"\) \{ println\("never"\) \}
                      \^
