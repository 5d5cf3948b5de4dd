# -p2 pins user-space probes on t_args (the script is sema_p2_uprobes.stdin): an entry, a .return with
# @entry, a wildcard .call (fact, main, mixed), .statement at a line, an optional function that does
# not exist; @defined folded per probe ($a exists: v is a long; $zz does not: w is a string); which
# probes are sleepable (user_string, $$parms); the kinds and locals. Paths and pcs are masked
# (they differ per build directory and compiler).
@TAP@ -p2 - @PROGRAMS@/t_args 2>&1 | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g; s/pc=0x[0-9a-f]*/pc=PC/"; exit ${PIPESTATUS[0]}
