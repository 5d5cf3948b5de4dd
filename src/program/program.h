/* What codegen hands the runtime: a BPF ELF object plus the metadata needed to
 * attach its programs and decode what they send. The runtime needs nothing
 * else (no AST, no DWARF, no LLVM), which is what makes `-p4` objects runnable
 * elsewhere with `--run`.
 *
 * Conventions shared by codegen and runtime (the ELF's side of the contract):
 *  - one BPF program per probe, named by program_probe.prog_name;
 *  - map `tap_events` (BPF_MAP_TYPE_RINGBUF): printf records;
 *  - map `tap_control` (BPF_MAP_TYPE_RINGBUF, small): exit and error records,
 *    kept apart so a flood of output can never drop them;
 *  - section `.data`: the script's global scalars at program_global.offset, and
 *    `struct tap_state` at program.state_offset;
 *  - map `tap_scratch` (PERCPU_ARRAY, 1 entry): strings and records too big for
 *    the 512-byte BPF stack.
 */
#ifndef TAP_PROGRAM_PROGRAM_H
#define TAP_PROGRAM_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "kinds/probe_kind.h"

/* Every ring-buffer record starts with this header. */
struct record_header {
    uint32_t kind;           /* enum record_kind */
    uint32_t id;             /* format index, error index, ... */
};

enum record_kind {
    RECORD_PRINTF = 1,       /* id: format index; arguments follow at their offsets */
    RECORD_EXIT = 2,         /* exit() was called */
    RECORD_ERROR = 3,        /* id: error index; struct record_error follows the header */
    RECORD_HIST = 4,         /* id: index in program.maps; then int64_t first and the counts
                              * (int64_t) of buckets first, first + 1, ... to the record's end:
                              * the non-empty range of that statistic's histogram, summed over
                              * the CPUs when print ran (other buckets are 0) */
    RECORD_WARN = 5,         /* warn(msg): the message follows the header, NUL-terminated
                              * within string_size bytes (tap_events) */
    RECORD_ABORT = 6,        /* abort(): stop now, no end probes (tap_control) */
    RECORD_USTACK = 7,       /* struct record_stack: print_ubacktrace() (id 0), or print_ustack(s)
                              * (id 1, the string s follows, string_size bytes); id | 2: folded,
                              * print_ustack_folded(s) (the frames root first, joined by ';') */
    RECORD_KSTACK = 8,       /* likewise for the kernel stack, without frames[]: print_backtrace()
                              * (id 0), print_stack(s) (id 1), print_stack_folded(s) (id 3) */
    RECORD_COMMAND = 9,      /* through tap_events, in its place among the output: system(cmd)
                              * (id 0, cmd follows as warn's message does), switch_file() (id 1) */
    RECORD_PROCFS = 10,      /* through tap_events: a procfs read probe's $value = (id bit 0 clear)
                              * or .= (set) text; id >> 1: the error index for a value past maxsize */
};

#define RECORD_STACK_DEPTH 20    /* frames kept, SystemTap's MAXBACKTRACE */

/* One user frame as bpf_get_stack(BPF_F_USER_BUILD_ID) gives it. */
struct record_stack_frame {
    int32_t status;          /* 0: none, 1: build_id + offset, 2: ip only */
    unsigned char build_id[20];
    uint64_t offset_or_ip;   /* file offset (status 1), else the address */
};

/* User ips come from tap's own frame-pointer walk (codegen/stack.c), the
 * build-id frames from the kernel's walk, which may differ (it does not stop
 * at garbage): frame_ips[j] is the address frames[j] describes, so a frame is
 * matched by address. */
struct record_stack {
    struct record_header header;
    uint32_t pid;            /* the thread group whose stack this is */
    uint32_t count;          /* frames in ips[] */
    uint64_t ips[RECORD_STACK_DEPTH];
    struct record_stack_frame frames[RECORD_STACK_DEPTH];   /* RECORD_USTACK only, and frame_ips */
    uint64_t frame_ips[RECORD_STACK_DEPTH];
};

struct record_error {
    struct record_header header;
    int64_t value;           /* e.g. the faulting address for "user memory fault" */
    /* When program_error.message is NULL (error("...")), the message text
     * follows here, NUL-terminated within string_size bytes. */
};

/* Shared state the BPF programs and the runtime both see, inside `.data`. */
struct tap_state {
    uint64_t exiting;        /* set by exit() or a runtime error: handlers stop running */
    uint64_t error_count;    /* runtime errors raised */
    uint64_t lost_events;    /* records dropped because tap_events was full */
    uint64_t skipped_probes; /* handlers skipped (e.g. reentrancy, missing scratch) */
    uint64_t target_pid;     /* target(): the -c child or -x pid, 0 without; written by the
                              * runtime before load (the -c child is forked first) */
    int64_t realtime_offset_ns;  /* CLOCK_REALTIME - CLOCK_BOOTTIME, for gettimeofday_*() */
    uint64_t wakeup_bytes;   /* tap_events: a record wakes user space when this much is
                              * unread (written by the runtime before load) ... */
    uint64_t last_wakeup_ns; /* ... or when none did for TAP_WAKEUP_PERIOD_NS */
    uint64_t tap_pid;        /* stp_pid(): tap's own process, written by the runtime before load */
};

/* usymname(), usymdata(), umodname(): symbol tables the runtime fills
 * before attaching, for the files it indexed (symbols.h), when the object
 * has these maps:
 *  - `tap_sym_files` (HASH): key struct symbol_map_key, the file's device
 *    (as the kernel encodes it, major << 20 | minor) and inode, value
 *    struct symbol_map_file;
 *  - `tap_sym_names` (ARRAY): struct symbol_map_entry, each file's functions
 *    sorted by start, files one after the other;
 *  - `tap_sym_paths` (ARRAY): each file's path, SYMBOL_PATH_SIZE chars. */
#define SYMBOL_NAME_SIZE 128
#define SYMBOL_WANTED_FILES 1024   /* tap_sym_wanted: files met without symbols, for the runtime */
#define SYMBOL_PATH_SIZE 256

struct symbol_map_key {
    uint64_t dev, ino;
};

struct symbol_map_file {
    uint32_t first, count;   /* its entries in tap_sym_names */
    uint32_t path;           /* index in tap_sym_paths */
    uint32_t unused;
};

struct symbol_map_entry {
    uint64_t start, size;    /* file offsets */
    char name[SYMBOL_NAME_SIZE];
};

/* usymfileline(), usymfile(), usymline(): each file's DWARF line table,
 * built by the runtime (line_rows.c) when the object has these maps:
 *  - `tap_line_files` (HASH): key struct symbol_map_key, value struct
 *    line_map_file;
 *  - `tap_line_rows` (ARRAY): struct line_map_row, each file's rows sorted
 *    by offset, files one after the other. A row holds until the next one;
 *  - `tap_line_sources` (ARRAY): source file paths, SYMBOL_PATH_SIZE chars,
 *    which rows name by index. */
#define LINE_NO_SOURCE UINT32_MAX    /* a row with no line information (a gap between sequences) */

struct line_map_row {
    uint32_t offset;         /* file offset of the first instruction it covers */
    uint32_t line;           /* 0: the compiler gave none (SystemTap prints the file alone) */
    uint32_t source;         /* index in tap_line_sources, or LINE_NO_SOURCE */
    uint32_t unused;
};

struct line_map_file {
    uint32_t first, count;   /* its rows in tap_line_rows */
};

/* User stacks without frame pointers: each file's DWARF CFI (.eh_frame,
 * else .debug_frame) compiled by the runtime (unwind_rows.c) into rows that
 * BPF's stack walk looks up by file offset (codegen/stack.c), when the object
 * has these maps:
 *  - `tap_unwind_files` (HASH): key struct symbol_map_key, value struct
 *    unwind_file;
 *  - `tap_unwind_rows` (ARRAY): struct unwind_row, each file's rows sorted
 *    by offset, files one after the other. A row holds until the next one. */
enum unwind_kind {
    UNWIND_FRAME_POINTER,    /* no CFI here: walk the frame-pointer record at rbp */
    UNWIND_CFA_RSP,          /* CFA = rsp + cfa, return address at CFA - 8 */
    UNWIND_CFA_RBP,          /* CFA = rbp + cfa, return address at CFA - 8 */
    UNWIND_OUTERMOST,        /* the return address is undefined: the stack ends here (_start, clone) */
};

#define UNWIND_WANTED_FILES 1024   /* tap_unwind_wanted: files met without rows, for the runtime */

struct unwind_row {
    uint32_t offset;         /* file offset of the first instruction it covers */
    int32_t cfa;
    int16_t rbp;             /* the caller's rbp is saved at CFA + rbp; 0: rbp is unchanged */
    uint8_t kind;            /* enum unwind_kind */
    uint8_t unused;
};

struct unwind_file {
    uint32_t first, count;   /* its rows in tap_unwind_rows */
};

/* Records in tap_events are submitted without a wakeup unless one of the
 * conditions above holds; user space polls at least this often, so a record
 * that woke nobody waits at most one period. */
#define TAP_WAKEUP_PERIOD_NS 10000000ull

/* A kind's own fields of its program_probe: a struct its file in src/kinds
 * defines, which its describe hook allocates (program_probe.kind_fields) and
 * its kind's table (probe_kind_ops.program_fields) lists, so program_io.c
 * writes, reads and frees them without a list of kinds. */
enum program_field_type {
    PROGRAM_FIELD_U64,       /* uint64_t */
    PROGRAM_FIELD_U32,       /* uint32_t */
    PROGRAM_FIELD_I32,       /* int32_t */
    PROGRAM_FIELD_INT,       /* int */
    PROGRAM_FIELD_STRING,    /* char *, malloc'ed, may be NULL */
};

struct program_field {
    enum program_field_type type;
    size_t offset;           /* in the kind's struct */
};

struct program_fields {
    size_t size;             /* of the kind's struct */
    int count;
    const struct program_field *fields;   /* in the order they are written */
};

/* A table's entry for member of the kind's struct type, of a TYPE above. */
#define PROGRAM_FIELD(TYPE, type, member) {PROGRAM_FIELD_##TYPE, offsetof(type, member)}
/* The initializer of a table whose entries are the arguments. */
#define PROGRAM_FIELDS(type, ...)                                                            \
    {sizeof(type),                                                                          \
        (int)(sizeof((const struct program_field[]){__VA_ARGS__}) / sizeof(struct program_field)), \
        (const struct program_field[]){__VA_ARGS__}}

struct program_probe {
    enum probe_kind kind;    /* kinds/probe_kind.h */
    char *prog_name;         /* the BPF program's name in the object */
    char *point;             /* the probe point as pp() prints it */
    int64_t order;           /* begin(N)/end(N)/error(N) sequence; ties keep script order */
    /* Where it attaches, shared by several kinds: */
    char *path;              /* uprobes: canonical absolute path of the binary; PROBE_PROCFS: the
                              * file's name under the session's directory */
    uint64_t offset;         /* uprobes: file offset; kprobes: offset in the function */
    uint64_t cookie;         /* bpf cookie, for probes sharing one program */
    /* PROBE_TRACEPOINT (and tp_name: PROBE_RAW_TRACEPOINT's tracepoint,
     * PROBE_FENTRY/FEXIT's kernel function): */
    char *tp_category;
    char *tp_name;
    int may_skip;            /* uprobes, kprobes: one of many a wildcard matched: if the
                              * kernel refuses it, a warning and the session goes on */
    void *kind_fields;       /* the kind's own (above); NULL: it has none */
};

enum format_arg_kind {
    FORMAT_ARG_LONG,         /* int64_t at offset */
    FORMAT_ARG_STRING,       /* NUL-terminated chars at offset, at most size bytes */
    FORMAT_ARG_MEMORY,       /* %m/%M: int64_t count at offset, then size - 8 bytes */
};

struct format_arg {
    enum format_arg_kind kind;
    uint32_t offset;         /* from the start of the record (header included) */
    uint32_t size;
};

/* One printf call site (print/println/printd are lowered to printf). */
struct program_format {
    char *format;            /* the literal format string, checked at compile time */
    struct format_arg *args;
    int arg_count;
    uint32_t record_size;
};

/* One place in the script that can raise a runtime error. */
struct program_error {
    char *message;           /* "division by 0"; may contain one %lld or %llx for
                              * record_error.value; NULL: the text is in the record */
    char *location;          /* "operator '/' at <input>:1:20" */
};

enum program_global_kind {
    PROGRAM_GLOBAL_LONG,     /* int64_t at offset in .data */
    PROGRAM_GLOBAL_STRING,   /* char[size] at offset in .data */
};

struct program_global {
    char *name;
    enum program_global_kind kind;
    uint32_t offset;         /* in .data */
    uint32_t size;
    int print_at_end;        /* written but its value never used: printed when the session ends */
    int decl_index;          /* declaration order among all globals (arrays too) */
};

/* Arrays and statistics: one BPF hash map each (`map_name` in the object).
 * Keys are structs of key_count fields: int64_t for longs, string_size chars
 * (NUL-padded) for strings; a scalar statistic is a PERCPU_ARRAY with one
 * element, key (uint32_t) 0, whose count is 0 until something is added.
 * Values: int64_t, string_size chars, or struct stat_value followed by
 * bucket_count int64_t buckets; then the insertion number at seq_offset.
 * Statistics are per-CPU maps, summed here. */
enum program_map_kind {
    PROGRAM_MAP_LONG,
    PROGRAM_MAP_STRING,
    PROGRAM_MAP_STATS,
};

enum program_hist_kind {
    PROGRAM_HIST_NONE,
    PROGRAM_HIST_LOG,        /* HIST_LOG_BUCKETS buckets, see hist.h */
    PROGRAM_HIST_LINEAR,     /* hist_linear_bucket_count(start, stop, interval) buckets */
};

struct stat_value {
    int64_t count, sum, min, max;
    int64_t avg_s, m2, variance_s;   /* stap's per-CPU Welford state, for @variance */
};

#define PROGRAM_MAX_KEYS 9

struct program_map {
    char *name;              /* the script's name */
    char *map_name;          /* the BPF map */
    int decl_index;          /* declaration order among all globals */
    enum program_map_kind kind;
    int is_scalar;           /* a statistic, not an array */
    int key_count;
    enum format_arg_kind key_kinds[PROGRAM_MAX_KEYS];
    uint32_t key_offsets[PROGRAM_MAX_KEYS];
    uint32_t key_size, value_size;
    uint32_t seq_offset;     /* in the value: the element's insertion number (int64_t), which
                              * orders equal sort values as stap does (insertion order) */
    int print_at_end;
    enum program_hist_kind hist;
    int64_t hist_start, hist_stop, hist_interval;
    int bucket_count;
};

/* -t: a handler's runs, in map `tap_timing` (PERCPU_ARRAY, one slot per
 * probe point in timed[] order): the runtime folds the CPUs at the end. */
struct program_timing_value {
    uint64_t count, sum_ns, min_ns, max_ns;
    uint64_t sum_squares;    /* of the ns values: the variance */
};

struct program_timed_probe {
    char *point;             /* pp() */
    char *location;          /* its declaration's `probe` keyword: file:line:col */
    char *derivation;        /* " from: POINT" for each point it was derived from */
    int index;               /* the probe's number in script order */
};

struct program {
    void *object;            /* the BPF ELF object */
    size_t object_size;
    struct program_probe *probes;
    int probe_count;
    struct program_format *formats;
    int format_count;
    struct program_error *errors;
    int error_count;
    struct program_global *globals;
    int global_count;
    uint32_t state_offset;   /* struct tap_state within .data */
    uint32_t string_size;    /* MAXSTRINGLEN */
    struct program_map *maps;
    int map_count;
    int hist_elision;        /* HIST_ELISION */
    int64_t max_errors;      /* MAXERRORS: runtime errors the session survives; the next ends it */
    int bpf_isa;             /* the BPF instruction set the object needs (LLVM's cpu vN) */
    char *kernel_release;    /* the kernel it was compiled on, whose BTF gave its structure offsets: */
    char *kernel_build_id;   /* --run refuses another (NULL: not known) */
    int user_frames;         /* a probe captures user frames as build-id + offset (print_ubacktrace ...):
                              * the runtime follows file mappings to name them (mappings.c) */
    struct program_timed_probe *timed;   /* -t: the probe hit report's rows, by tap_timing slot */
    int timed_count;
};

/* Frees everything a struct program owns (it is heap-allocated, not in an
 * arena, because it outlives the compilation). */
void program_free(struct program *program);

#endif
