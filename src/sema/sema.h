/* Semantic analysis: tapset loading and alias expansion, probe-point
 * resolution, name resolution and type inference. Its result, `struct script`,
 * is all codegen reads: resolved probes, typed symbols, reachable functions. */
#ifndef TAP_SEMA_SEMA_H
#define TAP_SEMA_SEMA_H

#include <stdint.h>
#include <stdio.h>

#include "kinds/kinds.h"
#include "parser/ast.h"

struct arena;
struct diags;
struct tp_format;
struct dwarf_modules;
struct uprobe_site;
struct c_type;

enum symbol_kind {
    SYMBOL_GLOBAL,       /* script global: scalar or array */
    SYMBOL_LOCAL,        /* probe or function local, foreach variable */
    SYMBOL_PARAM,        /* function parameter */
};

#define MAX_ARRAY_KEYS 9
#define MAX_PENDING_CALLS 4

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
    /* SYMBOL_LOCAL: the C type of the typed values assigned to it (autocast,
     * sema/autocast.h), where first assigned; a second, different one and
     * where; where `->` first read through it */
    const struct c_type *ctype, *other_ctype;
    struct span ctype_span, other_ctype_span, ctype_use_span;
    int ctype_used;
    struct expr *pending_calls[MAX_PENDING_CALLS];   /* `local = f()`, f not analysed yet */
    int pending_call_count;
    /* SYMBOL_LOCAL: assignments of a kernel char array (a string in tap,
     * its address in SystemTap) and of anything else; where kernel_string()
     * first read it as such an address */
    int char_array_stores, other_stores;
    int char_array_read;
    struct span char_array_read_span;
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
    int has_next;                /* a `next` in its body passes the call to next_overload */
    int faults_in;               /* a shared pretty printer of sleepable uprobes (pretty_share.c):
                                  * a user string read that faults pages it in and reads again */
    /* the C type its returns give (autocast), a second, different one, and where */
    const struct c_type *return_ctype, *other_return_ctype;
    struct span return_ctype_span, other_return_span;
    int is_resolving;            /* its body is being resolved (an autocast of a recursive call) */
    /* Same name and arity, declared later: tried in order when one says `next`
     * (SystemTap's runtime overloading); other arities are separate functions. */
    struct function_decl *next_overload;
    int overload_index;          /* 0 for the first function of its name, 1, 2... */
    struct function_decl **callees;
    int callee_count, callee_capacity;
    void *codegen;               /* codegen's per-function data */
};

/* PROBE_FIELDS_PERF (timer, profile, perf, watchpoint): the perf event and its rate. */
struct perf_probe {
    uint64_t period_ns;          /* timer, profile: cpu-clock period (or frequency) */
    uint64_t frequency;
    uint32_t perf_type;          /* perf: the event (sema/perf.c) */
    uint64_t perf_config;
    uint64_t sample_period;
    int per_target;              /* perf .process: only in the -c/-x target (sema/perf.c) */
    const char *counter;         /* perf .counter("NAME"), read by @perf(NAME); NULL: a sampling probe */
    int counter_index;           /* its slot in tap_perf_counters */
    /* timer .randomize(M), M > 0: the handler runs every interval_ns plus a
     * random amount in [-randomize_ns, randomize_ns], drawn per run
     * (codegen/randomize.c); period_ns is then the finer tick that checks
     * the deadline. 0: every period_ns. */
    uint64_t interval_ns, randomize_ns;
    /* watchpoint (kernel.data, process.data): the bytes watched, and which
     * accesses (HW_BREAKPOINT_W or HW_BREAKPOINT_RW); a kernel symbol is
     * looked up again at attach (KASLR moves it at each boot) */
    uint64_t bp_address;
    uint32_t bp_length, bp_access;
    const char *bp_symbol;
};

/* PROBE_FIELDS_UPROBE (uprobe, uretprobe): where in which file, and how it sits there. */
struct uprobe_probe {
    const char *path;
    uint64_t offset;
    uint64_t vaddr;              /* file address of the probed pc */
    uint64_t ref_ctr_offset;     /* at an SDT mark: file offset of its semaphore, or 0 */
    struct uprobe_site *site;    /* where it sits (sema/uprobe.h) */
    /* At a function whose first instruction is single-stepped: the calls it
     * sits on instead (uprobe_calls.c), or none. A .return probe at_returns
     * (uprobe_returns.c): a PROBE_UPROBE on the function's rets (none: a
     * function that never returns), never at offset. Placement says where it
     * sits and why, for -v. */
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
    /* refusal says why the kernel refuses its instruction (uprobe_insn.h),
     * or NULL; a refused probe that did not move to its calls is skipped
     * (not attached): with a warning when a wildcard or a `?` point matched
     * it (probe.may_skip), else it is an error. */
    const char *refusal;
    int sleepable;               /* may fault user pages in (user_string) */
    int entry_sleepable;         /* an entry value reads a user string */
    uint64_t entry_offset, entry_vaddr;  /* where the entry program sits: the function's entry */
};

/* PROBE_FIELDS_TRACEPOINT (tracepoint; a raw one in the object): tp_name is the probe's own. */
struct tracepoint_probe {
    const char *category;
    const struct tp_format *format;   /* from tracefs: the record's fields */
    int raw;                     /* reading prototype arguments: a raw tracepoint */
    int reads_fields;            /* reading tracefs record fields */
    /* At syscalls:sys_enter_NAME whose body reads user strings at these
     * addresses (expressions of the record's fields): when one does not
     * read at entry (not resident yet), the handler runs at exit_name on a
     * copy of the record's record_size bytes (sema/syscall_defer.c). */
    struct expr **user_checks;
    int user_check_count;
    const char *exit_name;
    int record_size;
};

/* PROBE_FIELDS_KPROBE, a kernel function's probe: fentry/fexit, kprobe/kretprobe
 * (kinds/kernel_function.c, kinds/kprobe.c); probe_kprobe() reads it. */
struct kprobe_probe {
    int btf_id;                  /* the function's BTF FUNC in vmlinux or its module; 0 for kprobe.function */
    const char *module;          /* in module(...): its name (BTF, attach) */
    int multi;                   /* a group attached as one kprobe_multi link */
    const char *symbol;          /* the kernel symbol attached when not the function's name: its GCC clone
                                  * (finish_task_switch.isra.0); NULL: the name */
    /* PROBE_KPROBE at kernel.statement(ADDRESS) or ("func@file:line"): where
     * in the function; by line, its place in vmlinux DWARF, where $variables
     * are read. */
    uint64_t offset;
    struct uprobe_site *site;
};

/* PROBE_FIELDS_PROCFS, procfs("file").read/.write (kinds/procfs.c): a FIFO the runtime serves. */
struct procfs_probe {
    const char *file;            /* relative to the session's directory */
    int write;                   /* .write; 0: .read */
    unsigned mode;               /* the file's permissions, after .umask */
    uint64_t maxsize;            /* .read: .maxsize(N), else MAXSTRINGLEN */
};

/* PROBE_FIELDS_NETFILTER: the hook of a BPF netfilter link (kinds/netfilter.c). */
struct netfilter_probe {
    int pf, hooknum, priority;
};

/* One concrete attachment: a probe declaration with several points (or a
 * wildcard) becomes several of these sharing one body. The fields of one
 * kind are its member of the union, the one its descriptor's probe_fields
 * names: read them only for such a kind (probe_is_uprobe, probe_uprobe). */
struct probe {
    enum probe_kind kind;        /* kinds/probe_kind.h: its descriptor says how it resolves, generates, attaches */
    const char *point;           /* canonical text, as pp() returns it */
    struct span span;
    struct stmt *body;           /* STMT_BLOCK: alias prologues, the handler, epilogues */
    struct frame_layout *frame;  /* shared by probes with the same body */
    struct expr *condition;      /* `if (expr)` or NULL */
    int64_t order;               /* PROBE_BEGIN/END/ERROR: the sequence number */
    union {
        struct perf_probe perf;
        struct uprobe_probe uprobe;
        struct tracepoint_probe tracepoint;
        struct kprobe_probe kprobe;
        struct procfs_probe procfs;
        struct netfilter_probe netfilter;
    };
    const char *function;        /* PROBE_UPROBE/URETPROBE, PROBE_FENTRY/FEXIT: ppfunc() */
    const char *tp_name;         /* PROBE_TRACEPOINT, RAW_TRACEPOINT; the kernel function of FENTRY/FEXIT, KPROBE/KRETPROBE */
    int may_skip;                /* a refusal or attach failure skips it with a warning (a wildcard or `?` matched it) */
    int target_tree;             /* with -c/-x, fires only in the target's process tree (process.syscall's tracepoint) */
    const char *variables;       /* -L's " $name:type" list where the resolver names them (process.syscall) */
    /* PROBE_UPROBE/URETPROBE, PROBE_KRETPROBE: @entry snapshots and entry
     * values (longs, strings), taken by an extra entry program, keyed by
     * the CFA of the probed frame (rsp after a return). */
    struct expr **entry_values;
    int entry_count;
    struct expr *entry_key;
    /* PROBE_UPROBE/URETPROBE, PROBE_KPROBE/KRETPROBE whose bodies read no
     * target variables: one program serves the group (a uprobe_multi or
     * kprobe_multi link), pp()/ppfunc() by cookie. */
    struct probe *group_leader;  /* NULL: generates its own program */
    struct probe **group;        /* the leader: every member, itself first */
    int group_count;
    uint64_t cookie;             /* index in the leader's group */
    const char *alias_point;     /* pn() when not pp(): the alias name the user's point matched, or a PLT
                                  * probe's process(...).plt("NAME") (sema/uprobe_plt.c) */
    const char *written_point;   /* the user's point as the script wrote it (before wildcards, aliases) */
    struct span decl_span;       /* its declaration's `probe` keyword: -t's report names it */
    int index;                   /* in script order */
};

/* Whether the probe's kind uses that member of the union (its descriptor
 * says: kinds.h's probe_fields). */
static inline int probe_has_fields(const struct probe *probe, enum probe_fields fields)
{
    return probe_kind_ops(probe->kind)->probe_fields == fields;
}

static inline int probe_is_uprobe(const struct probe *probe)
{
    return probe_has_fields(probe, PROBE_FIELDS_UPROBE);
}

/* pn(): SystemTap's script-level probe point (its derived_probe::
 * script_location): the alias the point named, else the point itself, as
 * pp() after wildcards and braces are expanded. */
static inline const char *probe_script_point(const struct probe *probe)
{
    return probe->alias_point ? probe->alias_point : probe->point;
}

static inline int probe_is_tracepoint(const struct probe *probe)
{
    return probe_has_fields(probe, PROBE_FIELDS_TRACEPOINT);
}

/* For code that serves every kind: a uprobe's or tracepoint's fields, and
 * all zero (no site, no refusal, no deferral) for the other kinds. */
static inline const struct uprobe_probe *probe_uprobe(const struct probe *probe)
{
    static const struct uprobe_probe none;
    return probe_is_uprobe(probe) ? &probe->uprobe : &none;
}

static inline const struct tracepoint_probe *probe_tracepoint(const struct probe *probe)
{
    static const struct tracepoint_probe none;
    return probe_is_tracepoint(probe) ? &probe->tracepoint : &none;
}

static inline int probe_is_kernel_function(const struct probe *probe)
{
    return probe_has_fields(probe, PROBE_FIELDS_KPROBE);
}

static inline const struct kprobe_probe *probe_kprobe(const struct probe *probe)
{
    static const struct kprobe_probe none;
    return probe_is_kernel_function(probe) ? &probe->kprobe : &none;
}

/* A timer's, profile's or perf probe's fields; all zero (no randomize) for the other kinds. */
static inline const struct perf_probe *probe_perf(const struct probe *probe)
{
    static const struct perf_probe none;
    return probe_has_fields(probe, PROBE_FIELDS_PERF) ? &probe->perf : &none;
}

/* Where in its file (uprobe) or function (kernel.statement's kprobe) the
 * probe attaches; 0 for the other kinds. */
static inline uint64_t probe_attach_offset(const struct probe *probe)
{
    return probe_is_uprobe(probe) ? probe->uprobe.offset : probe_kprobe(probe)->offset;
}

/* Where DWARF describes the probed code: a uprobe's site, or a kernel
 * statement's by line; NULL for the other kinds. */
static inline struct uprobe_site *probe_dwarf_site(const struct probe *probe)
{
    return probe_is_uprobe(probe) ? probe->uprobe.site : probe_kprobe(probe)->site;
}

struct sema_options {
    const char **tapset_dirs;    /* searched in order */
    int tapset_dir_count;
    int keep_unused;             /* -u */
    const char **set_globals;    /* the globals -G sets: never "never-assigned" */
    int set_global_count;
    int64_t max_map_entries;     /* -D MAXMAPENTRIES */
    int string_size;             /* -D MAXSTRINGLEN */
    int hist_elision;            /* -D HIST_ELISION: for sprint(@hist_*(s)); < 0: none elided */
    char **args;                 /* the script's arguments: tapsets see $# and @N too (argv.tp) */
    int arg_count;
    const char *target_command;  /* -c: names the binary of process.function(...) */
    int target_pid;              /* -x: likewise, through /proc/PID/exe */
    struct dwarf_modules *modules;   /* the binaries opened (sema/dwarf.h), closed by the caller */
    int entry_only;              /* --probe-entry: function probes stay on the first instruction */
    int no_insn_check;           /* -D TAP_DEBUG_NO_INSN_CHECK=1: leave refused instructions to the
                                  * kernel, so tests see how an attach failure is handled */
    int compile_only;            /* -p1..-p4: nothing runs here, so a probe on the -c/-x target
                                  * compiles without one (--run OBJ asks for it) */
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

/* The perf .counter("NAME") probe that declares NAME; NULL when none (sema/perf.c). */
const struct probe *sema_perf_counter(const struct script *script, const char *name);

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
