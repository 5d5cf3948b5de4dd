/* State shared by the sema passes (not visible outside src/sema). */
#ifndef TAP_SEMA_INTERNAL_H
#define TAP_SEMA_INTERNAL_H

#include "base/arena.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "sema/sema.h"

struct btf;
struct pretty_printers;

struct btf_type;

/* A module's BTF (NULL: it cannot be read), by the module's name. */
struct loaded_btf {
    const char *name;
    struct btf *btf;
};

struct sema {
    struct arena *arena;
    struct diags *diags;
    const struct sema_options *options;
    struct script *script;
    int function_capacity, probe_capacity, global_capacity;
    /* The body being analysed: */
    struct frame_layout *frame;
    struct function_decl *function;  /* NULL inside a probe */
    struct probe *probe;             /* the first probe sharing the body */
    int loop_depth;
    /* Type inference runs to a fixpoint; errors only on the last round. */
    int changed;
    int report;
    int elision_warns;               /* elide.c: SystemTap warns in its first round only */
    struct tapsets *tapsets;         /* tapset.c: files, aliases; NULL until needed */
    struct btf *kernel_btf;          /* tracepoint_args.c: vmlinux BTF, loaded on first use */
    int kernel_btf_failed;
    struct loaded_btf *module_btfs;  /* sema_probe_btf: each module's read, kept until the end */
    int module_btf_count;
    const char *suppressed_error;    /* an optional point's failure, for an alias that then matched nothing */
    int at_call;                     /* kinds/kprobe.c: lowering an @entry operand of a kretprobe */
    struct kernel_names *kernel_symbols;  /* kernel_functions.c: /proc/kallsyms' functions, read on first use */
    struct kernel_names *module_symbols;  /* ... and the modules' as "NAME [MODULE]" */
    struct kernel_lists *kernel_lists;    /* kernel_functions.c: traceable functions, kprobe blacklist */
    int entry_probes;                /* syscall_entry.c: probes written, for their maps' names */
    struct pretty_printers *pretty_printers;   /* pretty_share.c: the printers written so far */
};

/* scope.c */
struct symbol *sema_find_global(struct sema *s, const char *name);
struct function_decl *sema_find_function(struct sema *s, const char *name);
struct function_decl *sema_find_overload(struct sema *s, const char *name, int arity);
struct symbol *sema_find_local(struct frame_layout *frame, const char *name);
struct symbol *sema_add_local(struct sema *s, struct frame_layout *frame, enum symbol_kind kind,
                              const char *name, struct span span);
void sema_add_global(struct sema *s, struct decl *decl);
/* sprint(@hist_*(s)): each call becomes a call of a function written for it (hist_string.c). */
void sema_write_hist_strings(struct sema *s, struct ast *user);
/* @entry and $arguments in syscall.NAME.return: values saved by an entry probe (syscall_entry.c). */
void sema_write_syscall_entries(struct sema *s, struct ast *user);
/* The same for one body on the points from `points` to `end` (NULL: all):
 * when each has a syscall's entry, the values are taken out of the body;
 * returns the declarations to add (the maps, the entry probe) or NULL. */
struct decl *sema_take_entry_values(struct sema *s, const struct probe_point *points,
                                    const struct probe_point *end, struct stmt *body);
void sema_add_function(struct sema *s, struct decl *decl);
int sema_edit_distance(const char *a, const char *b);
/* "similar: a, b" suggestions for an unknown name; "" when none. */
const char *sema_similar_names(struct sema *s, const char *name, int functions);

/* sema.c: binds the names of a function's body (again: elide.c counts uses so) */
void sema_resolve_function_body(struct sema *s, struct function_decl *fn);
/* sema.c: marks the functions `roots` (the probes' calls) reach, and the recursive ones */
void sema_mark_reachable(struct sema *s, struct function_decl *roots);
/* elide.c: SystemTap's dead-code passes, after resolution (not with -u) */
void sema_elide_unused(struct sema *s);

/* probes.c */
void sema_resolve_probe(struct sema *s, struct decl *decl);
/* tapset.c: the probes of the tapset files brought in so far; how many */
int sema_resolve_tapset_probes(struct sema *s);
/* `text` is the probe's pp(); NULL: the point as written. */
struct probe *sema_new_probe(struct sema *s, struct probe_point *point, struct stmt *body,
                             struct frame_layout *frame, const char *text);
void sema_add_probe(struct sema *s, struct probe *probe);
/* Resolves one point (aliases included) into probes running `body` with
 * `frame`; returns how many probes were added. */
int sema_resolve_point(struct sema *s, struct probe_point *point, struct stmt *body,
                       struct frame_layout *frame);
/* Adds `model`'s twin with its own copy of the body, condition and frame:
 * for probes whose bodies are lowered per probe (tracepoint fields). */
struct probe *sema_add_probe_copy(struct sema *s, const struct probe *model);
/* Adds probe to leader's group (sema.h: one program, told apart by cookie). */
void sema_join_group(struct sema *s, struct probe *leader, struct probe *probe);
const char *sema_point_text(struct sema *s, const struct probe_point *point);

/* tapset.c */
void sema_add_alias(struct sema *s, struct decl *decl);
/* -1 when no alias has this name, else the number of probes added. */
int sema_expand_alias(struct sema *s, struct probe_point *point, struct stmt *body);
/* Loads the tapset file defining `name`; NULL when none does. */
struct function_decl *sema_tapset_function(struct sema *s, const char *name);
/* A tapset's public global (SystemTap's argv, argc), its file loaded on first use. */
struct symbol *sema_tapset_global(struct sema *s, const char *name);
/* Every declaration of every tapset file, in load order (--dump-*). */
void sema_tapset_each_decl(struct sema *s, void (*visit)(void *context, const struct decl *decl), void *context);
/* syscall_defer.c: which syscall-entry probes check their user strings
 * at entry and run at the syscall's exit when one is not resident. */
void sema_plan_syscall_deferral(struct sema *s);
/* uprobe_calls.c: moves entry probes that would be single-stepped to the calls. */
void sema_place_entry_probes(struct sema *s);
/* uprobe_returns.c: puts .return probes at_returns on their rets (or refuses them). */
void sema_place_return_probes(struct sema *s);

/* clone.c */
struct expr *sema_clone_expr(struct arena *arena, const struct expr *e);
struct stmt *sema_clone_stmt(struct arena *arena, const struct stmt *list);

/* sema.c */
void sema_resolve_function(struct sema *s, struct function_decl *fn);
void sema_resolve_callee(struct sema *s, struct function_decl *fn);   /* keeps the caller's frame */
void sema_resolve_probe_body(struct sema *s, struct probe *probe, struct function_decl *caller);

/* probes.c: reports a probe point error (unless the point is optional); 0 */
int sema_point_error(struct sema *s, struct probe_point *point, struct span span, const char *fmt,
                     const char *arg);

/* perf.c */
int sema_resolve_perf(struct sema *s, struct probe_point *point, struct probe *probe);
/* The i-th perf.sw (or perf.hw) event name, "" for a gap, NULL past the end. */
const char *sema_perf_event_name(int is_hardware, int i);
/* @perf("NAME")'s checks: a literal name, a declared counter, a process probe's body. */
void sema_check_perf_read(struct sema *s, struct expr *e);

/* tracepoint.c */
int sema_resolve_tracepoint(struct sema *s, struct probe_point *point, struct probe *probe);
/* target_vars.c: e becomes pseudo register reg (an @entry value), typed as its
 * operand once inferred. */
void sema_become_snapshot(struct expr *e, int reg);
/* Rewrites $field, $$vars ... in place; 1 when the result needs resolving. */
int sema_lower_tracepoint_target(struct sema *s, struct expr *e);
/* uprobe.c: the $names a body and condition read ($$ forms, $return and
 * @defined operands left out); *names is malloc'd. */
int sema_target_names(struct stmt *body, struct expr *condition, const char ***names);
/* tracepoint_args.c: $arg of a tracepoint's prototype (BTF), members read
 * from kernel memory; the probe becomes a raw tracepoint. 1 done, 0 after
 * an error, -1 when the tracepoint has no such argument. */
int tracepoint_lower_argument(struct sema *s, struct probe *probe, struct expr *e);
/* The same for a kernel function's $argument (or $return when is_return),
 * from its BTF FUNC_PROTO. read gives argument `index` (the return value at
 * index vlen) as a long of size bytes, or NULL after reporting why not;
 * NULL: the context is the arguments as u64s (fentry, fexit). */
typedef struct expr *(*btf_argument_reader)(struct sema *s, struct expr *e, int index, int size, int is_signed);
int sema_lower_btf_argument(struct sema *s, struct btf *btf, const struct btf_type *proto, int is_return,
                            struct expr *e, btf_argument_reader read);
/* e is word `index` of the context (read as above), of BTF type type_id,
 * then its ->member and [N] components; 1 done, 0 after an error. */
int sema_lower_btf_word(struct sema *s, struct btf *btf, struct expr *e, int index, int type_id,
                        btf_argument_reader read);
/* "$preempt, $prev, ..." ("" without BTF or prototype) */
const char *tracepoint_argument_names(struct sema *s, const char *tracepoint);
int tracepoint_has_argument(struct sema *s, const char *tracepoint, const char *name);
/* @cast(p, "type", "kernel") (also "kernel<header.h>"): members read from
 * kernel memory with the running kernel's BTF, in any probe. */
int sema_is_kernel_cast(const struct expr *e);
int sema_lower_kernel_cast(struct sema *s, struct expr *e);
struct btf *sema_kernel_btf(struct sema *s);   /* vmlinux BTF, loaded on first use; NULL: none */
/* A kernel module's BTF (split on vmlinux's), or vmlinux's when module is NULL; NULL: none. */
struct btf *sema_probe_btf(struct sema *s, const char *module);
const char *sema_btf_module(struct sema *s, const struct btf *btf);   /* its module's name; NULL: vmlinux or none */
void sema_release_kernel_btf(struct sema *s);
/* kernel_functions.c: what this kernel offers to probe its functions, from
 * checks ("has no kprobes (...) and refuses fentry programs (...)"), and
 * whether TAP_KERNEL_PROBES=kprobe asks for kprobes where fentry would do. */
struct kernel_support {
    int fentry, kprobes, kprobes_forced;
    int kprobe_multi;                /* kprobe_multi links (fprobe) */
};
const char *sema_kernel_function_support(struct sema *s, struct kernel_support *support);
/* f and what follows it: .function("PATTERN") then .call or .return, or
 * nothing; 0 for any other form. */
int kernel_function_components(const struct probe_component *f, const char **pattern, int *is_return);
/* The kernel's lists of functions (names sorted; NULL: unreadable, then
 * not checked): those ftrace can trace, and the kprobe blacklist. */
struct kernel_names {
    char **names;
    size_t count;
};
struct kernel_lists {
    struct kernel_names traceable, blacklist;
};
const struct kernel_lists *kernel_read_lists(struct sema *s);   /* read once per compilation */
int kernel_names_has(const struct kernel_names *set, const char *name);
/* Why the kernel will not trace the function `name`, or NULL. */
const char *kernel_untraceable(const struct kernel_lists *lists, const char *name);
/* Why the kernel cannot attach `name` (vmlinux's) as meant, several
 * functions sharing it: never on a kprobe, on a trampoline where it traces
 * fewer than all; NULL when it can. */
const char *kernel_ambiguous(struct sema *s, const struct kernel_lists *lists, const char *name, int on_kprobe);
/* The one GCC clone the kernel has of function `name` (NAME.isra.N or
 * NAME.constprop.N: 6.1's finish_task_switch.isra.0), where it has no
 * function of that name; NULL: none, or several. */
const char *kernel_function_clone(struct sema *s, const struct kernel_lists *lists, const char *name);
const char *kernel_function_module(struct sema *s, const char *name);
const char *kernel_module_ambiguous(struct sema *s, const char *module, const char *name);
/* A string literal node, and `lhs . rhs` (just rhs when lhs is NULL): for
 * the strings target lowering builds ($$vars, $$name). */
struct expr *sema_string_expr(struct sema *s, struct span span, const char *text);
struct expr *sema_concat_expr(struct sema *s, struct span span, struct expr *lhs, struct expr *rhs);

/* pretty_text.c: a pretty form's text built as a few __tap_format calls
 * (up to PRETTY_TEXT_VALUES values each) and string-valued calls joined by
 * `.`; finish returns it ("" when empty) and frees the builder. */
enum { PRETTY_TEXT_VALUES = 12 };
struct pretty_text {
    struct sema *s;
    struct span span;
    struct strbuf format;        /* the pending format: literal text, % escaped */
    struct expr *values[PRETTY_TEXT_VALUES];
    int count;
    struct expr *result;         /* the concatenation so far */
};
void pretty_text_init(struct pretty_text *t, struct sema *s, struct span span);
void pretty_text_literal(struct pretty_text *t, const char *text);
void pretty_text_value(struct pretty_text *t, const char *conversion, struct expr *value);
void pretty_text_string(struct pretty_text *t, struct expr *string);
struct expr *pretty_text_finish(struct pretty_text *t);
void pretty_text_discard(struct pretty_text *t);

/* pretty_share.c: a pretty printer's text of the struct at `address`, as
 * a call of the function whose body is `body`, where `param` (made by
 * sema_pretty_parameter) stands for the address; one function for every
 * identical body. NULL: body reads what only the probe has (a register, the
 * context), so it stays inline. */
struct expr *sema_pretty_parameter(struct sema *s, struct span span);
struct expr *sema_share_pretty(struct sema *s, struct span span, struct expr *body, struct expr *param,
                               struct expr *address);

/* fold_defined.c: @defined(x) in a probe's body and condition replaced by
 * defined(context, x) (0 or 1; -1 leaves it to resolve.c), and the branches
 * that rules out dropped. */
typedef int (*defined_fn)(void *context, struct expr *operand);
void sema_fold_defined(struct stmt *body, struct expr *condition, defined_fn defined, void *context);

/* list_kernel.c: -l/-L of kernel.trace("...") points */
int sema_list_tracepoints(FILE *out, struct arena *arena, struct diags *diags, const struct probe_point *parsed,
                          const char *point, int with_variables);

/* resolve.c: binds identifiers and calls in one body to symbols. */
void sema_resolve_body(struct sema *s, struct stmt *body);
void sema_resolve_expr(struct sema *s, struct expr *e);

/* types.c */
void sema_infer_types(struct sema *s);
void sema_drop_never_probes(struct sema *s);

#endif
