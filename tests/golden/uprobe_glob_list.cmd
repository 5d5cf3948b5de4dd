# -L lists the points of every file a process glob matches (t_args_nodebug has no DWARF: no file, no variables); -l with `?`, which matches t_args alone
@TAP@ -L 'process("@PROGRAMS@/t_args*").function("add")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"; echo "exit ${PIPESTATUS[0]}"
@TAP@ -l 'process("@PROGRAMS@/t_arg?").function("add")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"; echo "exit ${PIPESTATUS[0]}"
