/* Probe-point resolution: the kind a point names (kinds/registry.c) turns
 * its dotted components into concrete probes (kind, parameters, canonical
 * text); these are the helpers the kinds' resolvers share. */
#include <string.h>

#include "base/strbuf.h"
#include "sema/sema_internal.h"
#include "kinds/kinds.h"


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

int sema_point_error(struct sema *s, struct probe_point *point, struct span span, const char *fmt,
                     const char *arg)
{
    if (!point->optional)
        diag_error(s->diags, span, fmt, arg);
    else
        s->suppressed_error = arena_printf(s->arena, fmt, arg);
    return 0;
}

void sema_drop_never_probes(struct sema *s)
{
    struct script *script = s->script;
    int kept = 0;
    for (int i = 0; i < script->probe_count; i++) {
        if (probe_kind_ops(script->probes[i]->kind)->flags & KIND_CHECK_ONLY)
            continue;
        script->probes[i]->index = kept;
        script->probes[kept++] = script->probes[i];
    }
    script->probe_count = kept;
}

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

void sema_join_group(struct sema *s, struct probe *leader, struct probe *probe)
{
    /* Capacity: 64, then doubled at each power of two (20k sites must not copy 20k/64 times). */
    int n = leader->group_count;
    if (n == 0 || (n >= 64 && (n & (n - 1)) == 0))
        leader->group = arena_realloc(s->arena, leader->group, sizeof(*leader->group) * (size_t)n,
                                      sizeof(*leader->group) * (size_t)(n ? 2 * n : 64));
    if (leader->group_count == 0)
        leader->group[leader->group_count++] = leader;
    probe->cookie = (uint64_t)leader->group_count;
    leader->group[leader->group_count++] = probe;
    probe->group_leader = leader;
}

/* The kind whose head the point's leading components match resolves it;
 * any other point is a tapset alias. */
int sema_resolve_point(struct sema *s, struct probe_point *point, struct stmt *body,
                       struct frame_layout *frame)
{
    const struct probe_kind_ops *kind = probe_kind_for_point(point);
    int resolved = RESOLVE_AS_ALIAS;
    if (kind) {
        /* of the resolving kind unless its resolver says otherwise (end, uretprobe) */
        struct probe *probe = sema_new_probe(s, point, body, frame, NULL);
        probe->kind = kind->kind;
        resolved = kind->resolve(s, point, probe);
    }
    if (resolved != RESOLVE_AS_ALIAS)
        return resolved > 0 ? resolved : 0;
    s->suppressed_error = NULL;
    int added = sema_expand_alias(s, point, body);
    if (added < 0)
        sema_point_error(s, point, point->components->span,
                         "while resolving probe point: unknown probe point %s", sema_point_text(s, point));
    else if (added == 0 && !point->optional && !s->diags->error_count)
        /* its points were optional: the last one's failure says why */
        diag_error(s->diags, point->span, "while resolving probe point: %s matched no probe point%s%s",
                   sema_point_text(s, point), s->suppressed_error ? ": " : "",
                   s->suppressed_error ? s->suppressed_error : "");
    return added > 0 ? added : 0;
}

void sema_resolve_probe(struct sema *s, struct decl *decl)
{
    struct frame_layout *frame = ARENA_NEW(s->arena, struct frame_layout);
    for (struct probe_point *point = decl->probe.points; point; point = point->next) {
        int first = s->script->probe_count;
        int added = sema_resolve_point(s, point, decl->probe.body, frame);
        const char *written = added ? sema_point_text(s, point) : NULL;
        for (int p = first; p < s->script->probe_count; p++) {
            s->script->probes[p]->written_point = written;
            s->script->probes[p]->decl_span = decl->span;
        }
        if (added && point->sufficient)
            break;
    }
}
