semantic error: probe point kernel.function\("ip_rcv"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*ipmib.tp:[0-9]+:[0-9]+
        source: probe ipmib.InReceives = kernel.function\("ip_rcv"\) \{
 +\^
semantic error: probe alias ipmib.InReceives cannot be used here \(its points failed above\): identifier 'ipmib' at kernel_tapset_ipmib_needs_kprobes.tp:3:7
        source: probe ipmib.InReceives \{ \}
                      \^
