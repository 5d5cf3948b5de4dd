/* Probe-point resolution: turns the dotted components of a probe point into
 * concrete probes (kind, parameters, canonical text). */
#include <string.h>

#include "base/strbuf.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"


/* A resolver reports an error (unless the point is optional) and returns 0
 * when the point names nothing it can attach. */
typedef int (*point_resolver)(struct sema *s, struct probe_point *point, struct probe *probe);

const char *sema_point_text(struct sema *s, const struct probe_point *point)
{
    struct strbuf sb;
    strbuf_init(&sb);
    for (const struct probe_component *c = point->components; c; c = c->next) {
        if (c != point->components)
            strbuf_putc(&sb, '.');
        strbuf_puts(&sb, c->name);
        if (c->arg_kind == PROBE_ARG_INT)
            strbuf_printf(&sb, "(%lld)", (long long)c->arg_int);
        else if (c->arg_kind == PROBE_ARG_STRING) {   /* once per probe: 20k for -L, so no printf */
            strbuf_puts(&sb, "(\"");
            strbuf_puts(&sb, c->arg_string);
            strbuf_puts(&sb, "\")");
        }
    }
    const char *text = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

static int component_count(const struct probe_point *point)
{
    int n = 0;
    for (const struct probe_component *c = point->components; c; c = c->next)
        n++;
    return n;
}

static int point_error(struct sema *s, struct probe_point *point, struct span span, const char *fmt,
                       const char *arg)
{
    if (!point->optional)
        diag_error(s->diags, span, fmt, arg);
    return 0;
}

static int resolve_run_once(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components;
    if (component_count(point) != 1 || c->arg_kind == PROBE_ARG_STRING)
        return point_error(s, point, c->span, "while resolving probe point: unknown probe point %s",
                           sema_point_text(s, point));
    probe->kind = strcmp(c->name, "begin") == 0 ? PROBE_BEGIN
                : strcmp(c->name, "end") == 0 ? PROBE_END : PROBE_ERROR;
    probe->order = c->arg_kind == PROBE_ARG_INT ? c->arg_int : 0;
    return 1;
}

/* `never`: a probe whose body is checked as any other's, then dropped
 * (sema_drop_never_probes) so nothing attaches. */
static int resolve_never(struct sema *s, struct probe_point *point, struct probe *probe)
{
    if (component_count(point) != 1 || point->components->arg_kind != PROBE_ARG_NONE)
        return point_error(s, point, point->components->span,
                           "while resolving probe point: unknown probe point %s", sema_point_text(s, point));
    probe->kind = PROBE_NEVER;
    return 1;
}

void sema_drop_never_probes(struct sema *s)
{
    struct script *script = s->script;
    int kept = 0;
    for (int i = 0; i < script->probe_count; i++) {
        if (script->probes[i]->kind == PROBE_NEVER)
            continue;
        script->probes[i]->index = kept;
        script->probes[kept++] = script->probes[i];
    }
    script->probe_count = kept;
}

/* timer.UNIT(N)[.randomize(M)], timer.profile */
static int resolve_timer(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *unit = point->components->next;
    if (!unit)
        return point_error(s, point, point->components->span,
                           "while resolving probe point: timer needs a unit, as in %s", "timer.ms(100)");
    if (strcmp(unit->name, "profile") == 0 && unit->arg_kind == PROBE_ARG_NONE && !unit->next) {
        probe->kind = PROBE_PROFILE;
        probe->frequency = 250;     /* a kernel tick, CONFIG_HZ=250 on Debian */
        return 1;
    }
    static const struct { const char *name; uint64_t ns; } units[] = {
        {"s", 1000000000ull}, {"sec", 1000000000ull}, {"ms", 1000000ull}, {"msec", 1000000ull},
        {"us", 1000ull}, {"usec", 1000ull}, {"ns", 1ull}, {"nsec", 1ull},
        {"jiffies", 4000000ull}, {"hz", 0},
    };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(unit->name, units[i].name) != 0)
            continue;
        if (unit->arg_kind != PROBE_ARG_INT || unit->arg_int <= 0)
            return point_error(s, point, unit->span,
                               "while resolving probe point: timer.%s needs a positive number", unit->name);
        if (unit->next && (strcmp(unit->next->name, "randomize") != 0 || unit->next->next))
            return point_error(s, point, unit->next->span,
                               "while resolving probe point: unknown timer option %s", unit->next->name);
        probe->kind = PROBE_TIMER;
        if (units[i].ns)
            probe->period_ns = (uint64_t)unit->arg_int * units[i].ns;
        else
            probe->frequency = (uint64_t)unit->arg_int;
        if (probe->period_ns && probe->period_ns < 10000)
            probe->period_ns = 10000;    /* the kernel's cpu-clock floor; stap clamps too */
        return 1;
    }
    return point_error(s, point, unit->span, "while resolving probe point: unknown timer unit %s", unit->name);
}

/* kernel.function, kernel.statement, module(...) and kprobe.*: tap does not
 * attach kernel functions; the reason says what this kernel offers. */
static int resolve_unavailable(struct sema *s, struct probe_point *point, struct probe *probe)
{
    (void)probe;
    struct probe_component *c = point->components;
    int usable;
    const char *support = sema_kernel_function_support(s, &usable);
    const char *text = arena_printf(s->arena, "probe point %s needs kprobes or BPF trampolines: this kernel %s%s",
                                    sema_point_text(s, point), support,
                                    usable ? ", but tap does not attach kernel functions yet" : "");
    return point_error(s, point, c->span, "%s", text);
}

/* kernel.trace("...") is a tracepoint; everything else under kernel needs kprobes. */
static int resolve_kernel(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components->next;
    if (c && strcmp(c->name, "trace") == 0)
        return sema_resolve_tracepoint(s, point, probe);
    return resolve_unavailable(s, point, probe);
}

static const struct { const char *name; point_resolver resolve; } resolvers[] = {
    {"begin", resolve_run_once}, {"end", resolve_run_once}, {"error", resolve_run_once},
    {"never", resolve_never},
    {"timer", resolve_timer},
    {"kernel", resolve_kernel}, {"module", resolve_unavailable},
    {"kprobe", resolve_unavailable}, {"perf", sema_resolve_perf},
};

struct probe *sema_new_probe(struct sema *s, struct probe_point *point, struct stmt *body,
                             struct frame_layout *frame, const char *text)
{
    struct probe *probe = ARENA_NEW(s->arena, struct probe);
    probe->span = point->span;
    probe->body = body;
    probe->frame = frame;
    probe->condition = point->condition;
    probe->point = text ? text : sema_point_text(s, point);
    return probe;
}

void sema_add_probe(struct sema *s, struct probe *probe)
{
    struct script *script = s->script;
    if (script->probe_count == s->probe_capacity) {
        int capacity = s->probe_capacity ? s->probe_capacity * 2 : 16;
        script->probes = arena_realloc(s->arena, script->probes,
                                       sizeof(probe) * (size_t)s->probe_capacity,
                                       sizeof(probe) * (size_t)capacity);
        s->probe_capacity = capacity;
    }
    probe->index = script->probe_count;
    script->probes[script->probe_count++] = probe;
}

struct probe *sema_add_probe_copy(struct sema *s, const struct probe *model)
{
    struct probe *probe = ARENA_NEW(s->arena, struct probe);
    *probe = *model;
    probe->body = sema_clone_stmt(s->arena, model->body);
    probe->condition = sema_clone_expr(s->arena, model->condition);
    probe->frame = ARENA_NEW(s->arena, struct frame_layout);
    sema_add_probe(s, probe);
    return probe;
}

int sema_resolve_point(struct sema *s, struct probe_point *point, struct stmt *body,
                       struct frame_layout *frame)
{
    const char *head = point->components->name;
    point_resolver resolve = NULL;
    for (size_t i = 0; i < sizeof(resolvers) / sizeof(resolvers[0]); i++)
        if (strcmp(resolvers[i].name, head) == 0)
            resolve = resolvers[i].resolve;
    /* process.begin/.end are tapset aliases although `process` has a resolver */
    int lifetime = strcmp(head, "process") == 0 && point->components->arg_kind == PROBE_ARG_NONE &&
                   point->components->next && !point->components->next->next &&
                   (strcmp(point->components->next->name, "begin") == 0 ||
                    strcmp(point->components->next->name, "end") == 0);
    if (strcmp(head, "process") == 0 && !lifetime)
        return sema_resolve_process(s, body, point, frame);
    if (!resolve || lifetime) {
        int added = sema_expand_alias(s, point, body);
        if (added < 0)
            point_error(s, point, point->components->span,
                        "while resolving probe point: unknown probe point %s", sema_point_text(s, point));
        else if (added == 0 && !point->optional && !s->diags->error_count)
            diag_error(s->diags, point->span, "while resolving probe point: %s matched no probe point",
                       sema_point_text(s, point));
        return added > 0 ? added : 0;
    }
    struct probe *probe = sema_new_probe(s, point, body, frame, NULL);
    /* A resolver fills `probe` (its last match) and returns how many probes
     * it matched; it adds the earlier matches itself with sema_add_probe_copy. */
    int count = resolve(s, point, probe);
    if (count <= 0)
        return 0;
    if (probe->kind == PROBE_TRACEPOINT)
        sema_add_probe_copy(s, probe);   /* $fields are lowered per tracepoint */
    else
        sema_add_probe(s, probe);
    return count;
}

void sema_resolve_probe(struct sema *s, struct decl *decl)
{
    struct frame_layout *frame = ARENA_NEW(s->arena, struct frame_layout);
    for (struct probe_point *point = decl->probe.points; point; point = point->next) {
        if (sema_resolve_point(s, point, decl->probe.body, frame) && point->sufficient)
            break;
    }
}
