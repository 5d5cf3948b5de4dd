# issue 18: -L on a C++ program: $this (an artificial parameter, listed and read as in SystemTap), classes spelled "class Cart", references "class Cart&".
@TAP@ -L 'process("@PROGRAMS@/t_shop").function("*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
