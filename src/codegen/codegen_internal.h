/* State shared by the codegen files (not visible outside src/codegen). */
#ifndef TAP_CODEGEN_INTERNAL_H
#define TAP_CODEGEN_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "codegen/codegen.h"
#include "codegen/ir.h"
#include "program/program.h"
#include "sema/sema.h"

/* Scratch layout, per CPU: a header, then string slots of string_size bytes,
 * then 2 * string_size bytes of slack so a bounded access at a variable offset
 * inside the last slot (plus another masked offset, as string functions
 * do) stays inside the map value. */
#define SCRATCH_UNWIND 0        /* u64: 0, or why the handler is unwinding */
#define SCRATCH_BUSY 8          /* u64: a handler owns this CPU's scratch (see probes.c) */
#define SCRATCH_TRY_DEPTH 16    /* u64: how many try blocks are open (stmt.c) */
#define SCRATCH_PROBE_POINT 24  /* u64: the running probe's row in pp()'s table (probed_thread.c) */
#define SCRATCH_OPAQUE 32       /* u64: a value LLVM must not see through (strings.c) */
#define SCRATCH_HEADER_SIZE 64

enum unwind_reason { UNWIND_NONE, UNWIND_ERROR, UNWIND_NEXT, UNWIND_CAUGHT };

/* struct tap_state's u64 fields, by index, for cg_state_field(). */
#define STATE_INDEX(member) ((int)(offsetof(struct tap_state, member) / sizeof(uint64_t)))
#define STATE_EXITING STATE_INDEX(exiting)
#define STATE_ERROR_COUNT STATE_INDEX(error_count)
#define STATE_LOST_EVENTS STATE_INDEX(lost_events)
#define STATE_SKIPPED STATE_INDEX(skipped_probes)
#define STATE_TARGET_PID STATE_INDEX(target_pid)
#define STATE_TAP_PID STATE_INDEX(tap_pid)
#define STATE_REALTIME_OFFSET STATE_INDEX(realtime_offset_ns)
#define STATE_WAKEUP_BYTES STATE_INDEX(wakeup_bytes)
#define STATE_LAST_WAKEUP STATE_INDEX(last_wakeup_ns)

/* Every probe and function has a frame in scratch (not on the BPF stack: the
 * verifier tracks stack values precisely, so loop callbacks that change them
 * would never converge): these fields, then one i64 per local (string locals
 * have string slots instead). */
#define FRAME_LOOP_EXIT 0       /* why the last loop callback stopped */
#define FRAME_RETVAL 1          /* a function's long return value */
#define FRAME_LOCALS 2

enum fn_kind { FN_PROBE, FN_USER, FN_LOOP_BODY };

/* The function being generated. */
struct fn_state {
    enum fn_kind kind;
    LLVMValueRef function;
    LLVMValueRef frame;              /* ptr to the frame struct, inside scratch */
    uint32_t frame_offset;           /* where the frame sits in scratch */
    LLVMTypeRef frame_type;
    struct frame_layout *layout;
    uint32_t *string_slots;          /* per local: scratch offset, for string locals */
    LLVMValueRef scratch;            /* ptr to this CPU's scratch */
    LLVMBasicBlockRef unwind_block;  /* leave the function now (error, next) */
    LLVMBasicBlockRef continue_block;/* FN_LOOP_BODY: the step, then the next iteration */
    LLVMBasicBlockRef return_block;  /* FN_USER */
    uint32_t return_slot_offset;     /* FN_USER returning a string: its scratch slot */
    struct function_decl *user;      /* FN_USER */
    const struct probe *probe;       /* the probe being generated (pp()) */
    LLVMMetadataRef scope;           /* DISubprogram */
    int depth;                       /* FN_USER: recursion clone depth */
    int open_trys;                   /* try blocks open at this point of this function */
    struct fn_state *parent;         /* callbacks: the function to return to */
    LLVMBasicBlockRef parent_block;
    int stack_needs;                 /* FN_PROBE: stacks its entry captures (stack.c) */
    LLVMValueRef loop_context;       /* an i64 alloca: a shared loop callback's context, NULL until used */
    LLVMValueRef kernel_read_slot;   /* an i64 alloca every cg_read_kernel shares, NULL until used */
    LLVMValueRef *register_stores;   /* FN_PROBE, probed_thread.c: the copy's store of each word, NULL when none */
    uint64_t registers_read;         /* FN_PROBE, probed_thread.c: the words of that copy its code reads */
    LLVMValueRef record;             /* FN_PROBE on a tracepoint: where its fields are read, NULL: ctx
                                      * (a deferred handler reads the entry's copy, syscall_defer.c) */
    uint32_t *entry_strings;         /* FN_PROBE, probed_thread.c: per @entry string value, its scratch slot */
};

struct timing_state;
struct stack_state;
struct probed_thread_state;
struct string_functions_state;
struct stats_state;
struct arrays_state;
struct catch_state;

struct codegen {
    struct arena *arena;
    struct diags *diags;
    const struct codegen_options *options;
    const struct script *script;
    LLVMContextRef context;
    LLVMModuleRef module;
    LLVMBuilderRef builder;
    LLVMTargetMachineRef machine;
    char cpu[8];                 /* the BPF cpu compiled for: "v4" */
    LLVMTargetDataRef layout;
    LLVMDIBuilderRef di;
    LLVMMetadataRef di_file, di_unit, di_long, di_int, di_char, di_ptr;
    LLVMTypeRef i1, i8, i32, i64, ptr, void_type;
    /* .data: struct tap_state, then the script's scalar globals. */
    LLVMValueRef data;
    LLVMTypeRef data_type;
    int *global_field;               /* per global index: field in data_type, -1 for arrays */
    LLVMValueRef events_map, control_map, scratch_map;
    LLVMValueRef strcmp_fn;
    LLVMValueRef target_tree_fn;     /* context.c: tap_in_target_tree, NULL until a probe filters */
    uint32_t string_size;
    uint32_t scratch_size;           /* grows as slots are allocated */
    struct program *program;         /* being filled: formats, errors, globals */
    int format_capacity, error_capacity;
    struct fn_state *fn;
    struct task_offsets *task_offsets;   /* context.c: task_struct layout from BTF */
    struct cg_array **arrays;        /* per global index: arrays and statistics, else NULL */
    int callback_count;              /* foreach, delete and string-loop callbacks */
    uint32_t user_memory_gone;       /* syscall_defer.c: in a deferred handler, the scratch u64 saying
                                      * execve replaced the entry's user memory; 0 elsewhere */
    /* Each feature's own state: declared in its file, allocated there on
     * first use (NULL until then). */
    struct timing_state *timing;                     /* timing.c */
    struct stack_state *stack;                       /* stack.c */
    struct probed_thread_state *probed_thread;       /* probed_thread.c */
    struct string_functions_state *string_functions; /* string_functions.c */
    struct stats_state *stats;                       /* stats.c */
    struct arrays_state *arrays_state;               /* arrays.c */
    struct catch_state *catch_state;                 /* records.c: set when the script has a try */
    /* expr.c's cg_expr and stmt.c's cg_stmt, set by the driver: the feature
     * files evaluate their operands and bodies through cg_operand() and
     * cg_statement(), so they sit below the two dispatchers */
    LLVMValueRef (*expr)(struct codegen *cg, struct expr *e);
    void (*stmt)(struct codegen *cg, struct stmt *st);
};

/* strings.c */
LLVMValueRef cg_string_literal(struct codegen *cg, const char *text, int len);
void cg_string_copy(struct codegen *cg, LLVMValueRef dst, LLVMValueRef src);
LLVMValueRef cg_string_concat(struct codegen *cg, LLVMValueRef a, LLVMValueRef b);
/* Copies s to slot + length (NULL: to the empty slot); the new length. */
LLVMValueRef cg_string_append(struct codegen *cg, LLVMValueRef slot, LLVMValueRef length, LLVMValueRef s);
LLVMValueRef cg_opaque(struct codegen *cg, LLVMValueRef value);
LLVMValueRef cg_string_compare(struct codegen *cg, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_string_length(struct codegen *cg, LLVMValueRef s);
void cg_define_string_functions(struct codegen *cg);
struct compiled_format;
int cg_check_memory_sizes(struct codegen *cg, struct expr *format, const struct compiled_format *compiled);
void cg_user_bytes(struct codegen *cg, struct span span, LLVMValueRef address, LLVMValueRef count, uint32_t to);

/* concat.c */
/* The chain of `.` at e, in one slot: into (a local's slot its parts do not
 * read), else a new one. */
LLVMValueRef cg_concat(struct codegen *cg, struct expr *e, LLVMValueRef into);
/* target .= e in place: e's value (split: each part of e's chain, in turn)
 * appended to the string at target. */
LLVMValueRef cg_concat_onto(struct codegen *cg, LLVMValueRef target, struct expr *e, int split);

/* expr.c */
LLVMValueRef cg_expr(struct codegen *cg, struct expr *e);
LLVMValueRef cg_condition(struct codegen *cg, struct expr *e);   /* i1 */

/* stmt.c */
void cg_stmt(struct codegen *cg, struct stmt *st);
int cg_script_has_try(const struct script *script);

/* loops.c: a bpf_loop whose every iteration first runs hook when given
 * (inside the callback: it returns an i1, false ends the loop), then body
 * (break/continue work), then step. */
typedef LLVMValueRef (*cg_loop_hook)(struct codegen *cg, void *data);
void cg_loop(struct codegen *cg, struct stmt *st, struct stmt *body, struct expr *step, cg_loop_hook hook,
             void *hook_data);
/* Why a loop callback stopped, in frame field FRAME_LOOP_EXIT. */
enum loop_exit { LOOP_RUNNING, LOOP_DONE, LOOP_RETURN, LOOP_UNWIND };
void cg_loop_stop(struct codegen *cg, enum loop_exit exit);   /* leave the callback with exit */
LLVMValueRef cg_frame_field(struct codegen *cg, int field);
void cg_add_try_depth(struct codegen *cg, int delta);
/* break, continue and return leave this function's open trys without
 * passing through their landings. */
void cg_close_trys(struct codegen *cg);

/* output.c */
void cg_output_call(struct codegen *cg, struct expr *call, int builtin_id);

/* arrays.c: arrays and statistics are BPF hash maps, one per global */
struct cg_array {
    const struct symbol *symbol;
    LLVMValueRef map;
    int is_stats, is_percpu;
    int is_scalar_stat;              /* a statistic that is not an array: PERCPU_ARRAY, key u32 0 */
    uint32_t key_size, value_size;
    uint32_t seq_offset;             /* the element's insertion number (u64), after the payload */
    uint32_t key_offsets[MAX_ARRAY_KEYS];
    int hist;                        /* enum program_hist_kind */
    int64_t hist_start, hist_stop, hist_interval;
    int bucket_count;
    int has_variance;                /* @variance is read: keep the Welford state */
    int variance_shift, variance_shift_set;
    int map_index;                   /* in program->maps */
};
void cg_define_arrays(struct codegen *cg);
/* foreach bodies: modifying the array walked is an error there */
int cg_iteration_begin(struct codegen *cg, const struct symbol *array);
void cg_iteration_end(struct codegen *cg, int depth);
void cg_check_not_iterated(struct codegen *cg, const struct symbol *array, struct span span);

void cg_finish_arrays(struct codegen *cg);
struct cg_array *cg_array_of(struct codegen *cg, const struct symbol *sym);
LLVMValueRef cg_array_key(struct codegen *cg, struct cg_array *a, struct expr *indices);
LLVMValueRef cg_array_element(struct codegen *cg, struct cg_array *a, LLVMValueRef key, struct span span);
LLVMValueRef cg_array_read(struct codegen *cg, struct expr *e);
LLVMValueRef cg_array_lvalue(struct codegen *cg, struct expr *e);
LLVMValueRef cg_array_in(struct codegen *cg, struct expr *e);
int cg_is_wildcard(const struct expr *e);        /* `*` in an index list */
int cg_has_wildcard(const struct expr *indices);
uint32_t cg_slice_key(struct codegen *cg, struct cg_array *a, struct expr *indices, int *wildcard);
void cg_slice_match(struct codegen *cg, struct cg_array *a, LLVMValueRef key, uint32_t slice, const int *wildcard,
                    LLVMBasicBlockRef differ);
void cg_delete(struct codegen *cg, struct stmt *st);

/* stats.c */
void cg_stat_add(struct codegen *cg, struct expr *e);
LLVMValueRef cg_stat_extract(struct codegen *cg, struct expr *e);
LLVMValueRef cg_hist_bucket(struct codegen *cg, struct expr *e);
void cg_hist_print(struct codegen *cg, struct expr *hist, struct span print_span);
LLVMValueRef cg_stat_value(struct codegen *cg, struct cg_array *a, LLVMValueRef key, enum stat_op op);

/* stat_elements.c: a statistic's per-CPU elements (below arrays.c and
 * stats.c). An element and an aggregate are i64 fields: */
enum stat_field {
    STAT_FIELD_COUNT,
    STAT_FIELD_SUM,
    STAT_FIELD_MIN,
    STAT_FIELD_MAX,
    STAT_FIELD_AVG_S,      /* Welford's running mean, scaled by 2^shift */
    STAT_FIELD_M2,         /* Welford's sum of squared differences, scaled */
    STAT_FIELD_VARIANCE_S, /* this CPU's variance, scaled */
    STAT_FIELD_BUCKET,     /* cg_stat_aggregate(): the requested bucket */
    STAT_FIELD_SEQ,        /* cg_stat_aggregate(): the insertion number (the inserting CPU's) */
    STAT_FIELDS
};
LLVMValueRef cg_stat_field(struct codegen *cg, LLVMValueRef base, int field);
/* Calls visit(elem) for this key's element on every possible CPU that has
 * one; visit ends by branching to the block it is given. */
typedef void (*cg_cpu_elem_visit)(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data);
void cg_stat_each_cpu(struct codegen *cg, struct cg_array *a, LLVMValueRef key, cg_cpu_elem_visit visit,
                      void *data);
/* Sums every CPU's element into STAT_FIELDS i64s in scratch (count 0 when
 * the element does not exist); bucket: index of a bucket to sum too, or NULL. */
LLVMValueRef cg_stat_aggregate(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef bucket);
LLVMValueRef cg_stat_seq(struct codegen *cg, struct cg_array *a, LLVMValueRef key);
void cg_stat_reset(struct codegen *cg, struct cg_array *a, LLVMValueRef key);

/* string_functions.c, regex.c */
LLVMValueRef cg_string_builtin(struct codegen *cg, struct expr *call, int builtin_id);
LLVMValueRef cg_sprintf_builtin(struct codegen *cg, struct expr *call, int builtin_id);   /* sprintf.c */
/* string_quoted(s): "..." with escapes, `"...` when it does not fit. */
LLVMValueRef cg_string_quoted(struct codegen *cg, struct span span, LLVMValueRef s);
LLVMValueRef cg_regex_match(struct codegen *cg, struct expr *e);
/* errno_names.c: __tap_errno_name(e), a row of a .rodata table */
LLVMValueRef cg_errno_name(struct codegen *cg, LLVMValueRef e);

/* perf_counters.c: @perf("NAME"), the target's perf counter NAME */
LLVMValueRef cg_perf_read(struct codegen *cg, struct expr *e);

/* foreach.c */
void cg_foreach(struct codegen *cg, struct stmt *st);

/* functions.c */
LLVMTypeRef cg_frame_type(struct codegen *cg, const struct frame_layout *layout);
void cg_setup_frame(struct codegen *cg, struct frame_layout *layout);
void cg_define_user_functions(struct codegen *cg);
int cg_is_builtin_call(const struct expr *call);
LLVMValueRef cg_call_user(struct codegen *cg, struct expr *call);
/* The same, a string result left in the callee's return slot (valid until
 * its next call) rather than copied. */
LLVMValueRef cg_call_user_result(struct codegen *cg, struct expr *call);

/* meta.c */
void cg_embed_metadata(struct codegen *cg);

/* probed_thread.c: registers and user memory of the probed thread */
void cg_target_probe_entry(struct codegen *cg, LLVMValueRef ctx);
/* After a probe's program: its register copy is queued; once the module
 * is complete, the words of each copy that its probe never reads are not
 * copied, unless a user function reads registers. */
void cg_target_probe_exit(struct codegen *cg);
/* Whether a process probe's attach cookie is its site's file address (rets: the load bias). */
int cg_cookie_is_vaddr(const struct probe *probe);
void cg_target_drop_unread_copies(struct codegen *cg);
LLVMValueRef cg_register(struct codegen *cg, struct expr *e);
LLVMValueRef cg_user_read(struct codegen *cg, struct expr *e);
LLVMValueRef cg_target_builtin(struct codegen *cg, struct expr *call, int builtin_id);
/* Whether a memory reader names kernel memory (kernel_string, kernel_int ...). */
int cg_is_kernel_read(const struct expr *call);
/* size (an i32) bytes of user or kernel memory at address into dst: 0 or -errno. */
LLVMValueRef cg_read_memory(struct codegen *cg, LLVMValueRef dst, LLVMValueRef size, LLVMValueRef address, int kernel);
/* memory_text.c: the UTF-16/UTF-32 string readers and *_buffer_quoted. */
LLVMValueRef cg_memory_text_builtin(struct codegen *cg, struct expr *call, int builtin_id);
/* pp() (which 0), ppfunc() (1) or pn() (2) of a program serving a group of
 * probes: picked by the attach cookie, which cg_group_member() gives. */
LLVMValueRef cg_group_string(struct codegen *cg, int which);
LLVMValueRef cg_group_member(struct codegen *cg);
/* pp() (which 0), ppfunc() (1) or pn() (2) wherever the code runs; in a user
 * function, of the probe that called it, which cg_probe_point_enter() notes
 * at each handler's start when some function reads it. */
LLVMValueRef cg_probe_point_string(struct codegen *cg, int which);
void cg_probe_point_enter(struct codegen *cg, const struct probe *probe);
/* timing.c: -t. cg_timing_start() returns the scratch offset of the start
 * time (0: not timing); cg_timing_end() a block that records the run and
 * goes on to next (next itself when not timing). */
void cg_define_timing(struct codegen *cg);
uint32_t cg_timing_start(struct codegen *cg);
LLVMBasicBlockRef cg_timing_end(struct codegen *cg, uint32_t start, LLVMBasicBlockRef next);
/* randomize.c: timer .randomize(M)'s guard, before the handler; nothing
 * for other probes. */
void cg_randomize_guard(struct codegen *cg, const struct probe *probe, LLVMBasicBlockRef skip);
/* A program beside a .return probe, probe_N_SUFFIX: its probe and, in state, its function. */
struct probe *cg_side_program(struct codegen *cg, const struct probe *ret, const char *suffix, int sleepable,
                              struct fn_state *state);
/* The entry program that saves a .return probe's @entry values. */
const struct probe *cg_define_entry_probe(struct codegen *cg, const struct probe *ret, const char **prog_name);
/* The entry records of a .return probe ({pid_tgid, CFA} -> values, then
 * a tail chain's state): its map, a key on the stack, the state's offset. */
LLVMValueRef cg_entry_map(struct codegen *cg, const struct probe *probe);
LLVMValueRef cg_entry_key(struct codegen *cg, LLVMValueRef cfa);
uint32_t cg_entry_state_offset(struct codegen *cg, const struct probe *probe);
enum { TAIL_STATE_IN_FUNCTION, TAIL_STATE_JUMPING, TAIL_STATE_IN_CHAIN };

/* return_tail.c: the program at a .return probe's tail jumps and chain entries. */
const struct probe *cg_define_tail_probe(struct codegen *cg, const struct probe *ret, const char **prog_name);

/* tracepoint.c */
LLVMValueRef cg_ctx_read(struct codegen *cg, struct expr *e);

/* syscall_defer.c: a syscall-entry handler run at the exit when its user
 * strings are not resident at entry; its program is attached at both. */
#define DEFER_EXIT_COOKIE 1      /* the attach cookie at the syscall's exit */
struct defer_state {
    LLVMValueRef key;            /* {pid_tgid, probe index} on the stack */
    LLVMValueRef at_exit;        /* i1: running at the exit tracepoint */
    LLVMValueRef saved;          /* at the exit: the entry's saved value */
};
void cg_defer_begin(struct codegen *cg, const struct probe *probe, struct defer_state *d, LLVMBasicBlockRef none);
void cg_defer_record(struct codegen *cg, const struct probe *probe, const struct defer_state *d);
void cg_defer_check(struct codegen *cg, const struct probe *probe, const struct defer_state *d,
                    LLVMBasicBlockRef done);
void cg_defer_end(struct codegen *cg, const struct defer_state *d);

/* context.c: ppid(), pexecname(), euid(), jiffies(); the -c/-x process tree */
LLVMValueRef cg_in_target_tree(struct codegen *cg, LLVMValueRef target);
LLVMValueRef cg_context_call(struct codegen *cg, struct expr *e, int builtin_id);
int cg_read_vma_file(struct codegen *cg, LLVMValueRef vma, LLVMValueRef out, struct span span);
LLVMValueRef cg_current_mm(struct codegen *cg);

/* stack.c: backtraces, captured at the probe's entry (see there) */
LLVMBasicBlockRef cg_stack_begin(struct codegen *cg);
void cg_stack_finish(struct codegen *cg, LLVMBasicBlockRef capture, LLVMValueRef ctx);
LLVMValueRef cg_stack_builtin(struct codegen *cg, struct expr *call, int builtin_id);
LLVMValueRef cg_stack_user_pc(struct codegen *cg);

/* probes.c */
void cg_define_probes(struct codegen *cg);

#endif
