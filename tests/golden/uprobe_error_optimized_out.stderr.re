semantic error: \$n is optimized out at pc 0x[0-9a-f]+ in main: identifier '\$n' at uprobe_error_optimized_out\.tp:2:66
.*
.*
