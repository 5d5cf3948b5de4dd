/* process(...) probe points: resolution against a binary's function index,
 * and the lowering of target variables at each resolved address. */
#ifndef TAP_SEMA_UPROBE_H
#define TAP_SEMA_UPROBE_H

#include "sema/dwarf.h"
#include "sema/sema_internal.h"

/* Where one process probe sits (struct probe.site). */
struct uprobe_site {
    struct dwarf_module *module;
    const struct dwarf_function *function;   /* NULL for .statement(ADDR) outside any function */
    uint64_t pc;                 /* file vaddr */
    int at_entry;                /* pc is the function's first instruction */
    int choose_entry;            /* an entry probe that may move to the first instruction */
    int is_return;
    int is_statement;
    int line;                    /* .statement: the line */
};

struct function_pattern {
    const char *function;        /* wildcard */
    const char *file;            /* wildcard or NULL */
    int line;                    /* 0: any */
    int any_line;                /* "f@file:*" */
    const char *line_text;       /* "2*" or "20-30": matched against the decimal line */
};

struct line_address { int line; uint64_t pc; };

/* uprobe.c: adds one probe per match; returns how many. */
int sema_resolve_process(struct sema *s, struct stmt *body, struct probe_point *point,
                         struct frame_layout *frame);

int uprobe_line_matches(const struct function_pattern *pattern, int line);
int uprobe_function_matches(const struct function_pattern *pattern, const struct dwarf_function *f);
/* The ABI register (DWARF number) holding integer-class parameter `name`
 * at the function's first instruction, or -1. */
int uprobe_entry_register(Dwarf_Die *function, const char *name);
/* The first address of each line of `f`, sorted by line (malloc'd). */
int uprobe_function_lines(struct dwarf_module *m, const struct dwarf_function *f, struct line_address **out);

/* target.c: rewrites $var, @var, @defined, @cast in place into generic
 * reads; 0 after reporting an error. */
int sema_lower_target(struct sema *s, struct expr *e);
/* @defined(operand) at a site: 1 when it lowers without error. */
int sema_target_defined(struct sema *s, struct uprobe_site *site, struct expr *operand);
/* " $a:int $p:struct point*": the variables in scope at the site, for -L. */
void uprobe_spell_variables(struct strbuf *sb, struct uprobe_site *site);



#endif
