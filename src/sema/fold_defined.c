/* @defined(...) folded to 0 or 1 before names are resolved, per probe (a
 * uprobe site, a tracepoint), so that the branch it guards is dropped where
 * the variable does not exist and its names are never looked up. */
#include <string.h>

#include "sema/sema_internal.h"

struct folding { defined_fn defined; void *context; };

static void fold_expr(struct folding *f, struct expr *e);

static void fold_list(struct folding *f, struct expr *list)
{
    for (struct expr *e = list; e; e = e->next)
        fold_expr(f, e);
}

static void replace_expr(struct expr *e, struct expr *with)
{
    struct expr *next = e->next;
    *e = *with;
    e->next = next;
}

static void fold_expr(struct folding *f, struct expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_DEFINED: {
        int defined = f->defined(f->context, e->unary_at.operand);
        if (defined < 0)
            return;   /* decided where it is lowered (resolve.c) */
        struct expr value = {.kind = EXPR_INT, .span = e->span, .int_value = defined, .type = TYPE_LONG};
        replace_expr(e, &value);
        return;
    }
    case EXPR_UNARY:
        fold_expr(f, e->unary.operand);
        if (e->unary.op == UNARY_NOT && e->unary.operand->kind == EXPR_INT) {
            struct expr value = {.kind = EXPR_INT, .span = e->span, .int_value = !e->unary.operand->int_value};
            replace_expr(e, &value);
        }
        return;
    case EXPR_TERNARY:
        fold_expr(f, e->ternary.cond);
        fold_expr(f, e->ternary.then_expr);
        fold_expr(f, e->ternary.else_expr);
        if (e->ternary.cond->kind == EXPR_INT)
            replace_expr(e, e->ternary.cond->int_value ? e->ternary.then_expr : e->ternary.else_expr);
        return;
    case EXPR_BINARY: fold_expr(f, e->binary.lhs); fold_expr(f, e->binary.rhs); return;
    case EXPR_ASSIGN: fold_expr(f, e->assign.rhs); return;
    case EXPR_AGGREGATE: fold_expr(f, e->aggregate.rhs); return;
    case EXPR_CALL: fold_list(f, e->call.args); return;
    case EXPR_INDEX: fold_list(f, e->index.indices); return;
    case EXPR_ENTRY: fold_expr(f, e->unary_at.operand); return;
    default: return;
    }
}

static void fold_stmt(struct folding *f, struct stmt *st)
{
    for (; st; st = st->next) {
        switch (st->kind) {
        case STMT_BLOCK: fold_stmt(f, st->block.body); break;
        case STMT_EXPR: case STMT_RETURN: fold_expr(f, st->expr); break;
        case STMT_IF:
            fold_expr(f, st->if_stmt.cond);
            fold_stmt(f, st->if_stmt.then_stmt);
            fold_stmt(f, st->if_stmt.else_stmt);
            if (st->if_stmt.cond->kind == EXPR_INT) {
                struct stmt *live = st->if_stmt.cond->int_value ? st->if_stmt.then_stmt : st->if_stmt.else_stmt;
                struct stmt *next = st->next;
                struct span span = st->span;
                memset(&st->if_stmt, 0, sizeof(st->if_stmt));
                st->kind = live ? STMT_BLOCK : STMT_EMPTY;
                st->block.body = live;
                st->span = span;
                st->next = next;
            }
            break;
        case STMT_WHILE: fold_expr(f, st->while_stmt.cond); fold_stmt(f, st->while_stmt.body); break;
        case STMT_FOR: fold_expr(f, st->for_stmt.cond); fold_stmt(f, st->for_stmt.body); break;
        case STMT_FOREACH: fold_stmt(f, st->foreach.body); break;
        case STMT_TRY: fold_stmt(f, st->try_stmt.body); fold_stmt(f, st->try_stmt.catch_body); break;
        default: break;
        }
    }
}

void sema_fold_defined(struct stmt *body, struct expr *condition, defined_fn defined, void *context)
{
    struct folding f = {defined, context};
    fold_stmt(&f, body);
    fold_expr(&f, condition);
}
