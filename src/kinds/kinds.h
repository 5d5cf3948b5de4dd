/* Probe kinds as descriptors (after ply's providers): everything tap does
 * for one kind of probe, from resolving its point to attaching it, is a
 * hook of its `struct probe_kind_ops`, defined in one file of this folder
 * and listed once in registry.c. The generic passes (sema/probes.c,
 * codegen/probes.c, runtime/load.c and attach.c, -p2, -l, the catalogue)
 * ask the registry instead of switching on kinds. docs/ARCHITECTURE.md,
 * "How to add a probe kind". */
#ifndef TAP_KINDS_KINDS_H
#define TAP_KINDS_KINDS_H

#include <stddef.h>
#include <stdio.h>

#include "kinds/probe_kind.h"

struct arena;
struct diags;
struct sema;
struct probe;
struct probe_point;
struct expr;
struct program_probe;
struct program_fields;
struct session;
struct bpf_program;
struct register_arg_function;

/* What the generic passes need to know about a kind's programs. */
enum probe_kind_flag {
    KIND_RUNS_ONCE = 1 << 0,     /* run by the runtime (test_run), never attached, never nested: no
                                  * traced thread, so no stacks and uaddr() 0 (codegen/stack.c) */
    KIND_RUNS_AT_END = 1 << 1,   /* still runs after exit() or an error (end, error) */
    KIND_USER_PROCESS = 1 << 2,  /* fires in user processes: -c/-x filter, pt_regs copied (codegen/probed_thread.c) */
    KIND_FREQUENT = 1 << 3,      /* may fire at any rate: the events ring gets the large default */
    KIND_UPROBE_MULTI = 1 << 4,  /* attached as uprobe_multi links where the kernel has them */
    KIND_PT_REGS = 1 << 5,       /* the context is struct pt_regs: copied as a process probe's */
    /* @defined($x) in its body: lower_target reported nothing (its 0 means
     * "lowered, nothing left to resolve", not "undefined") */
    KIND_TARGET_DEFINED_UNLESS_REPORTED = 1 << 6,
    KIND_AT_RETURN = 1 << 7,     /* fires as a function returns (-L lists $return) */
    KIND_CHECK_ONLY = 1 << 8,    /* checked as any probe, then dropped: never generated (never) */
    /* codegen (probed_thread.c, context.c, stack.c): */
    KIND_REGS_AT_PROBED_PC = 1 << 9,   /* pt_regs as at the probed instruction: its ip, the stack unchanged */
    KIND_RETURN_PROBE = 1 << 10,       /* at a function's return, a program of entry_kind at its entry (@entry, tail calls) */
    KIND_FUNC_IP = 1 << 11,            /* bpf_get_func_ip is the probed function's address */
    KIND_SAMPLE_REGS = 1 << 12,        /* the context starts with the interrupted pt_regs (bpf_perf_event_data) */
    KIND_TASK_KERNEL_STACK = 1 << 13,  /* the event's regs may have no kernel frames: the task's stack then */
};

/* Which member of struct probe's union (sema/sema.h) the kind's probes
 * use: probe_is_uprobe() and the like ask this, not the kind. */
enum probe_fields {
    PROBE_FIELDS_NONE, PROBE_FIELDS_PERF, PROBE_FIELDS_UPROBE, PROBE_FIELDS_TRACEPOINT, PROBE_FIELDS_KPROBE,
    PROBE_FIELDS_PROCFS, PROBE_FIELDS_NETFILTER,
};

/* When the runtime runs a kind's programs itself (bpf_prog_test_run, with
 * KIND_RUNS_ONCE): RUN_BY_KERNEL, never (attached, the kernel runs them);
 * at the start; at a normal end; at the end after an error; for each byte
 * of tap's standard input; for a reader or writer of the probe's procfs
 * file (runtime/procfs.c serves them by their procfs_program_fields). */
enum probe_run { RUN_BY_KERNEL, RUN_AT_BEGIN, RUN_AT_END, RUN_AT_ERROR, RUN_PER_INPUT_BYTE, RUN_PER_FILE_ACCESS };

/* Sema: the resolver adds the probes the point matches (sema_add_probe,
 * sema_add_probe_copy) and returns how many; 0 after an error (reported
 * unless the point is optional). RESOLVE_AS_ALIAS: not a point of this
 * kind after all, try the tapset aliases (process.begin). */
#define RESOLVE_AS_ALIAS (-1)
typedef int (*probe_resolver)(struct sema *s, struct probe_point *point, struct probe *probe);

/* Runtime: attach probe `index` of the session's program; returns 0, or
 * -errno for the caller to report (attach_failed), or ATTACH_REPORTED when
 * the hook reported its failures itself and the session must end. */
#define ATTACH_REPORTED 1
typedef int (*probe_attacher)(struct session *s, struct bpf_program *prog, int index, char *state);

/* Where the probe stops, for the register-argument calls of its body
 * (int_arg(n), register("rsp"), returnval(): sema/register_args.c). */
enum register_place { REGISTERS_NONE, REGISTERS_AT_ENTRY, REGISTERS_AT_RETURN };

/* One catalogue line (--dump-probe-types) per call. */
typedef void (*catalogue_line)(void *lines, const char *line);

struct probe_kind_ops {
    enum probe_kind kind;
    const char *name;            /* -p2's name of the kind */
    unsigned flags;              /* enum probe_kind_flag */
    enum probe_fields probe_fields;  /* its member of struct probe's union */
    /* sema: the points it resolves, by their leading component names
     * ("timer", "kernel.trace"); the longest match over all kinds wins.
     * A kind made by another kind's resolver has none. */
    const char *const *heads;
    probe_resolver resolve;
    /* -l/-L of its points, when they are not resolved as a script's are
     * (NULL: listing.c resolves `probe PP {}` and prints each pp()): the
     * text as given and as parsed (its errors go to diags). */
    int (*list)(FILE *out, struct arena *arena, struct diags *diags, const struct probe_point *parsed,
                const char *point, int with_variables);
    void (*catalogue)(struct arena *arena, catalogue_line add, void *lines);
    /* a $target of the probe's own body (resolve.c): 1 when it was
     * rewritten (then resolved again); NULL: sema/target_vars.c's lowering */
    int (*lower_target)(struct sema *s, struct expr *e);
    /* @entry(...) in the probe's own body: 1 when rewritten (then resolved
     * again), 0 after an error; NULL: sema/target_vars.c's */
    int (*lower_entry)(struct sema *s, struct expr *e);
    /* `$target = v`, `$target .= v` in the probe's own body: 1 when the
     * assignment was rewritten (then resolved again); NULL: refused */
    int (*lower_assign)(struct sema *s, struct expr *assign);
    /* why an assignment to a $target of its body is refused; NULL: the
     * generic reason (BPF cannot write the traced program's memory) */
    const char *target_write_refusal;
    /* register-argument calls: where the probe stops (NULL: they are
     * refused), and their value (NULL: the register, as a pt_regs context
     * has it; sema/register_args.h has the other answers); NULL after an
     * error */
    enum register_place (*register_place)(const struct sema *s);
    struct expr *(*register_value)(struct sema *s, const struct register_arg_function *f, struct expr *e, int reg);
    /* codegen: the program's ELF section, and the kind's fields of the
     * program_probe the runtime gets (kind, prog_name, point, cookie,
     * may_skip are filled before): a kind with fields of its own allocates
     * its struct into kind_fields (always, when it has program_fields);
     * previous: the program's probe described just before, or NULL (a
     * uprobe copies its binary's build id from it) */
    const char *(*section)(struct arena *arena, const struct probe *probe);
    void (*describe)(const struct probe *probe, const struct program_probe *previous, struct program_probe *out);
    /* the kind of the programs made beside its probes at the function's
     * entry (@entry values, tail jumps: codegen/probed_thread.c): a return
     * probe's, or a uprobe's placed at the function's returns */
    enum probe_kind entry_kind;
    /* the kind's own fields of its program_probe (program/program.h): its
     * struct's size and members, which program_io.c writes and reads and
     * program_free frees; NULL: none */
    const struct program_fields *program_fields;
    /* runtime */
    int prog_type;               /* enum bpf_prog_type */
    int expected_attach_type;    /* enum bpf_attach_type the load needs; 0: none */
    int returns;                 /* what the program returns: netfilter's NF_ACCEPT (1) */
    probe_attacher attach;       /* NULL: not attached (KIND_RUNS_ONCE) */
    enum probe_run runs;         /* the runtime runs it itself, then (session_run_probes) */
    /* what an attach error (-errno) means for this kind; NULL: strerror */
    const char *(*attach_error)(const struct program_probe *probe, int err);
    /* --run of a -p4 object: 0 when the probe still fits this machine, else
     * -1 with why in error (a uprobe's binary must have the build id it was
     * compiled against); NULL: it always does */
    int (*check_run)(const struct program_probe *probe, char *error, size_t error_size);
};

/* The registry (registry.c). */
const struct probe_kind_ops *probe_kind_ops(enum probe_kind kind);
/* The kind's table of its own program_probe fields; NULL: none, or no such kind. */
static inline const struct program_fields *probe_kind_program_fields(enum probe_kind kind)
{
    const struct probe_kind_ops *ops = probe_kind_ops(kind);
    return ops ? ops->program_fields : NULL;
}
/* Whether the kind has flag (enum probe_kind_flag). */
static inline int probe_kind_has(enum probe_kind kind, unsigned flag)
{
    const struct probe_kind_ops *ops = probe_kind_ops(kind);
    return ops && (ops->flags & flag) != 0;
}
/* The kind resolving the point (by its leading component names); NULL:
 * none, the point may be a tapset alias. */
const struct probe_kind_ops *probe_kind_for_point(const struct probe_point *point);

#endif
