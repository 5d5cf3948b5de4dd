# Brace alternatives in the pattern (probes.md); struct parameters, some held in DW_OP_piece locations at -O2, list as their struct type.
@TAP@ -L 'process("@PROGRAMS@/t_pieces_o2").function("{sum_pair,small_xy,local_*}")' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
