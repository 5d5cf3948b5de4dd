/* Code generation: a resolved script to a BPF ELF object (LLVM C API), plus
 * the metadata the runtime needs (struct program). */
#ifndef TAP_CODEGEN_CODEGEN_H
#define TAP_CODEGEN_CODEGEN_H

#include <stdint.h>
#include <stdio.h>

struct arena;
struct diags;
struct script;
struct program;

struct codegen_options {
    uint32_t string_size;        /* MAXSTRINGLEN: a power of two */
    uint32_t events_size;        /* bytes in the output ring buffer: a power of two */
    int64_t max_action;          /* MAXACTION: iterations a loop may run per handler */
    int max_nesting;             /* MAXNESTING: recursion depth */
    int64_t max_map_entries;     /* MAXMAPENTRIES: arrays declared without a size; 0: 2048 */
    int64_t max_errors;          /* MAXERRORS: runtime errors the session survives (0: the first ends it) */
    int suppress_handler_errors; /* --suppress-handler-errors: errors end their handler, counted, not reported */
    int timing;                  /* -t: count and time each handler (timing.c) */
    int hist_elision;            /* HIST_ELISION: empty histogram rows kept around data; < 0: 2 */
    int bpf_isa;                 /* LLVM's BPF cpu, 2..4: the newest set the kernel takes (runtime/kernel.h) */
    const char *kernel_release;  /* the kernel compiled for, recorded in the object's metadata */
    const char *kernel_build_id; /* (NULL: not known) */
    int debug_reject;            /* -D TAP_DEBUG_REJECT=1 (tests): every probe's first statement
                                    makes the verifier reject it */
    uint32_t defer_entries;      /* -D TAP_DEBUG_DEFER_ENTRIES=N (tests): threads that can wait in
                                    a deferred syscall at once (syscall_defer.c); 0: 10240 */
    FILE *ir_out;                /* -p3: the optimised IR is printed here */
    double *translate_ms;        /* out: time to build and optimise the IR (pass 3) */
    double *object_ms;           /* out: time to emit the object (pass 4) */
    const char *cache_dir;       /* the compile cache (object_cache.h); NULL: none */
    const char **cached_object;  /* out: the cache entry's path when the object came from it */
};

/* Returns NULL after reporting an error. The program is heap-allocated:
 * program_free() releases it. */
struct program *codegen_emit(struct arena *arena, struct diags *diags, const struct script *script,
                             const struct codegen_options *options);

#endif
