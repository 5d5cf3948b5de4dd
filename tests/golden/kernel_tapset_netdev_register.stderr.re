semantic error: probe point kernel.function\("register_netdevice"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking.tp:[0-9]+:[0-9]+
        source: probe netdev.register = kernel.function\("register_netdevice"\) \{ dev_name = get_netdev_name\(\$dev\) \}
 +\^
semantic error: probe alias netdev.register cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_netdev_register.tp:3:7
        source: probe netdev.register \{ println\(dev_name\) \}
                      \^
