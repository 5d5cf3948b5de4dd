semantic error: probe point kernel.function\("tcp_connect"\).return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib.tp:[0-9]+:[0-9]+
        source: probe tcpmib.ActiveOpens = kernel.function\("tcp_connect"\).return \{
 +\^
semantic error: probe alias tcpmib.ActiveOpens cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_tcpmib_needs_kprobes.tp:4:7
        source: probe tcpmib.ActiveOpens \{ \}
                      \^
