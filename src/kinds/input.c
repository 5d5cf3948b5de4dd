/* procfs("__stdin").write: tap's standard input, one byte at a time, as
 * SystemTap's input.char and input.line (tapsets/input.tp) see it;
 * procfs.c's resolver hands these points here. The
 * runtime runs these programs itself (bpf_prog_test_run, as begin) for each
 * byte it reads, in the order read, with the byte at the start of the
 * context; $value is that byte as a string. */
#include <string.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "sema/sema_internal.h"

static int resolve_input(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components, *op = c->next;
    if (!op || op->next || strcmp(op->name, "write") != 0 || op->arg_kind != PROBE_ARG_NONE)
        return sema_point_error(s, point, op ? op->span : c->span,
                                "while resolving probe point: procfs(\"__stdin\") has .write only (tap's "
                                "standard input): %s", sema_point_text(s, point));
    probe->kind = PROBE_INPUT;
    sema_add_probe(s, probe);
    return 1;
}

/* $value: the byte the runtime put at the start of the context, a string */
static int lower_value(struct sema *s, struct expr *e)
{
    if (strcmp(e->target.name, "value") != 0 || e->target.components || e->target.address_of) {
        diag_error(s->diags, e->span, "procfs(\"__stdin\").write has one target variable, $value (the "
                   "byte read, as a string)");
        return 0;
    }
    struct expr lowered = {.kind = EXPR_CTX_READ, .span = e->span, .next = e->next};
    lowered.ctx_read.kind = CTX_READ_CHARS;
    lowered.ctx_read.size = 1;
    *e = lowered;
    return 1;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "procfs(\"__stdin\").write");
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
    (void)probe;
    (void)out;
}

const struct probe_kind_ops input_kind = {
    .kind = PROBE_INPUT, .name = "input", .flags = KIND_RUNS_ONCE, .runs = RUN_PER_INPUT_BYTE,
    .resolve = resolve_input, .catalogue = catalogue,
    .lower_target = lower_value, .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
};
