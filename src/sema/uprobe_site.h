/* Where one process probe sits (struct uprobe_probe.site), apart from
 * uprobe.h so codegen reads it without DWARF (libdw) in its includes. */
#ifndef TAP_SEMA_UPROBE_SITE_H
#define TAP_SEMA_UPROBE_SITE_H

#include <stdint.h>

struct dwarf_module;
struct dwarf_function;
struct function_exits;
struct usdt_mark;

/* Where one process probe sits (struct probe.site). */
struct uprobe_site {
    struct dwarf_module *module;
    const struct dwarf_function *function;   /* NULL for .statement(ADDR) outside any function */
    uint64_t pc;                 /* file vaddr */
    int at_entry;                /* pc is the function's first instruction */
    int choose_entry;            /* an entry probe that may move to the first instruction */
    int out_of_line;             /* .function entry of a real (not inlined) function */
    int is_return;
    int at_returns;              /* .return on the function's rets, not a uretprobe (uprobe_returns.h) */
    struct function_exits *exits;    /* .return: the function's exits */
    int is_statement;
    int line;                    /* .statement: the line */
    const struct usdt_mark *mark;    /* .mark: the SDT note (usdt.h) */
    const char *plt_name;        /* .plt: the called function's name ($$name), at its PLT stub */
};

#endif
