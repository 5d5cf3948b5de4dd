@TAP@ -L 'process("@PROGRAMS@/t_args").statement("main@t_args.c:*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
