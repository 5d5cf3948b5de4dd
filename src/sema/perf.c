/* perf.sw.NAME, perf.hw.NAME, perf.type(T).config(C), each optionally
 * .sample(N) or .hz(F): a perf event on every CPU, like timer.profile. */
#include <linux/perf_event.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sema/sema_internal.h"

#define DEFAULT_SAMPLE_PERIOD 1000000   /* stap's default */

static const char *const software[] = {
    [PERF_COUNT_SW_CPU_CLOCK] = "cpu_clock", [PERF_COUNT_SW_TASK_CLOCK] = "task_clock",
    [PERF_COUNT_SW_PAGE_FAULTS] = "page_faults", [PERF_COUNT_SW_CONTEXT_SWITCHES] = "context_switches",
    [PERF_COUNT_SW_CPU_MIGRATIONS] = "cpu_migrations", [PERF_COUNT_SW_PAGE_FAULTS_MIN] = "page_faults_min",
    [PERF_COUNT_SW_PAGE_FAULTS_MAJ] = "page_faults_maj", [PERF_COUNT_SW_ALIGNMENT_FAULTS] = "alignment_faults",
    [PERF_COUNT_SW_EMULATION_FAULTS] = "emulation_faults",
};

static const char *const hardware[] = {
    [PERF_COUNT_HW_CPU_CYCLES] = "cpu_cycles", [PERF_COUNT_HW_INSTRUCTIONS] = "instructions",
    [PERF_COUNT_HW_CACHE_REFERENCES] = "cache_references", [PERF_COUNT_HW_CACHE_MISSES] = "cache_misses",
    [PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "branch_instructions",
    [PERF_COUNT_HW_BRANCH_MISSES] = "branch_misses", [PERF_COUNT_HW_BUS_CYCLES] = "bus_cycles",
    [PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = "stalled_cycles_frontend",
    [PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = "stalled_cycles_backend",
    [PERF_COUNT_HW_REF_CPU_CYCLES] = "ref_cpu_cycles",
};

static int fail(struct sema *s, struct probe_point *point, struct span span, const char *message,
                const char *arg)
{
    if (!point->optional)
        diag_error(s->diags, span, message, arg);
    return 0;
}

static int lookup(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* The VM has no PMU: the kernel registers no "cpu" event source then. */
static int has_hardware_pmu(void)
{
    struct stat st;
    return stat("/sys/bus/event_source/devices/cpu", &st) == 0 ||
           stat("/sys/bus/event_source/devices/cpu_core", &st) == 0;
}

/* The file a program name names: itself with a '/', else searched in $PATH (as -c runs it). */
static int find_executable(struct sema *s, const char *name, struct stat *out)
{
    if (strchr(name, '/'))
        return stat(name, out) == 0;
    const char *path = getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p; p += strcspn(p, ":") + (p[strcspn(p, ":")] == ':')) {
        const char *candidate = arena_printf(s->arena, "%.*s/%s", (int)strcspn(p, ":"), p, name);
        if (access(candidate, X_OK) == 0 && stat(candidate, out) == 0 && S_ISREG(out->st_mode))
            return 1;
    }
    return 0;
}

/* The file the -c command (its first word) or the -x PID runs. */
static int target_executable(struct sema *s, struct stat *out)
{
    if (s->options->target_pid > 0)
        return stat(arena_printf(s->arena, "/proc/%d/exe", s->options->target_pid), out) == 0;
    const char *command = s->options->target_command;
    command += strspn(command, " \t");
    return find_executable(s, arena_strndup(s->arena, command, strcspn(command, " \t")), out);
}

/* .process with no path, or .process("PATH") naming the file the target runs:
 * the runtime opens the event on the target's task before it execs, as
 * SystemTap's task finder does when PATH starts. BPF cannot open one when
 * some other process execs PATH, so there is no form without -c/-x (but an
 * object compiled without one runs with one: --run OBJ -c CMD). */
static int check_process(struct sema *s, struct probe_point *point, struct probe_component *c)
{
    int has_target = s->options->target_command || s->options->target_pid > 0;
    if (!has_target && s->options->compile_only)
        return 1;
    if (!has_target)
        return fail(s, point, c->span, "while resolving probe point: %s: tap opens a process's perf events on "
                    "its target (-c CMD or -x PID): BPF cannot open one when another process starts",
                    sema_point_text(s, point));
    struct stat target, named;
    if (!target_executable(s, &target))
        return fail(s, point, c->span, "while resolving probe point: %s: cannot find the executable of the "
                    "-c command", sema_point_text(s, point));
    if (strcmp(c->name, "process") != 0 || c->arg_kind != PROBE_ARG_STRING)
        return 1;
    if (!find_executable(s, c->arg_string, &named) || named.st_dev != target.st_dev || named.st_ino != target.st_ino)
        return fail(s, point, c->span, "while resolving probe point: %s: the perf events of .process(PATH) "
                    "count in the -c/-x target, and it does not run PATH", sema_point_text(s, point));
    return 1;
}

static int counter_count(struct sema *s, const char *name, int *duplicate)
{
    int count = 0;
    for (int i = 0; i < s->script->probe_count; i++) {
        const struct probe *p = s->script->probes[i];
        if (p->kind == PROBE_PERF && p->perf.counter) {
            count++;
            *duplicate |= strcmp(p->perf.counter, name) == 0;
        }
    }
    return count;
}

/* .process[("PATH")][.counter("NAME")] or .counter("NAME"): a counter is one
 * per-task perf event the runtime puts in tap_perf_counters, read by @perf in
 * the target's process probes; its probe body never runs (as in SystemTap). */
static int resolve_process_counter(struct sema *s, struct probe_point *point, struct probe_component *c,
                                   struct probe *probe)
{
    if (strcmp(c->name, "process") == 0) {
        if (c->arg_kind == PROBE_ARG_INT)
            return fail(s, point, c->span, "while resolving probe point: perf .process takes a path, not %s",
                        "a pid (the target is -x PID)");
        if (!check_process(s, point, c))
            return 0;
        c = c->next;
    } else if (!check_process(s, point, c)) {
        return 0;
    }
    probe->perf.per_target = 1;
    if (!c)
        return 1;
    if (strcmp(c->name, "counter") != 0 || c->arg_kind != PROBE_ARG_STRING || c->next)
        return fail(s, point, c->span, "while resolving probe point: after .process, perf events take "
                    ".counter(\"NAME\"), not %s", c->name);
    if (!*c->arg_string || strpbrk(c->arg_string, "*?["))
        return fail(s, point, c->span, "while resolving probe point: %s: a perf counter needs a plain name",
                    sema_point_text(s, point));
    int duplicate = 0;
    int index = counter_count(s, c->arg_string, &duplicate);
    if (duplicate)
        return fail(s, point, c->span, "while resolving probe point: duplicate perf counter name %s",
                    c->arg_string);
    probe->perf.counter = c->arg_string;
    probe->perf.counter_index = index;
    probe->perf.sample_period = 0;   /* counted, never sampled */
    return 1;
}

int sema_resolve_perf(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components->next;
    if (!c)
        return fail(s, point, point->components->span,
                    "while resolving probe point: perf needs an event, as in %s", "perf.sw.cpu_clock");
    if ((strcmp(c->name, "sw") == 0 || strcmp(c->name, "hw") == 0) && c->next &&
        c->next->arg_kind == PROBE_ARG_NONE) {
        int is_sw = c->name[0] == 's';
        int config = is_sw ? lookup(software, sizeof(software) / sizeof(software[0]), c->next->name)
                           : lookup(hardware, sizeof(hardware) / sizeof(hardware[0]), c->next->name);
        if (config < 0)
            return fail(s, point, c->next->span, "while resolving probe point: unknown perf event %s",
                        sema_point_text(s, point));
        probe->perf.perf_type = is_sw ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE;
        probe->perf.perf_config = (uint64_t)config;
        c = c->next->next;
    } else if (strcmp(c->name, "type") == 0 && c->arg_kind == PROBE_ARG_INT && c->next &&
               strcmp(c->next->name, "config") == 0 && c->next->arg_kind == PROBE_ARG_INT) {
        probe->perf.perf_type = (uint32_t)c->arg_int;
        probe->perf.perf_config = (uint64_t)c->next->arg_int;
        c = c->next->next;
    } else {
        return fail(s, point, c->span, "while resolving probe point: unknown perf event %s",
                    sema_point_text(s, point));
    }
    probe->perf.sample_period = DEFAULT_SAMPLE_PERIOD;
    if (c && (strcmp(c->name, "sample") == 0 || strcmp(c->name, "hz") == 0) && !c->next &&
        c->arg_kind == PROBE_ARG_INT && c->arg_int > 0) {
        if (c->name[0] == 's')
            probe->perf.sample_period = (uint64_t)c->arg_int;
        else {
            probe->perf.sample_period = 0;
            probe->perf.frequency = (uint64_t)c->arg_int;
        }
    } else if (c && (strcmp(c->name, "process") == 0 || strcmp(c->name, "counter") == 0)) {
        if (!resolve_process_counter(s, point, c, probe))
            return 0;
    } else if (c) {
        return fail(s, point, c->span, "while resolving probe point: perf events take .sample(N), .hz(N), "
                    ".process(\"PATH\") or .counter(\"NAME\"), not %s", c->name);
    }
    if (probe->perf.perf_type == PERF_TYPE_HARDWARE && !has_hardware_pmu())
        return fail(s, point, point->components->span,
                    "probe point %s needs a hardware performance counter, and this machine has none (no PMU: no cpu "
                    "event source in /sys/bus/event_source/devices, as in a VM without one); use perf.sw.* or "
                    "timer.profile", sema_point_text(s, point));
    return 1;
}

const char *sema_perf_event_name(int is_hardware, int i)
{
    int count = is_hardware ? (int)(sizeof(hardware) / sizeof(*hardware)) : (int)(sizeof(software) / sizeof(*software));
    const char *const *names = is_hardware ? hardware : software;
    return i < 0 || i >= count ? NULL : names[i] ? names[i] : "";
}

const struct probe *sema_perf_counter(const struct script *script, const char *name)
{
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *p = script->probes[i];
        if (p->kind == PROBE_PERF && p->perf.counter && strcmp(p->perf.counter, name) == 0)
            return p;
    }
    return NULL;
}

/* @perf("NAME") (the preprocessor's __tap_perf("NAME")): bpf_perf_event_read_value
 * reads a per-task event only in the task it counts, the target's, so it is
 * read in the body of a process probe, as SystemTap has it. */
void sema_check_perf_read(struct sema *s, struct expr *e)
{
    const struct expr *arg = e->call.args;
    if (!arg || arg->kind != EXPR_STRING) {
        diag_error(s->diags, e->span, "@perf takes a perf counter's name as a literal string, as in "
                   "@perf(\"insns\")");
        return;
    }
    if (!sema_perf_counter(s->script, arg->string.value)) {
        diag_error(s->diags, arg->span, "perf counter '%s' not defined (declare it with a probe "
                   "perf.sw.NAME.process(\"PATH\").counter(\"%s\") {})", arg->string.value, arg->string.value);
        return;
    }
    if (!s->probe || (s->function && s->function->decl) || !probe_is_uprobe(s->probe))
        diag_error(s->diags, e->span, "@perf is read in the body of a process probe of the -c/-x target "
                   "(BPF reads a task's perf counter only while that task runs), not here");
}
