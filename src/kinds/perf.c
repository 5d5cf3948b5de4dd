/* perf.sw.NAME, perf.hw.NAME, perf.type(T).config(C)[.sample(N)|.hz(F)]:
 * a perf event on every CPU (the point is read by sema/perf.c). */
#include <errno.h>
#include <linux/perf_event.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"
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

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    out->fields = PROGRAM_FIELDS_PERF;
    out->perf.period_ns = probe->perf.period_ns;
    out->perf.frequency = probe->perf.frequency;
    out->perf.type = probe->perf.perf_type;
    out->perf.config = probe->perf.perf_config;
    out->perf.sample_period = probe->perf.sample_period;
}

static int attach_perf(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    struct perf_event_attr attr = {.size = sizeof(attr), .type = probe->perf.type, .config = probe->perf.config};
    perf_event_sampling(&attr, probe->perf.sample_period ? probe->perf.sample_period : probe->perf.period_ns,
                        probe->perf.frequency);
    return attach_every_cpu(s, prog, probe, &attr);
}

static const char *attach_error(const struct program_probe *probe, int err)
{
    if ((err == -ENOENT || err == -EOPNOTSUPP) && probe->perf.type == PERF_TYPE_HARDWARE)
        return "this machine has no hardware performance counters";
    return NULL;
}

const struct probe_kind_ops perf_kind = {
    .kind = PROBE_PERF, .name = "perf", .flags = KIND_FREQUENT | KIND_SAMPLE_REGS,
    .probe_fields = PROBE_FIELDS_PERF,
    .heads = (const char *const[]){"perf", NULL}, .resolve = resolve_perf, .catalogue = catalogue,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_PERF_EVENT, .attach = attach_perf,
    .attach_error = attach_error,
};
