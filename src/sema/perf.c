/* perf.sw.NAME, perf.hw.NAME, perf.type(T).config(C), each optionally
 * .sample(N) or .hz(F): a perf event on every CPU, like timer.profile. */
#include <linux/perf_event.h>
#include <string.h>
#include <sys/stat.h>

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
        return fail(s, point, c->span, "while resolving probe point: %s: tap has no perf counters of a process "
                    "(SystemTap's .process(PATH).counter(NAME), read with @perf): only sampling perf events "
                    "(.sample(N), .hz(N))", sema_point_text(s, point));
    } else if (c) {
        return fail(s, point, c->span, "while resolving probe point: perf events take .sample(N) or .hz(N), "
                    "not %s", c->name);
    }
    if (probe->perf.perf_type == PERF_TYPE_HARDWARE && !has_hardware_pmu())
        return fail(s, point, point->components->span,
                    "probe point %s needs a hardware performance counter, and this machine has no PMU "
                    "(a VM without one); use perf.sw.* or timer.profile", sema_point_text(s, point));
    return 1;
}

const char *sema_perf_event_name(int is_hardware, int i)
{
    int count = is_hardware ? (int)(sizeof(hardware) / sizeof(*hardware)) : (int)(sizeof(software) / sizeof(*software));
    const char *const *names = is_hardware ? hardware : software;
    return i < 0 || i >= count ? NULL : names[i] ? names[i] : "";
}
