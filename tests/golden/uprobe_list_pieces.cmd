@TAP@ -L 'process("@PROGRAMS@/t_pieces_o2").function("[sl]*_[px]*")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
