/* perf.sw.NAME, perf.hw.NAME, perf.type(T).config(C)[.sample(N)|.hz(F)]:
 * a perf event on every CPU; with .process[(PATH)], one on the -c/-x
 * target's task; with .counter(NAME), a counting event @perf reads (the
 * point is read by sema/perf.c). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "runtime/attach.h"
#include "sema/sema_internal.h"

static int resolve_perf(struct sema *s, struct probe_point *point, struct probe *probe)
{
    int count = sema_resolve_perf(s, point, probe);
    if (count > 0)
        sema_add_probe(s, probe);
    return count;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    add(lines, "perf.type(number).config(number)");
    add(lines, "perf.type(number).config(number).sample(number)");
    add(lines, "perf.type(number).config(number).hz(number)");
    add(lines, "perf.type(number).config(number).process");
    add(lines, "perf.type(number).config(number).process(string)");
    add(lines, "perf.type(number).config(number).counter(string)");
    add(lines, "perf.type(number).config(number).process(string).counter(string)");
    for (int hw = 0; hw <= 1; hw++)
        for (int i = 0; sema_perf_event_name(hw, i); i++)
            if (*sema_perf_event_name(hw, i))
                add(lines, arena_printf(arena, "perf.%s.%s", hw ? "hw" : "sw", sema_perf_event_name(hw, i)));
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    (void)probe;
    return "perf_event";
}

/* Its program_probe's own fields: the event and how often it samples. */
struct perf_program_fields {
    uint64_t period_ns;      /* 0 when frequency is used */
    uint64_t frequency;      /* .hz(F) */
    uint32_t type;           /* PERF_TYPE_* */
    uint64_t config;
    uint64_t sample_period;  /* .sample(N) */
    int per_target;          /* .process: on the -c/-x target's task, not every CPU */
    int counter_index;       /* .counter: its slot in tap_perf_counters; -1: a sampling probe */
};

static const struct program_fields program_fields = PROGRAM_FIELDS(struct perf_program_fields,
    PROGRAM_FIELD(U64, struct perf_program_fields, period_ns),
    PROGRAM_FIELD(U64, struct perf_program_fields, frequency),
    PROGRAM_FIELD(U32, struct perf_program_fields, type),
    PROGRAM_FIELD(U64, struct perf_program_fields, config),
    PROGRAM_FIELD(U64, struct perf_program_fields, sample_period),
    PROGRAM_FIELD(INT, struct perf_program_fields, per_target),
    PROGRAM_FIELD(INT, struct perf_program_fields, counter_index));

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    struct perf_program_fields *fields = calloc(1, sizeof(*fields));
    fields->period_ns = probe->perf.period_ns;
    fields->frequency = probe->perf.frequency;
    fields->type = probe->perf.perf_type;
    fields->config = probe->perf.perf_config;
    fields->sample_period = probe->perf.sample_period;
    fields->per_target = probe->perf.per_target;
    fields->counter_index = probe->perf.counter ? probe->perf.counter_index : -1;
    out->kind_fields = fields;
}

/* .counter: the event goes in its slot of tap_perf_counters, where @perf
 * reads it; the probe's program is never attached (its body never runs). */
static int attach_counter(struct session *s, int counter_index, struct perf_event_attr *attr)
{
    int fd = open_perf_on_target(s, attr);
    if (fd < 0)
        return fd;
    struct bpf_map *map = bpf_object__find_map_by_name(s->object, "tap_perf_counters");
    uint32_t slot = (uint32_t)counter_index;
    if (map && bpf_map_update_elem(bpf_map__fd(map), &slot, &fd, BPF_ANY) < 0) {
        int err = -errno;
        close(fd);
        return err;
    }
    return add_raw_link(s, fd);
}

static int attach_perf(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    const struct perf_program_fields *fields = probe->kind_fields;
    struct perf_event_attr attr = {.size = sizeof(attr), .type = fields->type, .config = fields->config};
    if (fields->counter_index >= 0)
        return attach_counter(s, fields->counter_index, &attr);
    perf_event_sampling(&attr, fields->sample_period ? fields->sample_period : fields->period_ns, fields->frequency);
    if (fields->per_target)
        return attach_perf_on_target(s, prog, probe, &attr);
    return attach_every_cpu(s, prog, probe, &attr);
}

static const char *attach_error(const struct program_probe *probe, int err)
{
    const struct perf_program_fields *fields = probe->kind_fields;
    if ((err == -ENOENT || err == -EOPNOTSUPP) && fields->type == PERF_TYPE_HARDWARE)
        return "this machine has no hardware performance counters";
    return NULL;
}

const struct probe_kind_ops perf_kind = {
    .kind = PROBE_PERF, .name = "perf", .flags = KIND_FREQUENT | KIND_SAMPLE_REGS,
    .probe_fields = PROBE_FIELDS_PERF,
    .heads = (const char *const[]){"perf", NULL}, .resolve = resolve_perf, .catalogue = catalogue,
    .section = section, .describe = describe, .program_fields = &program_fields, .prog_type = BPF_PROG_TYPE_PERF_EVENT, .attach = attach_perf,
    .attach_error = attach_error,
};
