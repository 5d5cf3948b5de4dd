# Inline frames: in t_inline_stack (-O2) outer_helper() is inlined into
# work() and inner_helper() into outer_helper(), and leaf() is called from
# inside both. print_ubacktrace() lists each function DWARF says is inlined
# at a frame's pc as a frame of its own, innermost first, at the address of
# the real frame holding it; gdb's bt at the same stop lists the same
# frames with the same names in the same order.
setarch -R @TAP@ -e 'probe process(@1).function("leaf") { print_ubacktrace(); exit() }' @PROGRAMS@/t_inline_stack -c @PROGRAMS@/t_inline_stack | ./stack_gdb_check.py leaf @PROGRAMS@/t_inline_stack
