# -L over every function of the -O2 build, named by a relative path: the lines of -O0 (DWARF keeps the variables) plus the inlined instance of stdlib.h's atoi in main, types as SystemTap spells them.
cd @PROGRAMS@ && @TAP@ -L 'process("./t_args_o2").function("*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
