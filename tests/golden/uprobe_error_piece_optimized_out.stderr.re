semantic error: \$w->b is optimized out at pc 0x[0-9a-f]+ in crowded: identifier '\$w' at uprobe_error_piece_optimized_out\.tp:3:71
        source: probe process\(@1\)\.statement\("crowded@t_pieces\.c:60"\) \{ printf\("%d\\n", \$w->b\) \}
 +\^
