/* -t: the probe hit report SystemTap prints at the end of a run, from the
 * per-CPU slots of tap_timing (codegen/timing.c), in its layout with the
 * times in ns (SystemTap's STP_TIMING_NSECS label: BPF has no cycle counter):
 *   ----- probe hit report:
 *   begin, (x.stp:1:1), hits: 1, nsecs: 1200min/1200avg/1200max, variance: 0, from: begin, index: 0
 * Probes that never ran get no line, as in SystemTap. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/session.h"

/* The CPUs' slots summed into one. */
static void fold(const struct program_timing_value *cpus, int cpu_count, struct program_timing_value *total)
{
    *total = (struct program_timing_value){0};
    for (int c = 0; c < cpu_count; c++) {
        const struct program_timing_value *v = &cpus[c];
        if (!v->count)
            continue;
        if (!total->count || v->min_ns < total->min_ns)
            total->min_ns = v->min_ns;
        if (!total->count || v->max_ns > total->max_ns)
            total->max_ns = v->max_ns;
        total->count += v->count;
        total->sum_ns += v->sum_ns;
        total->sum_squares += v->sum_squares;
    }
}

/* The sample variance (n - 1), 0 for one run, as SystemTap's. */
static int64_t variance(const struct program_timing_value *v)
{
    if (v->count < 2)
        return 0;
    long double n = (long double)v->count, sum = (long double)v->sum_ns;
    long double result = ((long double)v->sum_squares - sum * sum / n) / (n - 1);
    return result > 0 ? (int64_t)result : 0;
}

static void print_json(struct session *s, const struct program_timed_probe *t,
                       const struct program_timing_value *total)
{
    strbuf_puts(&s->out, "{\"type\":\"probe_hits\",\"point\":");
    append_json_string(&s->out, t->point, strlen(t->point));
    strbuf_puts(&s->out, ",\"location\":");
    append_json_string(&s->out, t->location, strlen(t->location));
    strbuf_printf(&s->out, ",\"hits\":%" PRIu64 ",\"min_ns\":%" PRIu64 ",\"avg_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64
                  ",\"variance\":%" PRId64 ",\"index\":%d}\n",
                  total->count, total->min_ns, total->sum_ns / total->count, total->max_ns, variance(total), t->index);
}

void session_print_timing(struct session *s)
{
    const struct program *program = s->program;
    struct bpf_map *map = program->timed_count ? bpf_object__find_map_by_name(s->object, "tap_timing") : NULL;
    if (!map)
        return;
    int cpu_count = libbpf_num_possible_cpus();
    struct program_timing_value *cpus = calloc((size_t)(cpu_count > 0 ? cpu_count : 1), sizeof(*cpus));
    if (!cpus)
        return;
    if (!s->options->json)
        strbuf_puts(&s->out, "----- probe hit report: \n");
    for (uint32_t slot = 0; slot < (uint32_t)program->timed_count; slot++) {
        struct program_timing_value total;
        if (bpf_map_lookup_elem(bpf_map__fd(map), &slot, cpus) != 0)
            continue;
        fold(cpus, cpu_count, &total);
        if (!total.count)
            continue;
        const struct program_timed_probe *t = &program->timed[slot];
        if (s->options->json) {
            print_json(s, t, &total);
            continue;
        }
        strbuf_printf(&s->out, "%s, (%s), hits: %" PRIu64 ", nsecs: %" PRIu64 "min/%" PRIu64 "avg/%" PRIu64
                      "max, variance: %" PRId64 ",%s, index: %d\n",
                      t->point, t->location, total.count, total.min_ns, total.sum_ns / total.count, total.max_ns,
                      variance(&total), t->derivation, t->index);
    }
    free(cpus);
}
