semantic error: probe point kernel\.function\("vfs_read"\) needs BPF trampolines \(fentry\): this kernel (has no kprobes \(no /sys/bus/event_source/devices/kprobe\)|has kprobes) and (refuses fentry programs \([A-Za-z ]+\)|no BTF for fentry programs): identifier 'kernel' at sema_kernel_function\.tp:2:7
        source: probe kernel\.function\("vfs_read"\) \{ println\("never"\) \}
                      \^
