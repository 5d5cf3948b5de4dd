@TAP@ -L 'process("@PROGRAMS@/t_args").function("[a-f]*").return' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
