semantic error: probe point kernel.function\("prepare_signal"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*signal.tp:[0-9]+:[0-9]+
        source: probe __signal.check_ignored.prepare_signal = kernel.function\("prepare_signal"\) \{.*
 +\^
semantic error: probe alias signal.check_ignored cannot be used here \(its points failed above\): identifier 'signal' at kernel_tapset_signal_needs_kprobes.tp:3:7
        source: probe signal.check_ignored \{ \}
                      \^
