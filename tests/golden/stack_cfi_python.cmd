# Debian's python3 (built without frame pointers) running a script: at the
# first PyOS_FSPath (start-up opening a module, through the eval loop) the
# stack is gdb's, frame for frame (20 deep), through CFI.
setarch -R @TAP@ -e 'probe process("/usr/bin/python3.11").function("PyOS_FSPath") { print_ubacktrace(); exit() }' -c '/usr/bin/python3.11 -S stack_cfi_python.py' | ./stack_gdb_check.py PyOS_FSPath /usr/bin/python3.11 -S stack_cfi_python.py
