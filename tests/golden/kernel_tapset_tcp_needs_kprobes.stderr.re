semantic error: probe point kernel.function\("tcp_sendmsg"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcp.tp:[0-9]+:[0-9]+
        source: probe tcp.sendmsg = kernel.function\("tcp_sendmsg"\) \{
 +\^
semantic error: probe alias tcp.sendmsg cannot be used here \(its points failed above\): identifier 'tcp' at kernel_tapset_tcp_needs_kprobes.tp:3:7
        source: probe tcp.sendmsg \{ println\(size\) \}
                      \^
