@TAP@ -L 'process("@PROGRAMS@/t_args").function("*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
