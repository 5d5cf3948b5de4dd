semantic error: probe point kernel.function\("finish_task_switch"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*scheduler.tp:[0-9]+:[0-9]+
        source: probe scheduler.cpu_on = kernel.function\("finish_task_switch"\) \{
 +\^
semantic error: probe alias scheduler.cpu_on cannot be used here \(its points failed above\): identifier 'scheduler' at kernel_tapset_alias_needs_kprobes.tp:4:7
        source: probe scheduler.cpu_on \{ println\(idle\) \}
                      \^
