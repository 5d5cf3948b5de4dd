semantic error: unable to find local 'nosuch' near pc 0x[0-9a-f]+ in add .*/t_args\.c \(alternatives: \$a, \$b\): identifier '\$nosuch' at uprobe_error_unknown_var\.tp:2:52
        source: probe process\(@1\)\.function\("add"\) \{ printf\("%d\\n", \$nosuch\) \}
 +\^
