semantic error: unable to find type 'struct nosuch' in /.*/t_strings: operator '@cast' at uprobe_error_cast_type\.tp:5:18
        source:   printf\("%d\\n", @cast\(\$l, "struct nosuch"\)->x\)
 +\^
semantic error: unable to find type 'labeled_t \*\*' in /.*/t_strings: operator '@cast' at uprobe_error_cast_type\.tp:6:18
        source:   printf\("%d\\n", @cast\(\$l, "labeled_t \*\*"\)->x\)
 +\^
semantic error: @cast\(\.\.\., "struct task_struct", "kernel"\): tap reads types from the DWARF of user-space binaries only \(give the program's path\): operator '@cast' at uprobe_error_cast_type\.tp:7:18
        source:   printf\("%d\\n", @cast\(\$l, "struct task_struct", "kernel"\)->pid\)
 +\^
