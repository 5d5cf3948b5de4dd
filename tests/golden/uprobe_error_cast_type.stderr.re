semantic error: unable to find type 'struct nosuch' in /.*/t_strings: operator '@cast' at uprobe_error_cast_type\.tp:5:18
        source:   printf\("%d\\n", @cast\(\$l, "struct nosuch"\)->x\)
 +\^
semantic error: unable to find type 'labeled_t \*\*' in /.*/t_strings: operator '@cast' at uprobe_error_cast_type\.tp:6:18
        source:   printf\("%d\\n", @cast\(\$l, "labeled_t \*\*"\)->x\)
 +\^
