# Inline frames in the folded form (flame graphs), root first: work, then
# what is inlined into it (outer_helper, then inner_helper), then leaf;
# print_ustack() of the same string lists them innermost first. The same
# program without its DWARF (strip --strip-debug) shows none: only .symtab.
@TAP@ -e 'probe process(@1).function("leaf") { s = ubacktrace(); print_ustack_folded(s); println(" 1"); print_ustack(s); exit() }' @PROGRAMS@/t_inline_stack -c @PROGRAMS@/t_inline_stack | sed -E 's/^ 0x[0-9a-f]+ : /ADDR : /; s/\+0x[0-9a-f]+\/0x[0-9a-f]+ / /; s/ \[.*\/([^/]*)\]$/ [\1]/'
@TAP@ -e 'probe process(@1).function("leaf") { s = ubacktrace(); print_ustack_folded(s); println(" 1"); print_ustack(s); exit() }' @PROGRAMS@/t_inline_stack_nodebug -c @PROGRAMS@/t_inline_stack_nodebug | sed -E 's/^ 0x[0-9a-f]+ : /ADDR : /; s/\+0x[0-9a-f]+\/0x[0-9a-f]+ / /; s/ \[.*\/([^/]*)\]$/ [\1]/'
