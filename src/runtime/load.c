/* Open the object from memory, give each program the type of its probe
 * kind, write -G settings and target() into .data, load. libbpf stays quiet
 * unless -v: a rejection is reported as one line from the verifier log. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "runtime/session.h"

#define LOG_BUF_SIZE (1u << 20)

/* libbpf's print callback has no context argument. */
static struct session *print_session;

/* The name between prefix and suffix in a libbpf message, the first time. */
static void remember_failure(const char *line, const char *prefix, const char *suffix, char *name,
                             size_t size)
{
    const char *p = strstr(line, prefix);
    const char *q = p ? strstr(p + strlen(prefix), suffix) : NULL;
    if (q && !name[0])
        snprintf(name, size, "%.*s", (int)(q - p - strlen(prefix)), p + strlen(prefix));
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list args)
{
    struct session *s = print_session;
    char line[512];

    vsnprintf(line, sizeof(line), fmt, args);
    if (s) {
        remember_failure(line, "prog '", "': failed to load", s->failed_prog, sizeof(s->failed_prog));
        remember_failure(line, "map '", "': failed to create", s->failed_map, sizeof(s->failed_map));
    }
    /* -v reports tap's passes; libbpf's warnings join at -vv, its info and
     * debug chatter at -vvv. */
    int needed = level == LIBBPF_WARN ? 1 : 2;
    if (s && s->options->verbose > needed)
        fputs(line, stderr);
    return 0;
}

static const struct program_probe *probe_of_prog(const struct program *program, const char *name)
{
    for (int i = 0; i < program->probe_count; i++) {
        if (strcmp(program->probes[i].prog_name, name) == 0)
            return &program->probes[i];
    }
    return NULL;
}

static int has_kind_flag(const struct program *program, unsigned flag)
{
    for (int i = 0; i < program->probe_count; i++) {
        if (probe_kind_ops(program->probes[i].kind)->flags & flag)
            return 1;
    }
    return 0;
}

static int configure_programs(struct session *s)
{
    struct bpf_program *prog;

    /* TAP_NO_UPROBE_MULTI=1 takes the perf-event path of older kernels
     * (tests cover both paths on one kernel). The kernel is asked (a program
     * load) only when there is a uprobe to attach. */
    const char *no_multi = getenv("TAP_NO_UPROBE_MULTI");
    s->uprobe_multi = !(no_multi && no_multi[0] == '1') && has_kind_flag(s->program, KIND_UPROBE_MULTI) && uprobe_multi_supported();
    bpf_object__for_each_program(prog, s->object) {
        const struct program_probe *probe = probe_of_prog(s->program, bpf_program__name(prog));
        if (!probe) {
            /* not a probe (a helper codegen left behind): nothing attaches it */
            bpf_program__set_autoload(prog, false);
            continue;
        }
        const struct probe_kind_ops *ops = probe_kind_ops(probe->kind);
        bpf_program__set_type(prog, (enum bpf_prog_type)ops->prog_type);
        if (ops->expected_attach_type)
            bpf_program__set_expected_attach_type(prog, (enum bpf_attach_type)ops->expected_attach_type);
        if (s->uprobe_multi && (ops->flags & KIND_UPROBE_MULTI))
            bpf_program__set_expected_attach_type(prog, (enum bpf_attach_type)48 /* uprobe_multi */);
        bpf_program__set_autoattach(prog, false);
        bpf_program__set_log_buf(prog, s->log_buf, LOG_BUF_SIZE);
    }
    for (int i = 0; i < s->program->probe_count; i++) {
        const char *name = s->program->probes[i].prog_name;
        if (!probe_kind_ops(s->program->probes[i].kind)->prog_type) {   /* never: a damaged object */
            fprintf(stderr, "ERROR: internal: probe %s is of a kind that makes no program\n",
                    s->program->probes[i].point);
            return -1;
        }
        if (!bpf_object__find_program_by_name(s->object, name)) {
            fprintf(stderr, "ERROR: internal: no BPF program '%s' for probe %s\n", name,
                    s->program->probes[i].point);
            return -1;
        }
    }
    return 0;
}

/* -vvv: each program gets a small log of its own at level 4 (BPF_LOG_STATS),
 * so the cost of verifying it can be reported after load. */
#define STATS_LOG_SIZE 1024u

static int request_verifier_stats(struct session *s)
{
    struct bpf_program *prog;
    int count = 0;

    bpf_object__for_each_program(prog, s->object)
        count++;
    s->stats_logs = calloc((size_t)count, sizeof(*s->stats_logs));
    if (!s->stats_logs)
        return -1;
    s->stats_log_count = count;
    int i = 0;
    bpf_object__for_each_program(prog, s->object) {
        s->stats_logs[i] = calloc(1, STATS_LOG_SIZE);
        if (!s->stats_logs[i])
            return -1;
        if (bpf_program__autoload(prog)) {
            bpf_program__set_log_buf(prog, s->stats_logs[i], STATS_LOG_SIZE);
            bpf_program__set_log_level(prog, 4);
        }
        i++;
    }
    return 0;
}

static long stat_after(const char *log, const char *word)
{
    const char *p = strstr(log, word);
    return p ? strtol(p + strlen(word), NULL, 10) : -1;
}

/* One line a program: what the verifier walked and how long it took. */
static void report_verifier_stats(const struct session *s)
{
    struct bpf_program *prog;
    long total_insns = 0, total_us = 0;
    int i = 0;

    bpf_object__for_each_program(prog, s->object) {
        const char *log = s->stats_logs[i++];
        if (!bpf_program__autoload(prog))
            continue;
        long insns = stat_after(log, "processed "), us = stat_after(log, "verification time ");
        const struct program_probe *probe = probe_of_prog(s->program, bpf_program__name(prog));
        fprintf(stderr, "verifier: %s (%s): %zu insns, processed %ld, states %ld (peak %ld), %ld us\n",
                bpf_program__name(prog), probe ? probe->point : "?", bpf_program__insn_cnt(prog), insns,
                stat_after(log, "total_states "), stat_after(log, "peak_states "), us);
        total_insns += insns > 0 ? insns : 0;
        total_us += us > 0 ? us : 0;
    }
    fprintf(stderr, "verifier: total processed %ld insns in %ld us\n", total_insns, total_us);
}

/* -vvv: the rejected program's log is its own small one. */
static void take_stats_log(struct session *s, const struct bpf_program *failed)
{
    struct bpf_program *prog;
    int i = 0;

    bpf_object__for_each_program(prog, s->object) {
        if (prog == failed)
            snprintf(s->log_buf, LOG_BUF_SIZE, "%s", s->stats_logs[i]);
        i++;
    }
}

static void free_verifier_stats(struct session *s)
{
    for (int i = 0; i < s->stats_log_count; i++)
        free(s->stats_logs[i]);
    free(s->stats_logs);
    s->stats_logs = NULL;
    s->stats_log_count = 0;
}

static uint64_t round_up_pow2(uint64_t v)
{
    uint64_t p = 4096;
    while (p < v && p < (1ull << 40))
        p <<= 1;
    return p;
}

/* The kernel zeroes and maps the whole ring at creation (~4 ms a MiB here),
 * and every page of it counts in tap's RSS twice (the data is mapped twice):
 * scripts whose probes fire at a bounded rate get a small one, scripts with
 * uprobes, tracepoints or perf events one that holds ~300 ms of printf at
 * 200k lines/s, far more than the 10 ms between reads (TAP_WAKEUP_PERIOD_NS). */
static uint64_t default_ring_bytes(const struct program *program)
{
    return has_kind_flag(program, KIND_FREQUENT) ? 2u << 20 : 256u << 10;
}

static uint64_t events_ring_bytes(const struct session *s)
{
    uint64_t bytes = s->options->ringbuf_bytes ? s->options->ringbuf_bytes : default_ring_bytes(s->program);
    return round_up_pow2(bytes);
}

/* Before load, bpf_map__initial_value() is libbpf's copy of .data: what is
 * written there is what the kernel map starts with. */
static int configure_data(struct session *s)
{
    char error[256];
    size_t size;
    char *data;

    s->data_map = bpf_object__find_map_by_name(s->object, ".data");
    data = s->data_map ? (char *)bpf_map__initial_value(s->data_map, &size) : NULL;
    if (!data || (size_t)s->program->state_offset + sizeof(struct tap_state) > size) {
        fprintf(stderr, "ERROR: internal: the BPF object has no .data with tap_state\n");
        return -1;
    }
    settings_apply_zone(s->program, data, size);
    settings_apply_cpus(s->program, data, size);
    settings_apply_namespaces(s->program, data, size);
    if (settings_apply(s->program, data, size, s->options->settings,
                       s->options->setting_count, error, sizeof(error)) < 0) {
        fprintf(stderr, "ERROR: -G: %s\n", error);
        return -1;
    }
    struct tap_state *state = (struct tap_state *)(data + s->program->state_offset);
    state->target_pid = (uint64_t)s->target_pid;
    state->tap_pid = (uint64_t)getpid();
    state->wakeup_bytes = events_ring_bytes(s) / 4;
    struct timespec realtime, boottime;
    clock_gettime(CLOCK_REALTIME, &realtime);
    clock_gettime(CLOCK_BOOTTIME, &boottime);
    state->realtime_offset_ns = (realtime.tv_sec - boottime.tv_sec) * 1000000000LL +
                                (realtime.tv_nsec - boottime.tv_nsec);
    return 0;
}

static int configure_rings(struct session *s)
{
    struct bpf_map *events = bpf_object__find_map_by_name(s->object, "tap_events");
    struct bpf_map *control = bpf_object__find_map_by_name(s->object, "tap_control");

    if (!events || !control) {
        fprintf(stderr, "ERROR: internal: the BPF object lacks tap_events or tap_control\n");
        return -1;
    }
    bpf_map__set_max_entries(events, (uint32_t)events_ring_bytes(s));
    /* Scratch is indexed by CPU: one entry per possible CPU of this machine,
     * which may differ from the one the object was compiled on. */
    struct bpf_map *scratch = bpf_object__find_map_by_name(s->object, "tap_scratch");
    int cpus = libbpf_num_possible_cpus();
    if (scratch && cpus > 0)
        bpf_map__set_max_entries(scratch, (uint32_t)cpus);
    return 0;
}

/* A map the kernel would not create: the script's global it holds, its
 * shape, and the limits that decide it. */
static void report_map_failure(struct session *s, int err)
{
    const struct bpf_map *map = bpf_object__find_map_by_name(s->object, s->failed_map);
    const char *global = NULL;
    for (int i = 0; i < s->program->map_count; i++) {
        if (strcmp(s->program->maps[i].map_name, s->failed_map) == 0)
            global = s->program->maps[i].name;
    }
    fprintf(stderr, "ERROR: cannot create the BPF map %s%s (%u entries, key %u bytes, value %u bytes): %s\n",
            global ? "of global " : "", global ? global : s->failed_map,
            map ? bpf_map__max_entries(map) : 0, map ? bpf_map__key_size(map) : 0,
            map ? bpf_map__value_size(map) : 0, strerror(-err));
    fprintf(stderr, "       %s\n", global ? "lower -D MAXMAPENTRIES or -D MAXSTRINGLEN, or give the array a size "
                                             "(global name[entries])"
                                           : "lower -D MAXSTRINGLEN or the ring size (-s MB)");
}

/* One line with the script location of the instruction the verifier
 * stopped at (from .BTF.ext) and its reason, one with what to change; the
 * whole log only with -v. */
static void report_rejection(struct session *s, int err)
{
    const struct program_probe *probe = s->failed_prog[0] ?
        probe_of_prog(s->program, s->failed_prog) : NULL;
    struct bpf_program *prog = s->failed_prog[0] ?
        bpf_object__find_program_by_name(s->object, s->failed_prog) : NULL;
    struct btf_line at;
    char reason[1024];

    if (s->failed_map[0]) {
        report_map_failure(s, err);
        return;
    }
    if (prog && s->stats_logs)
        take_stats_log(s, prog);
    if (!probe || !prog || !s->log_buf[0]) {
        fprintf(stderr, "ERROR: cannot load the BPF object: %s\n", strerror(-err));
        return;
    }
    if (s->options->verbose)
        fprintf(stderr, "%s", s->log_buf);
    int located = btf_line_of_insn(s->program->object, s->program->object_size,
                                   bpf_program__section_name(prog),
                                   verifier_log_failed_insn(s->log_buf), &at) == 0;
    /* trust the column only where the log's own last source line agrees:
     * "text @ file:line" on newer kernels, the text alone on 6.1 (both
     * without the line's indentation) */
    verifier_log_summary(s->log_buf, 1, reason, sizeof(reason));
    if (located && strstr(reason, " (near: ")) {
        char with_place[600], text_only[600];
        const char *base = strrchr(at.file, '/'), *text = at.text + strspn(at.text, " \t");
        snprintf(with_place, sizeof(with_place), " (near: %s @ %s:%u)", text, base ? base + 1 : at.file, at.line);
        snprintf(text_only, sizeof(text_only), " (near: %s)", text);
        located = strstr(reason, with_place) || strstr(reason, text_only);
    }
    verifier_log_summary(s->log_buf, !located, reason, sizeof(reason));
    /* codegen names the script's directory "." and LLVM joins the two */
    if (located && strncmp(at.file, "./", 2) == 0)
        at.file += 2;
    if (located)
        fprintf(stderr, "ERROR: the kernel rejected probe %s at %s:%u:%u: %s\n", probe->point,
                at.file, at.line, at.col, reason);
    else
        fprintf(stderr, "ERROR: the kernel rejected probe %s: %s\n", probe->point, reason);
    fprintf(stderr, "       %s\n", verifier_hint(reason));
}

int session_load(struct session *s)
{
    LIBBPF_OPTS(bpf_object_open_opts, open_opts, .object_name = "tap");
    size_t size;
    int err;

    print_session = s;
    libbpf_set_print(print_libbpf);
    s->log_buf = calloc(1, LOG_BUF_SIZE);
    if (!s->log_buf)
        return -1;

    s->object = bpf_object__open_mem(s->program->object, s->program->object_size, &open_opts);
    if (!s->object) {
        fprintf(stderr, "ERROR: cannot open the BPF object: %s\n", strerror(errno));
        return -1;
    }
    if (configure_programs(s) < 0 || configure_data(s) < 0 || configure_rings(s) < 0 ||
        session_size_symbol_maps(s) < 0 || session_size_unwind_maps(s) < 0 || session_size_line_maps(s) < 0 ||
        session_size_proc_maps(s) < 0)
        return -1;
    if (s->options->verbose >= 3 && request_verifier_stats(s) < 0)
        return -1;

    err = bpf_object__load(s->object);
    if (err) {
        report_rejection(s, err);
        return -1;
    }
    if (s->stats_logs) {
        report_verifier_stats(s);
        free_verifier_stats(s);
    }
    if (session_fill_symbol_maps(s) < 0 || session_fill_unwind_maps(s) < 0 || session_fill_line_maps(s) < 0)
        return -1;
    /* libbpf 1.1 remaps .data onto the kernel map only for skeletons: map
     * it ourselves (internal maps are BPF_F_MMAPABLE) for live values. */
    bpf_map__initial_value(s->data_map, &size);
    s->data_size = size;
    s->data_mmap_size = (size + 4095) & ~(size_t)4095;
    void *data = mmap(NULL, s->data_mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                      bpf_map__fd(s->data_map), 0);
    if (data == MAP_FAILED) {
        fprintf(stderr, "ERROR: cannot map .data: %s\n", strerror(errno));
        return -1;
    }
    s->data = data;
    s->state = (struct tap_state *)(s->data + s->program->state_offset);
    free(s->log_buf);
    s->log_buf = NULL;
    return 0;
}

void session_unload(struct session *s)
{
    bpf_object__close(s->object);
    s->object = NULL;
    free_verifier_stats(s);
    free(s->log_buf);
    s->log_buf = NULL;
    if (print_session == s)
        print_session = NULL;
}
