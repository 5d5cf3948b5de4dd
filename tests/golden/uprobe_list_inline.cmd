@TAP@ -L 'process("@PROGRAMS@/t_inline").function("*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
