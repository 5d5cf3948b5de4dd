/* @defined(...) folded to 0 or 1 before names are resolved, per probe (a
 * uprobe site, a tracepoint), so that the branch it guards is dropped where
 * the variable does not exist and its names are never looked up. */
#include <string.h>

#include "sema/sema_internal.h"

struct folding { defined_fn defined; void *context; };

static int fold_expr(struct expr *e, void *ctx);

static void replace_expr(struct expr *e, struct expr *with)
{
    struct expr *next = e->next;
    *e = *with;
    e->next = next;
}

/* Operands first, then the node: `!@defined(x)` and `@defined(x) ? a : b`
 * fold once their operands have. */
static int fold_expr(struct expr *e, void *ctx)
{
    struct folding *f = ctx;
    if (e->kind == EXPR_DEFINED) {
        int defined = f->defined(f->context, e->unary_at.operand);
        if (defined < 0)
            return 0;   /* decided where it is lowered (resolve.c) */
        struct expr value = {.kind = EXPR_INT, .span = e->span, .int_value = defined, .type = TYPE_LONG};
        replace_expr(e, &value);
        return 0;
    }
    ast_expr_children(e, &(struct ast_visitor){fold_expr, NULL, f});
    if (e->kind == EXPR_UNARY && e->unary.op == UNARY_NOT && e->unary.operand->kind == EXPR_INT) {
        struct expr value = {.kind = EXPR_INT, .span = e->span, .int_value = !e->unary.operand->int_value};
        replace_expr(e, &value);
    } else if (e->kind == EXPR_TERNARY && e->ternary.cond->kind == EXPR_INT) {
        replace_expr(e, e->ternary.cond->int_value ? e->ternary.then_expr : e->ternary.else_expr);
    }
    return 0;
}

/* `if` on a folded condition becomes the branch taken (a block), or nothing. */
static int fold_stmt(struct stmt *st, void *ctx)
{
    ast_stmt_children(st, &(struct ast_visitor){fold_expr, fold_stmt, ctx});
    if (st->kind == STMT_IF && st->if_stmt.cond->kind == EXPR_INT) {
        struct stmt *live = st->if_stmt.cond->int_value ? st->if_stmt.then_stmt : st->if_stmt.else_stmt;
        struct stmt *next = st->next;
        struct span span = st->span;
        memset(&st->if_stmt, 0, sizeof(st->if_stmt));
        st->kind = live ? STMT_BLOCK : STMT_EMPTY;
        st->block.body = live;
        st->span = span;
        st->next = next;
    }
    return 0;
}

void sema_fold_defined(struct stmt *body, struct expr *condition, defined_fn defined, void *context)
{
    struct folding f = {defined, context};
    ast_stmt_list(body, &(struct ast_visitor){fold_expr, fold_stmt, &f});
    if (condition)
        fold_expr(condition, &f);
}
