# A process glob whose ELF files have no match names them; what it matched but did not probe follows (its pattern matches split, a directory, and the four t_args*)
@TAP@ -p2 -e 'probe process("@PROGRAMS@/[st][p_][la][ir][tg]*").function("nosuch") {}' 2>&1 | sed "s|@PROGRAMS@/|PROGRAMS/|g"; echo "exit ${PIPESTATUS[0]}"
