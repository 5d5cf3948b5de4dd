/* USDT / SDT marks: process("PATH").mark("name") and
 * .provider("p").mark("name"), read from a binary's .note.stapsdt notes,
 * with $argN decoded from the notes' assembler operand specs. */
#ifndef TAP_SEMA_USDT_H
#define TAP_SEMA_USDT_H

#include <stdint.h>

#include "sema/uprobe.h"

#define USDT_MAX_ARGS 12

/* One argument spec such as "-4@%eax", "8@-16(%rbp)", "4@$5",
 * "-8@(%rax,%rdx,8)" or "-4@counter(%rip)". */
enum usdt_arg_kind {
    USDT_ARG_CONST,      /* value */
    USDT_ARG_REG,        /* reg (DWARF number), shift (8 for %ah ...) */
    USDT_ARG_MEMORY,     /* at disp + symbol + base + index * scale; base/index -1 when absent */
};

struct usdt_arg {
    enum usdt_arg_kind kind;
    int size;                    /* bytes: 1, 2, 4, 8 */
    int is_signed;
    int64_t value;               /* USDT_ARG_CONST */
    int reg, shift;              /* USDT_ARG_REG */
    int base, index, scale;      /* USDT_ARG_MEMORY (base 16: %rip) */
    int64_t disp;
    const char *symbol;          /* USDT_ARG_MEMORY: "counter" in counter(%rip), or NULL */
};

struct usdt_mark {
    const char *provider, *name;
    uint64_t pc;                 /* file vaddr, adjusted by .stapsdt.base */
    uint64_t semaphore;          /* file vaddr of the semaphore, 0 when none */
    const char *arg_text;        /* the note's operand specs, for messages */
    struct usdt_arg args[USDT_MAX_ARGS];
    int arg_count;
    int args_valid;              /* every spec parsed */
};

/* Parses one spec; 0 when it is beyond tap (then the mark still fires). */
int usdt_parse_arg(struct arena *arena, const char *text, struct usdt_arg *out);

/* The marks of a binary in note order; -1 when it has no .note.stapsdt. */
int usdt_read_marks(struct arena *arena, struct dwarf_module *m, struct usdt_mark **out);

/* Adds one probe per mark of `m` matching pp's provider and mark name
 * (wildcards); returns how many. */
int sema_resolve_marks(struct sema *s, struct stmt *body, struct probe_point *point, struct frame_layout *frame,
                       struct dwarf_module *m, const struct process_point *pp);

/* $argN, $$name, $$provider, $$parms/$$vars at a mark: rewritten in place
 * into generic reads; 0 after reporting an error (none when quiet). */
int usdt_lower_target(struct sema *s, struct uprobe_site *site, struct expr *e, int quiet);

/* " $arg1:long $arg2:long" for -L. */
void usdt_spell_args(struct strbuf *sb, const struct usdt_mark *mark);

#endif
