semantic error: while resolving probe point: kernel\.function\("dev_change_rx_flags"\) matched no kernel function: identifier 'kernel' at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.change_rx_flag = kernel\.function\("dev_change_rx_flags"\) \{
 +\^
semantic error: probe alias netdev\.change_rx_flag cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_netdev_change_rx_flag\.tp:4:7
        source: probe netdev\.change_rx_flag \{ println\(dev_name, " ", flags\) \}
                      \^
