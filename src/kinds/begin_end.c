/* begin, end, error (with an optional sequence number): programs the
 * runtime runs itself with bpf_prog_test_run (runtime/events.c), at the
 * start, at a normal end, or at the end after a runtime error. */
#include <string.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "sema/sema_internal.h"

static int resolve_run_once(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components;
    if (c->next || c->arg_kind == PROBE_ARG_STRING)
        return sema_point_error(s, point, c->span, "while resolving probe point: unknown probe point %s",
                                sema_point_text(s, point));
    probe->kind = strcmp(c->name, "begin") == 0 ? PROBE_BEGIN
                : strcmp(c->name, "end") == 0 ? PROBE_END : PROBE_ERROR;
    probe->order = c->arg_kind == PROBE_ARG_INT ? c->arg_int : 0;
    sema_add_probe(s, probe);
    return 1;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    static const char *const forms[] = {"begin", "begin(number)", "end", "end(number)", "error", "error(number)"};
    for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++)
        add(lines, forms[i]);
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    (void)probe;
    return "raw_tp";
}

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    out->order = probe->order;
}

const struct probe_kind_ops begin_kind = {
    .kind = PROBE_BEGIN, .name = "begin", .flags = KIND_RUNS_ONCE, .runs = RUN_AT_BEGIN,
    .heads = (const char *const[]){"begin", NULL}, .resolve = resolve_run_once, .catalogue = catalogue,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
};

const struct probe_kind_ops end_kind = {
    .kind = PROBE_END, .name = "end", .flags = KIND_RUNS_ONCE | KIND_RUNS_AT_END, .runs = RUN_AT_END,
    .heads = (const char *const[]){"end", NULL}, .resolve = resolve_run_once,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
};

const struct probe_kind_ops error_kind = {
    .kind = PROBE_ERROR, .name = "error", .flags = KIND_RUNS_ONCE | KIND_RUNS_AT_END, .runs = RUN_AT_ERROR,
    .heads = (const char *const[]){"error", NULL}, .resolve = resolve_run_once,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
};
