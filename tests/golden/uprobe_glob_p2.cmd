# process("GLOB"): each test program t_calls* matches is probed as if the script had named it, in the order of their canonical paths; a probe per binary, with its own pp()
@TAP@ -p2 -e 'probe process("@PROGRAMS@/t_calls*").function("twice") { println(pp()) }' | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g; s/0x[0-9a-f]*/ADDR/g"; echo "exit ${PIPESTATUS[0]}"
