# A stack through a library loaded with dlopen() after tap started, both it
# and the program built -O2 -fomit-frame-pointer (the library's functions
# keep no frame pointer: rbp still holds what main left there). tap reads the
# library's CFI when the kernel reports its mapping; t_dlopen_cfi waits
# 3000 ms between dlopen() and calling into it, so the rows are in by then
# (1000 ms was not always enough on a loaded machine).
setarch -R @TAP@ -e 'probe process(@1).function("report") { print_ubacktrace(); exit() }' @PROGRAMS@/t_dlopen_cfi -c "@PROGRAMS@/t_dlopen_cfi 3000" | ./stack_gdb_check.py report @PROGRAMS@/t_dlopen_cfi 3000
