/* Lowering dispatched by the probe's kind (lower.h): the hooks of its
 * descriptor first, for the probe's own body, then DWARF's lowering. */
#include "kinds/kinds.h"
#include "sema/lower.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"

/* The kind of the probe whose own body (not a function's) e is in, or NULL. */
static const struct probe_kind_ops *own_kind(const struct sema *s)
{
    return s->probe && s->frame == s->probe->frame ? probe_kind_ops(s->probe->kind) : NULL;
}

enum lowering_result sema_lower_target_read(struct sema *s, struct expr *e)
{
    const struct probe_kind_ops *kind = own_kind(s);
    if (e->kind == EXPR_ENTRY && kind && kind->lower_entry)
        return kind->lower_entry(s, e) ? LOWER_RESOLVE_AGAIN : LOWER_DONE;
    /* a tracepoint's fields become reads of its record (tracepoint.c) */
    if (e->kind == EXPR_TARGET && kind && kind->lower_target)
        return kind->lower_target(s, e) && e->kind != EXPR_TARGET ? LOWER_RESOLVE_AGAIN : LOWER_DONE;
    return sema_lower_target(s, e) ? LOWER_RESOLVE_AGAIN : LOWER_DONE;
}

enum lowering_result sema_lower_assign(struct sema *s, struct expr *assign)
{
    const struct probe_kind_ops *kind = own_kind(s);
    if (assign->assign.lhs->kind != EXPR_TARGET || !kind || !kind->lower_assign)
        return LOWER_NOT_HERE;
    return kind->lower_assign(s, assign) ? LOWER_RESOLVE_AGAIN : LOWER_DONE;
}

void sema_refuse_target_write(struct sema *s, struct expr *e)
{
    const char *refusal = s->probe ? probe_kind_ops(s->probe->kind)->target_write_refusal : NULL;
    if (e->kind == EXPR_TARGET && refusal) {
        diag_error(s->diags, e->span, "%s", refusal);
        return;
    }
    diag_error(s->diags, e->span,
               "writing to the traced program's variables needs SystemTap's guru mode (-g), which tap "
               "does not offer: BPF programs cannot write kernel memory, and tap does not write user "
               "memory (bpf_probe_write_user)");
}
