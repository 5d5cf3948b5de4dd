# A stack through code without frame pointers (the program at -O2
# -fomit-frame-pointer, libc's qsort): DWARF CFI finds every frame gdb finds.
setarch -R @TAP@ -e 'probe process(@1).function("leaf") { print_ubacktrace(); exit() }' @PROGRAMS@/t_qsort -c @PROGRAMS@/t_qsort | ./stack_gdb_check.py leaf @PROGRAMS@/t_qsort
