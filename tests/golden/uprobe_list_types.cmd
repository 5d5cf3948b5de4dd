@TAP@ -L 'process("@PROGRAMS@/t_types").function("*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
