/* timer.UNIT(N)[.randomize(M)], timer.hz(N): a cpu-clock perf event on
 * CPU 0 (finer with randomize, the handler guarded by a deadline);
 * timer.profile and timer.profile.tick: one on every CPU at the kernel's
 * tick rate. */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "runtime/attach.h"
#include "sema/sema_internal.h"

#define CPU_CLOCK_FLOOR_NS 10000ull    /* the kernel's cpu-clock floor; stap clamps too */

/* Every interval_ns; or with randomize_ns, each run interval_ns plus a
 * random amount in [-randomize_ns, randomize_ns] after the last deadline
 * (SystemTap re-arms its hrtimer so): the event then ticks every eighth of
 * randomize_ns and the handler runs at the first tick past each deadline it
 * draws (codegen/randomize.c). No finer than 1 ms (N/4 for a shorter N):
 * the ticks then cost little beside the runs. */
static void set_interval(struct perf_probe *perf, uint64_t interval_ns, uint64_t randomize_ns)
{
    if (interval_ns < CPU_CLOCK_FLOOR_NS)
        interval_ns = CPU_CLOCK_FLOOR_NS;
    perf->period_ns = interval_ns;
    if (!randomize_ns)
        return;
    uint64_t tick = randomize_ns / 8, finest = interval_ns / 4 < 1000000 ? interval_ns / 4 : 1000000;
    if (tick < finest)
        tick = finest;
    perf->period_ns = tick < CPU_CLOCK_FLOOR_NS ? CPU_CLOCK_FLOOR_NS : tick;
    perf->interval_ns = interval_ns;
    perf->randomize_ns = randomize_ns;
}

static int resolve_timer(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *unit = point->components->next;
    if (!unit)
        return sema_point_error(s, point, point->components->span,
                                "while resolving probe point: timer needs a unit, as in %s", "timer.ms(100)");
    /* timer.profile.tick is SystemTap's primitive, timer.profile its alias */
    bool tick = unit->next && strcmp(unit->next->name, "tick") == 0 && unit->next->arg_kind == PROBE_ARG_NONE &&
                !unit->next->next;
    if (strcmp(unit->name, "profile") == 0 && unit->arg_kind == PROBE_ARG_NONE && (!unit->next || tick)) {
        probe->kind = PROBE_PROFILE;
        probe->perf.frequency = 250;     /* a kernel tick, CONFIG_HZ=250 on Debian */
        sema_add_probe(s, probe);
        return 1;
    }
    if (strcmp(unit->name, "profile") == 0)
        return sema_point_error(s, point, unit->span,
                                "while resolving probe point: %s takes no number and no suffix but .tick", "timer.profile");
    static const struct { const char *name; uint64_t ns; } units[] = {
        {"s", 1000000000ull}, {"sec", 1000000000ull}, {"ms", 1000000ull}, {"msec", 1000000ull},
        {"us", 1000ull}, {"usec", 1000ull}, {"ns", 1ull}, {"nsec", 1ull},
        {"jiffies", 4000000ull}, {"hz", 0},
    };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(unit->name, units[i].name) != 0)
            continue;
        if (unit->arg_kind != PROBE_ARG_INT || unit->arg_int <= 0)
            return sema_point_error(s, point, unit->span,
                                    "while resolving probe point: timer.%s needs a positive number", unit->name);
        struct probe_component *rnd = unit->next;
        if (rnd && (strcmp(rnd->name, "randomize") != 0 || rnd->next))
            return sema_point_error(s, point, rnd->span,
                                    "while resolving probe point: unknown timer option %s", rnd->name);
        if (rnd && !units[i].ns)    /* SystemTap's neither */
            return sema_point_error(s, point, rnd->span,
                                    "while resolving probe point: timer.%s takes no randomize", unit->name);
        /* SystemTap's bounds: 0 (none) to the period, in the period's unit */
        if (rnd && (rnd->arg_kind != PROBE_ARG_INT || rnd->arg_int < 0 || rnd->arg_int > unit->arg_int))
            return sema_point_error(s, point, rnd->span,
                                    "while resolving probe point: randomize needs a number from 0 to the period of timer.%s",
                                    unit->name);
        probe->kind = PROBE_TIMER;
        if (units[i].ns)
            set_interval(&probe->perf, (uint64_t)unit->arg_int * units[i].ns,
                         rnd ? (uint64_t)rnd->arg_int * units[i].ns : 0);
        else
            probe->perf.frequency = (uint64_t)unit->arg_int;
        sema_add_probe(s, probe);
        return 1;
    }
    return sema_point_error(s, point, unit->span, "while resolving probe point: unknown timer unit %s", unit->name);
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    static const char *const units[] = {"s", "sec", "ms", "msec", "us", "usec", "ns", "nsec", "jiffies"};
    for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++) {
        add(lines, arena_printf(arena, "timer.%s(number)", units[i]));
        add(lines, arena_printf(arena, "timer.%s(number).randomize(number)", units[i]));
    }
    add(lines, "timer.hz(number)");
    add(lines, "timer.profile");
    add(lines, "timer.profile.tick");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    (void)probe;
    return "perf_event";
}

/* Its program_probe's own fields: how often the cpu-clock fires. */
struct timer_program_fields {
    uint64_t period_ns;      /* 0 when frequency is used */
    uint64_t frequency;      /* timer.hz(N) */
};

static const struct program_fields program_fields = PROGRAM_FIELDS(struct timer_program_fields,
    PROGRAM_FIELD(U64, struct timer_program_fields, period_ns),
    PROGRAM_FIELD(U64, struct timer_program_fields, frequency));

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    struct timer_program_fields *fields = calloc(1, sizeof(*fields));
    fields->period_ns = probe->perf.period_ns;
    fields->frequency = probe->perf.frequency;
    out->kind_fields = fields;
}

/* Both kinds count the cpu-clock: timer.* on CPU 0, timer.profile on every CPU. */
static struct perf_event_attr cpu_clock(const struct program_probe *probe)
{
    struct perf_event_attr attr = {
        .type = PERF_TYPE_SOFTWARE,
        .size = sizeof(attr),
        .config = PERF_COUNT_SW_CPU_CLOCK,
    };
    const struct timer_program_fields *fields = probe->kind_fields;
    perf_event_sampling(&attr, fields->period_ns, fields->frequency);
    return attr;
}

static int attach_timer(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    struct perf_event_attr attr = cpu_clock(probe);
    return attach_perf_event(s, prog, probe, &attr, 0);
}

static int attach_profile(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    struct perf_event_attr attr = cpu_clock(probe);
    return attach_every_cpu(s, prog, probe, &attr);
}

const struct probe_kind_ops timer_kind = {
    .kind = PROBE_TIMER, .name = "timer",
    .probe_fields = PROBE_FIELDS_PERF,
    .heads = (const char *const[]){"timer", NULL}, .resolve = resolve_timer, .catalogue = catalogue,
    .section = section, .describe = describe, .program_fields = &program_fields, .prog_type = BPF_PROG_TYPE_PERF_EVENT, .attach = attach_timer,
};

/* made by timer's resolver */
const struct probe_kind_ops profile_kind = {
    .kind = PROBE_PROFILE, .name = "profile", .flags = KIND_FREQUENT | KIND_SAMPLE_REGS,
    .probe_fields = PROBE_FIELDS_PERF,
    .section = section, .describe = describe, .program_fields = &program_fields, .prog_type = BPF_PROG_TYPE_PERF_EVENT, .attach = attach_profile,
};
