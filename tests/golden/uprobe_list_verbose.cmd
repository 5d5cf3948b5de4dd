@TAP@ -v -l 'process("@PROGRAMS@/t_args").function("add")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g" | sed 's/pc=0x[0-9a-f]*/pc=PC/'
