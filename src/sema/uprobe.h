/* process(...) probe points: resolution against a binary's function index,
 * and the lowering of target variables at each resolved address. */
#ifndef TAP_SEMA_UPROBE_H
#define TAP_SEMA_UPROBE_H

#include "sema/dwarf.h"
#include "sema/sema_internal.h"
#include "sema/uprobe_site.h"

struct function_pattern {
    const char *function;        /* wildcard: the name, after the last "::" */
    const char **scopes;         /* "shop", "Cart": the scopes named before it, outermost first */
    int scope_count;
    int mangled;                 /* "_ZN4shop*": matched against linkage names */
    const char *file;            /* wildcard or NULL */
    int line;                    /* 0: any */
    int any_line;                /* "f@file:*" */
    const char *line_text;       /* "2*" or "20-30": matched against the decimal line */
};

struct line_address { int line; uint64_t pc; };

/* What a process probe point asks for, once its components are read. */
struct process_point {
    const char *path;
    const char *library;         /* .library("LIB") or NULL */
    const char *provider;        /* .provider("P") before .mark, or NULL */
    const char *kind;            /* "function", "statement" or "mark" */
    struct probe_component *kind_component;
    struct function_pattern pattern;
    int has_address;
    uint64_t address;
    const char *suffix;          /* "call", "return", "inline", "exported" or NULL */
};

/* uprobe.c: adds one probe per match; returns how many. */
int sema_resolve_process(struct sema *s, struct stmt *body, struct probe_point *point,
                         struct frame_layout *frame);

/* The binary process(...) names: its path, /proc/PID/exe for process(PID),
 * -c's command or -x's pid for a bare `process`; NULL when none. */
const char *uprobe_process_path(struct sema *s, const struct probe_component *c);
/* process(PID): the probe's handler runs only in that process. */
void uprobe_only_in_process(struct sema *s, struct probe *probe, const struct probe_component *c);
/* uprobe_plt.c: process(...)[.library("LIB")].plt[("PAT")][.return], one
 * probe per PLT entry; returns how many. */
int sema_resolve_plt(struct sema *s, struct stmt *body, struct probe_point *point, struct frame_layout *frame);
/* $name at a PLT entry: only $$name, which the resolver rewrote; 0 after
 * reporting SystemTap's error for any other. */
int uprobe_plt_lower_target(struct sema *s, struct expr *e, int quiet);

/* Adds the probe of one site with its own copy of the body (@defined folded
 * there); a probe reading no target variable joins *leader's group. */
struct probe *uprobe_add_site(struct sema *s, struct stmt *body, struct probe_point *point,
                              struct frame_layout *frame, struct uprobe_site *site, const char *text,
                              struct probe **leader);
/* "NAME@FILE:LINE" (FILE, LINE optional; LINE "*", "2*" or "20-30") into a pattern. */
void uprobe_parse_pattern(struct arena *arena, const char *text, struct function_pattern *out);
int uprobe_line_matches(const struct function_pattern *pattern, int line);
int uprobe_function_matches(const struct function_pattern *pattern, const struct dwarf_function *f);
/* f's name in the probe point: with as many scopes as the pattern named
 * ("Cart::add" for "Cart::add" or "*::add"), as SystemTap names it. */
const char *uprobe_function_point_name(struct arena *arena, const struct function_pattern *pattern,
                                       const struct dwarf_function *f);
/* The ABI register (DWARF number) holding integer-class parameter `name`
 * at the function's first instruction, or -1. */
int uprobe_entry_register(Dwarf_Die *function, const char *name);
/* The first address of each line of `f`, sorted by line (malloc'd). */
int uprobe_function_lines(struct dwarf_module *m, const struct dwarf_function *f, struct line_address **out);

/* target_vars.c: rewrites $var, @var, @defined, @cast in place into generic
 * reads; 0 after reporting an error. */
int sema_lower_target(struct sema *s, struct expr *e);
/* @defined(operand) at a site: 1 when it lowers without error. */
int sema_target_defined(struct sema *s, struct uprobe_site *site, struct expr *operand);
/* " $a:int $p:struct point*": the variables in scope at the site, for -L. */
void uprobe_spell_variables(struct strbuf *sb, struct uprobe_site *site);



#endif
