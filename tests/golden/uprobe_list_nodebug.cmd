@TAP@ -l 'process("@PROGRAMS@/t_args_nodebug").function("*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
