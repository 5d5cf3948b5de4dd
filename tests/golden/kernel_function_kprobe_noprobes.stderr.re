semantic error: probe point kprobe\.function\("vfs_read"\) needs kprobes: this kernel has no kprobes \(no /sys/bus/event_source/devices/kprobe\) and (loads fentry programs|refuses fentry programs \([A-Za-z ]+\)|no BTF for fentry programs): identifier 'kprobe' at kernel_function_kprobe_noprobes\.tp:3:7
        source: probe kprobe\.function\("vfs_read"\) \{ println\("never"\) \}
                      \^
