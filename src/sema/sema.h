/* Semantic analysis: tapset loading and alias expansion, probe-point
 * resolution, name resolution and type inference. Its result, `struct script`,
 * is all codegen reads: resolved probes, typed symbols, reachable functions. */
#ifndef TAP_SEMA_SEMA_H
#define TAP_SEMA_SEMA_H

#include <stdint.h>
#include <stdio.h>

#include "kinds/probe_kind.h"
#include "parser/ast.h"

struct arena;
struct diags;
struct tp_format;
struct dwarf_modules;
struct uprobe_site;

enum symbol_kind {
    SYMBOL_GLOBAL,       /* script global: scalar or array */
    SYMBOL_LOCAL,        /* probe or function local, foreach variable */
    SYMBOL_PARAM,        /* function parameter */
};

#define MAX_ARRAY_KEYS 9

struct symbol {
    enum symbol_kind kind;
    const char *name;
    struct span span;            /* declaration or first use */
    enum value_type type;        /* value type (element type for arrays) */
    /* SYMBOL_GLOBAL: */
    int is_array;
    int key_count;
    enum value_type key_types[MAX_ARRAY_KEYS];
    int64_t max_entries;
    int wrap;
    struct expr *init;           /* literal initializer or NULL */
    int is_read, is_written;     /* read (an update such as n++ reads too), written */
    int is_used;                 /* globals: the value is used (read, not only updated by a
                                  * statement such as n++ or a[k] += 1, or deleted):
                                  * written and never used, it is printed at the end */
    int global_index;            /* declaration order */
    /* SYMBOL_LOCAL, SYMBOL_PARAM: */
    int local_index;             /* in its body's frame */
    /* codegen: */
    uint32_t data_offset;        /* SYMBOL_GLOBAL scalars: offset in .data */
};

/* Locals of one probe or function body. */
struct frame_layout {
    struct symbol **locals;      /* params first, then locals in order of appearance */
    int local_count;
    int local_capacity;
};

/* A user function after analysis. */
struct function_decl {
    struct decl *decl;
    const char *name;
    enum value_type return_type;
    struct symbol **params;
    int param_count;
    struct frame_layout frame;
    int is_recursive;            /* reaches itself through calls */
    int is_reachable;
    int is_builtin_tapset;       /* defined in a tapset */
    int is_resolved;             /* names in its body are bound */
    struct function_decl **callees;
    int callee_count, callee_capacity;
    void *codegen;               /* codegen's per-function data */
};

/* One concrete attachment: a probe declaration with several points (or a
 * wildcard) becomes several of these sharing one body. */
struct probe {
    enum probe_kind kind;        /* kinds/probe_kind.h: its descriptor says how it resolves, generates, attaches */
    const char *point;           /* canonical text, as pp() returns it */
    struct span span;
    struct stmt *body;           /* STMT_BLOCK: alias prologues, the handler, epilogues */
    struct frame_layout *frame;  /* shared by probes with the same body */
    struct expr *condition;      /* `if (expr)` or NULL */
    int64_t order;
    uint64_t period_ns;
    uint64_t frequency;
    uint32_t perf_type;
    uint64_t perf_config;
    uint64_t sample_period;
    const char *path;
    uint64_t offset;
    uint64_t vaddr;              /* PROBE_UPROBE/URETPROBE: file address of the probed pc */
    uint64_t ref_ctr_offset;     /* PROBE_UPROBE at an SDT mark: file offset of its semaphore, or 0 */
    const char *function;        /* PROBE_UPROBE/URETPROBE, PROBE_FENTRY/FEXIT: ppfunc() */
    int kernel_btf_id;           /* PROBE_FENTRY/FEXIT, PROBE_KPROBE/KRETPROBE: the function's BTF FUNC in vmlinux */
    int kprobe_multi;            /* PROBE_KPROBE/KRETPROBE group: attached as one kprobe_multi link */
    const char *kernel_module;   /* PROBE_FENTRY/FEXIT, PROBE_KPROBE/KRETPROBE in module(...): its name (BTF, attach) */
    struct uprobe_site *site;    /* PROBE_UPROBE/URETPROBE: where it sits (sema/uprobe.h) */
    /* PROBE_UPROBE at a function whose first instruction is single-stepped:
     * the calls it sits on instead (uprobe_calls.c), or none. A .return
     * probe at_returns (uprobe_returns.c): a PROBE_UPROBE on the function's
     * rets (none: a function that never returns), never at offset. Placement
     * says where it sits and why, for -v. */
    uint64_t *site_offsets, *site_vaddrs;
    int site_count;
    int at_returns;
    /* at_returns with direct tail jumps (uprobe_returns.h): where the tail
     * program sits (file offsets), each site's cookie TAIL_SITE_JUMP or
     * TAIL_SITE_ENTRY; the probe runs only where an entry's record is found. */
    uint64_t *tail_offsets;
    int *tail_kinds;
    int tail_count;
    const char *placement;
    /* PROBE_UPROBE/URETPROBE: refusal says why the kernel refuses its
     * instruction (uprobe_insn.h), or NULL; a refused probe that did not
     * move to its calls is skipped (not attached): with a warning when a
     * wildcard or a `?` point matched it (may_skip), else it is an error. */
    const char *refusal;
    int may_skip;
    int sleepable;               /* PROBE_UPROBE/URETPROBE: may fault user pages in (user_string) */
    struct expr **entry_values;  /* @entry snapshots and entry values (longs, strings), taken by an extra entry program */
    int entry_sleepable;         /* an entry value reads a user string */
    int entry_count;
    struct expr *entry_key;      /* the CFA of the probed frame (rsp after a return), keying them */
    uint64_t entry_offset, entry_vaddr;  /* where the entry program sits: the function's entry */
    /* PROBE_UPROBE/URETPROBE whose bodies read no target variables: one
     * program serves the group (a uprobe_multi link), pp()/ppfunc() by cookie. */
    struct probe *group_leader;  /* NULL: generates its own program */
    struct probe **group;        /* the leader: every member, itself first */
    int group_count;
    uint64_t cookie;             /* index in the leader's group */
    const char *tp_category, *tp_name;
    const struct tp_format *tp_format;   /* PROBE_TRACEPOINT from tracefs: the record's fields */
    int tp_raw;                  /* PROBE_TRACEPOINT reading prototype arguments: a raw tracepoint */
    int tp_reads_fields;         /* PROBE_TRACEPOINT reading tracefs record fields */
    /* PROBE_TRACEPOINT at syscalls:sys_enter_NAME whose body reads user
     * strings at these addresses (expressions of the record's fields): when
     * one does not read at entry (not resident yet), the handler runs at
     * tp_exit_name on a copy of the record's tp_record_size bytes
     * (sema/syscall_defer.c). */
    struct expr **user_checks;
    int user_check_count;
    const char *tp_exit_name;
    int tp_record_size;
    const char *alias_point;     /* expanded from an alias: the alias name the user's point matched */
    int index;                   /* in script order */
};

struct sema_options {
    const char **tapset_dirs;    /* searched in order */
    int tapset_dir_count;
    int keep_unused;             /* -u */
    int64_t max_map_entries;     /* -D MAXMAPENTRIES */
    int string_size;             /* -D MAXSTRINGLEN */
    int hist_elision;            /* -D HIST_ELISION: for sprint(@hist_*(s)); < 0: none elided */
    const char *target_command;  /* -c: names the binary of process.function(...) */
    int target_pid;              /* -x: likewise, through /proc/PID/exe */
    struct dwarf_modules *modules;   /* the binaries opened (sema/dwarf.h), closed by the caller */
    int entry_only;              /* --probe-entry: function probes stay on the first instruction */
    int no_insn_check;           /* -D TAP_DEBUG_NO_INSN_CHECK=1: leave refused instructions to the
                                  * kernel, so tests see how an attach failure is handled */
    int listing;                 /* -l/-L: points are resolved to be listed, not attached: kernel
                                  * functions resolve without kprobes or fentry on this kernel */
};

struct script {
    struct symbol **globals;
    int global_count;
    struct function_decl **functions;
    int function_count;
    struct probe **probes;
    int probe_count;
    const struct source_file *main_file;
};

/* Analyses the user's script (and the tapsets it needs). Returns NULL when an
 * error was reported. */
struct script *sema_analyze(struct arena *arena, struct diags *diags, struct ast *user,
                            const struct sema_options *options);

/* -l/-L PP: prints the matching probe points (with variables when asked,
 * with addresses under -v); returns the exit status. */
int sema_list_points(struct arena *arena, struct diags *diags, const char *point,
                     const struct sema_options *options, int with_variables, int verbose, FILE *out);

/* --dump-functions, --dump-probe-types, --dump-probe-aliases (catalog.c):
 * sorted catalogues of the functions, probe-point forms and tapset aliases. */
void sema_dump_functions(struct arena *arena, struct diags *diags, const struct sema_options *options, FILE *out);
void sema_dump_probe_types(struct arena *arena, FILE *out);
void sema_dump_probe_aliases(struct arena *arena, struct diags *diags, const struct sema_options *options,
                             FILE *out);

/* SystemTap's rule: a global of the script (not of a tapset) that is written
 * and whose value is never used is printed when the session ends. */
int sema_prints_at_end(const struct symbol *global);

/* -p2: probes, globals and functions with their types. */
void sema_print(FILE *out, const struct script *script);

#endif
