semantic error: no debug information for add in .*/t_args_nodebug: target variables need DWARF \(-g\): identifier '\$a' at uprobe_error_nodebug\.tp:2:52
.*
.*
