# .plt under a process glob: a probe at each matched binary's puts stub; t_plt_noplt (-fno-plt) has no PLT and is left out
@TAP@ -p2 -e 'probe process("@PROGRAMS@/t_plt*").plt("puts") { println($$name) }' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s/0x[0-9a-f]*/ADDR/g"; echo "exit ${PIPESTATUS[0]}"
