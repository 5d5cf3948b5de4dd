/* The kinds of probe, one enum for the compiler and the runtime: sema
 * resolves a point to one, codegen writes it into the object's metadata
 * (struct program_probe) and the runtime attaches by it. Each line names a
 * kind and its descriptor (kinds.h), defined in this folder; the enum and
 * the registry (registry.c) are made from this list. The values are stored
 * in -p4 objects: new kinds go at the end. */
#ifndef TAP_KINDS_PROBE_KIND_H
#define TAP_KINDS_PROBE_KIND_H

#define PROBE_KIND_LIST(X)                                                                 \
    X(PROBE_BEGIN, begin_kind)           /* raw_tp program run once (bpf_prog_test_run) */  \
    X(PROBE_END, end_kind)               /* likewise, when the session ends normally */     \
    X(PROBE_ERROR, error_kind)           /* likewise, instead of end after an error */      \
    X(PROBE_TIMER, timer_kind)           /* perf_event program on cpu-clock, CPU 0 */       \
    X(PROBE_PROFILE, profile_kind)       /* perf_event program on cpu-clock, every CPU */   \
    X(PROBE_PERF, perf_kind)             /* perf_event program, perf_type/config, every CPU */ \
    X(PROBE_UPROBE, uprobe_kind)         /* uprobe at path + offset */                      \
    X(PROBE_URETPROBE, uretprobe_kind)   /* uretprobe at path + offset */                   \
    X(PROBE_TRACEPOINT, tracepoint_kind) /* tracepoint category:name */                     \
    X(PROBE_RAW_TRACEPOINT, raw_tracepoint_kind) /* raw tracepoint tp_name: arguments as context */ \
    X(PROBE_NEVER, never_kind)           /* checked as any probe, dropped before codegen */  \
    X(PROBE_FENTRY, fentry_kind)         /* kernel.function(...).call: BPF trampoline, tp_name */ \
    X(PROBE_FEXIT, fexit_kind)           /* kernel.function(...).return: likewise */      \
    X(PROBE_KPROBE, kprobe_kind)         /* kprobe (or kprobe_multi) on tp_name */           \
    X(PROBE_KRETPROBE, kretprobe_kind)   /* kretprobe (or kretprobe_multi) on tp_name */     \
    X(PROBE_INPUT, input_kind)           /* raw_tp program run for each byte of tap's stdin */ \
    X(PROBE_PROCFS, procfs_kind)         /* raw_tp program run for a reader or writer of a FIFO */ \
    X(PROBE_NETFILTER, netfilter_kind)   /* BPF netfilter link: pf, hook, priority */ \
    X(PROBE_PLT, plt_kind)               /* process(...).plt: a uprobe at a PLT stub */ \
    X(PROBE_PLT_RETURN, plt_return_kind) /* process(...).plt.return: a uretprobe there */ \
    X(PROBE_WATCHPOINT, watchpoint_kind) /* kernel.data, process.data: perf breakpoint event */ \
    X(PROBE_LSM, lsm_kind)               /* kernel.lsm("HOOK"): BPF LSM program on bpf_lsm_HOOK */

#define PROBE_KIND_ENUMERATOR(kind, ops) kind,
enum probe_kind {
    PROBE_KIND_LIST(PROBE_KIND_ENUMERATOR)
    PROBE_KIND_COUNT
};
#undef PROBE_KIND_ENUMERATOR

#endif
