/* SystemTap's dead-code passes (elaborate.cxx semantic_pass_opt1..opt4),
 * after every body is resolved and unless -u: globals nothing names are
 * dropped, then to a fixpoint an assignment to a local nobody reads becomes
 * its right side, an expression statement with no side effect is dropped,
 * and so are the locals and functions nothing uses any more. Like
 * SystemTap, it warns only about what the user's script wrote, each text
 * once. */
#include <string.h>

#include "base/strbuf.h"
#include "sema/builtins.h"
#include "sema/sema_internal.h"

/* SystemTap warns about what the user's script wrote, and only in its
 * optimizer's first round: what becomes unused later goes silently. */
static int warns_about(const struct sema *s, struct span span)
{
    return s->elision_warns && span.file && !span.file->is_tapset;
}

struct purity {
    int in_function;       /* a function's own locals may be written */
    int depth;             /* calls followed: deeper counts as an effect */
};

static int stmt_has_effect(struct stmt *st, void *ctx);

static int function_has_effect(struct function_decl *fn, const struct purity *outer)
{
    if (outer->depth >= 8 || fn->has_next || fn->next_overload)
        return 1;
    struct purity inner = {1, outer->depth + 1};
    return ast_stmt_list(fn->decl->function.body, &(struct ast_visitor){NULL, stmt_has_effect, &inner});
}

static int writes_own_local(const struct expr *target, const struct purity *p)
{
    return p->in_function && target->kind == EXPR_IDENT && target->symbol && target->symbol->kind != SYMBOL_GLOBAL;
}

/* Whether evaluating e may do more than give its value: write a variable
 * the caller sees, print, call something that does. Unknown kinds count. */
static int expr_has_effect(struct expr *e, void *ctx)
{
    const struct purity *p = ctx;
    const struct ast_visitor operands = {expr_has_effect, NULL, ctx};
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_IDENT: case EXPR_REGISTER:
        return 0;
    case EXPR_UNARY: case EXPR_BINARY: case EXPR_TERNARY: case EXPR_INDEX: case EXPR_IN: case EXPR_STAT:
    case EXPR_HIST_BUCKET: case EXPR_USER_READ: case EXPR_CTX_READ:
        return ast_expr_children(e, &operands);
    case EXPR_ASSIGN:
        return !writes_own_local(e->assign.lhs, p) || ast_expr_children(e, &operands);
    case EXPR_INCDEC:
        return !writes_own_local(e->incdec.operand, p);
    case EXPR_CALL:
        if (ast_expr_children(e, &operands))
            return 1;
        if (e->call.target == CALL_BUILTIN)
            return builtin_has_effect(e->call.builtin->id);
        return e->call.target != CALL_FUNCTION || function_has_effect(e->call.function, p);
    default:
        return 1;
    }
}

static int stmt_has_effect(struct stmt *st, void *ctx)
{
    switch (st->kind) {
    case STMT_NEXT: case STMT_DELETE: case STMT_EMBEDDED:
        return 1;
    default:
        return ast_stmt_children(st, &(struct ast_visitor){expr_has_effect, stmt_has_effect, ctx});
    }
}

/* `x = e` with x never read becomes e (SystemTap's dead_assignment_remover). */
static void elide_assignment(struct expr *e, void *data)
{
    struct sema *s = data;
    if (e->kind != EXPR_ASSIGN || e->assign.op != ASSIGN_SET || e->assign.lhs->kind != EXPR_IDENT)
        return;
    struct symbol *target = e->assign.lhs->symbol;
    if (!target || target->kind == SYMBOL_GLOBAL || target->is_read)
        return;
    if (warns_about(s, e->span))
        diag_warning_once(s->diags, e->span, "Eliding assignment to '%s'", target->name);
    struct expr *next = e->next;
    *e = *e->assign.rhs;
    e->next = next;
    s->changed = 1;
}

/* An expression statement whose value is dropped and that does nothing
 * else goes (SystemTap's dead_stmtexpr_remover). */
static int drop_pure_statement(struct stmt *st, void *data)
{
    struct sema *s = data;
    struct purity top = {0, 0};
    if (st->kind == STMT_EXPR && !expr_has_effect(st->expr, &top)) {
        if (warns_about(s, st->span))
            diag_warning_once(s->diags, st->span, "Eliding side-effect-free expression ");
        st->kind = STMT_EMPTY;
        s->changed = 1;
        return 0;
    }
    return ast_stmt_children(st, &(struct ast_visitor){NULL, drop_pure_statement, data});
}

static void elide_in_body(struct sema *s, struct stmt *body)
{
    ast_visit_exprs(body, elide_assignment, s);
    ast_stmt_list(body, &(struct ast_visitor){NULL, drop_pure_statement, s});
}

static void forget_uses(struct frame_layout *frame)
{
    for (int i = 0; i < frame->local_count; i++) {
        frame->locals[i]->is_read = 0;
        if (frame->locals[i]->kind == SYMBOL_LOCAL)
            frame->locals[i]->is_written = 0;
    }
}

static int shares_previous_body(const struct script *script, int i)
{
    return i > 0 && script->probes[i - 1]->body == script->probes[i]->body;
}

/* @entry operands live outside the body (the entry program computes
 * them): what they read and call is used too. */
static void count_entry_uses(struct sema *s, struct probe *probe, struct function_decl *roots)
{
    s->function = roots;
    s->frame = probe->frame;
    s->probe = probe;
    for (int k = 0; k < probe->entry_count; k++)
        sema_resolve_expr(s, probe->entry_values[k]);
}

/* What reads and writes each local and what calls each function, from
 * the bodies as they are now: each is resolved again (names bind as
 * before; only the uses are counted). */
static void count_uses(struct sema *s, struct function_decl *roots)
{
    struct script *script = s->script;
    roots->callee_count = 0;
    /* bodies are all a global's uses: one read only by an elided store is
     * written only now (printed at the end), one named by nothing else unused */
    for (int i = 0; i < script->global_count; i++)
        script->globals[i]->is_read = script->globals[i]->is_written = script->globals[i]->is_used = 0;
    for (int i = 0; i < script->function_count; i++) {
        struct function_decl *fn = script->functions[i];
        fn->callee_count = 0;
        forget_uses(&fn->frame);
    }
    for (int i = 0; i < script->probe_count; i++) {
        if (!shares_previous_body(script, i)) {
            forget_uses(script->probes[i]->frame);
            sema_resolve_probe_body(s, script->probes[i], roots);
        }
        count_entry_uses(s, script->probes[i], roots);
    }
    for (int i = 0; i < script->function_count; i++) {
        struct function_decl *fn = script->functions[i];
        if (fn->is_resolved && fn->decl->function.body->kind != STMT_EMBEDDED)
            sema_resolve_function_body(s, fn);
    }
    s->function = NULL;
    sema_mark_reachable(s, roots);
}

static void warn_unused_functions(struct sema *s)
{
    for (int i = 0; i < s->script->function_count; i++) {
        struct function_decl *fn = s->script->functions[i];
        if (!fn->is_reachable && !fn->is_builtin_tapset && warns_about(s, fn->decl->span))
            diag_warning_once(s->diags, fn->decl->span, "eliding unused function '%s'", fn->name);
    }
}

/* Locals neither read nor written any more leave the frame. */
static void drop_unused_locals(struct sema *s, struct stmt *body, struct frame_layout *frame)
{
    (void)body;
    int kept = 0;
    for (int i = 0; i < frame->local_count; i++) {
        struct symbol *sym = frame->locals[i];
        if (sym->kind == SYMBOL_LOCAL && !sym->is_read && !sym->is_written) {
            if (warns_about(s, sym->span))
                diag_warning_once(s->diags, sym->span, "Eliding unused variable '%s'", sym->name);
            continue;
        }
        sym->local_index = kept;
        frame->locals[kept++] = sym;
    }
    frame->local_count = kept;
}

static void elide_in_frame(struct sema *s, struct stmt *body, struct frame_layout *frame)
{
    (void)frame;
    elide_in_body(s, body);
}

/* Visits each probe body (once for probes sharing one) and each function
 * the probes reach, with its frame. */
static void each_live_body(struct sema *s, void (*visit)(struct sema *, struct stmt *, struct frame_layout *))
{
    struct script *script = s->script;
    for (int i = 0; i < script->probe_count; i++)
        if (!shares_previous_body(script, i))
            visit(s, script->probes[i]->body, script->probes[i]->frame);
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable)
            visit(s, script->functions[i]->decl->function.body, &script->functions[i]->frame);
}

static int set_by_option(struct sema *s, const char *name)
{
    for (int i = 0; i < s->options->set_global_count; i++)
        if (strcmp(s->options->set_globals[i], name) == 0)
            return 1;
    return 0;
}

/* " (similar: a, b)": the five other globals nearest by edit distance, as
 * SystemTap's levenshtein_suggest orders them (distance, then name), among
 * those not dropped yet (`gone`). */
static const char *similar_globals(struct sema *s, const struct symbol *g, const char *gone)
{
    struct strbuf sb;
    strbuf_init(&sb);
    const struct symbol *taken[5];
    int count = 0;
    for (; count < 5; count++) {
        const struct symbol *best = NULL;
        int best_distance = 0;
        for (int i = 0; i < s->script->global_count; i++) {
            const struct symbol *c = s->script->globals[i];
            int skip = gone[i] || c == g || strncmp(c->name, "__private_", 10) == 0;
            for (int t = 0; t < count; t++)
                skip |= taken[t] == c;
            int d = skip ? 0 : sema_edit_distance(g->name, c->name);
            if (!skip && (!best || d < best_distance || (d == best_distance && strcmp(c->name, best->name) < 0))) {
                best = c;
                best_distance = d;
            }
        }
        if (!best)
            break;
        taken[count] = best;
        strbuf_printf(&sb, "%s%s", count ? ", " : " (similar: ", best->name);
    }
    if (count)
        strbuf_putc(&sb, ')');
    const char *text = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

/* SystemTap's opt2 on globals, in declaration order: one nothing names is
 * dropped; one read but never written, initialised nor set by -G is
 * likely a typo. */
static void check_globals(struct sema *s)
{
    struct script *script = s->script;
    char *gone = arena_alloc(s->arena, (size_t)script->global_count + 1);
    for (int i = 0; i < script->global_count; i++) {
        struct symbol *g = script->globals[i];
        if (!g->is_read && !g->is_written) {
            if (warns_about(s, g->span))
                diag_warning_once(s->diags, g->span, "Eliding unused variable '%s'", g->name);
            gone[i] = 1;
        } else if (!g->is_written && !g->init && !set_by_option(s, g->name) && warns_about(s, g->span)) {
            diag_warning_once(s->diags, g->span, "never-assigned global variable '%s'%s", g->name,
                              similar_globals(s, g, gone));
        }
    }
    int kept = 0;
    for (int i = 0; i < script->global_count; i++) {
        if (gone[i])
            continue;
        script->globals[i]->global_index = kept;
        script->globals[kept++] = script->globals[i];
    }
    script->global_count = kept;
}

void sema_elide_unused(struct sema *s)
{
    if (s->options->keep_unused)
        return;
    struct function_decl roots = {0};
    s->elision_warns = 1;
    count_uses(s, &roots);
    warn_unused_functions(s);
    check_globals(s);
    int round = 0;
    do {
        s->changed = 0;
        each_live_body(s, elide_in_frame);
        s->elision_warns = 0;
        count_uses(s, &roots);
        warn_unused_functions(s);
        check_globals(s);
        each_live_body(s, drop_unused_locals);
    } while (s->changed && ++round < 32);
    s->changed = 0;
}
