/* The sema driver: collect declarations, resolve probe points and names,
 * find reachable and recursive functions, infer types. */
#include <string.h>

#include "sema/sema_internal.h"

static void collect_decls(struct sema *s, struct ast *ast)
{
    for (struct decl *d = ast->decls; d; d = d->next) {
        switch (d->kind) {
        case DECL_GLOBAL: sema_add_global(s, d); break;
        case DECL_FUNCTION: sema_add_function(s, d); break;
        case DECL_EMBEDDED:
            diag_error(s->diags, d->span,
                       "embedded C (%%{ %%}) is not available: tap runs scripts as BPF programs, with no guru mode");
            break;
        case DECL_ALIAS: sema_add_alias(s, d); break;
        case DECL_PROBE: break;
        }
    }
    for (struct decl *d = ast->decls; d; d = d->next)
        if (d->kind == DECL_PROBE)
            sema_resolve_probe(s, d);
}

void sema_resolve_function(struct sema *s, struct function_decl *fn)
{
    if (fn->is_resolved)
        return;
    fn->is_resolved = 1;
    if (fn->decl->function.body->kind == STMT_EMBEDDED) {
        diag_error(s->diags, fn->decl->function.body->span,
                   "embedded C (%%{ %%}) is not available: tap runs scripts as BPF programs, with no guru mode");
        return;
    }
    sema_resolve_function_body(s, fn);
}

void sema_resolve_function_body(struct sema *s, struct function_decl *fn)
{
    s->function = fn;
    s->frame = &fn->frame;
    fn->is_resolving = 1;
    sema_resolve_body(s, fn->decl->function.body);
    fn->is_resolving = 0;
}

/* A callee whose body must be known now (a tapset function, a return type
 * for autocast): resolved in its own frame, then back to the caller's. */
void sema_resolve_callee(struct sema *s, struct function_decl *fn)
{
    if (fn->is_resolved)
        return;
    struct function_decl *function = s->function;
    struct frame_layout *frame = s->frame;
    int loop_depth = s->loop_depth;
    sema_resolve_function(s, fn);
    s->function = function;
    s->frame = frame;
    s->loop_depth = loop_depth;
}

static void mark_reachable(struct function_decl *fn)
{
    if (fn->is_reachable)
        return;
    fn->is_reachable = 1;
    for (int i = 0; i < fn->callee_count; i++)
        mark_reachable(fn->callees[i]);
}

/* A function is recursive when it can reach itself through its callees. */
static int reaches(struct function_decl *from, struct function_decl *target, int depth)
{
    if (depth > 64)
        return 0;
    for (int i = 0; i < from->callee_count; i++)
        if (from->callees[i] == target || reaches(from->callees[i], target, depth + 1))
            return 1;
    return 0;
}

/* Binds the names in a probe's condition and body; calls are recorded as
 * callees of `caller` (the probes' pseudo-function, for reachability). */
void sema_resolve_probe_body(struct sema *s, struct probe *probe, struct function_decl *caller)
{
    s->function = caller;
    s->frame = probe->frame;
    s->probe = probe;
    if (probe->condition) {
        struct stmt cond = {.kind = STMT_EXPR, .expr = probe->condition};
        sema_resolve_body(s, &cond);
    }
    sema_resolve_body(s, probe->body);
}

static void resolve_bodies(struct sema *s)
{
    struct script *script = s->script;
    /* Probe bodies record their calls in a pseudo-function so reachability
     * starts from what probes call. */
    struct function_decl roots = {0};
    int resolved = 0;
    do {   /* a tapset file brought in by a call may have probes of its own */
        for (; resolved < script->probe_count; resolved++) {
            struct probe *probe = script->probes[resolved];
            if (resolved > 0 && script->probes[resolved - 1]->body == probe->body)
                continue;
            sema_resolve_probe_body(s, probe, &roots);
        }
        s->function = NULL;
        for (int i = 0; i < script->function_count; i++)
            if (!script->functions[i]->is_builtin_tapset)
                sema_resolve_function(s, script->functions[i]);
    } while (sema_resolve_tapset_probes(s) > 0);
    sema_mark_reachable(s, &roots);
}

/* Reachability starts from what probes call (`roots`); -u keeps every
 * function. Recursion is found among the reachable. */
void sema_mark_reachable(struct sema *s, struct function_decl *roots)
{
    struct script *script = s->script;
    for (int i = 0; i < script->function_count; i++)
        script->functions[i]->is_reachable = 0;
    for (int i = 0; i < roots->callee_count; i++)
        mark_reachable(roots->callees[i]);
    for (int i = 0; i < script->function_count && s->options->keep_unused; i++)
        if (!script->functions[i]->is_builtin_tapset)
            mark_reachable(script->functions[i]);   /* -u keeps them: checked, printed, compiled */
    for (int i = 0; i < script->function_count; i++)
        script->functions[i]->is_recursive = reaches(script->functions[i], script->functions[i], 0);
}

/* After every body is resolved: unused code elided, types inferred, entry
 * probes placed. */
static void finish_script(struct sema *s)
{
    sema_elide_unused(s);
    sema_infer_types(s);
    sema_drop_never_probes(s);
    if (!s->diags->error_count && s->script->probe_count == 0)
        diag_plain_error(s->diags, "no probes found");
    if (!s->diags->error_count) {
        sema_place_entry_probes(s);
        sema_plan_syscall_deferral(s);
    }
}

struct script *sema_analyze(struct arena *arena, struct diags *diags, struct ast *user,
                            const struct sema_options *options)
{
    struct sema s = {.arena = arena, .diags = diags, .options = options};
    s.script = ARENA_NEW(arena, struct script);
    s.script->main_file = user->file;
    sema_write_hist_strings(&s, user);
    sema_write_syscall_entries(&s, user);
    collect_decls(&s, user);
    if (!diags->error_count && s.script->probe_count == 0)
        diag_plain_error(diags, "no probes found");
    if (!diags->error_count)
        resolve_bodies(&s);
    if (!diags->error_count)
        finish_script(&s);
    /* probe points (even refused ones) and typing task_current() for autocast may have loaded it */
    sema_release_kernel_btf(&s);
    return diags->error_count ? NULL : s.script;
}
