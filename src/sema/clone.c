/* Deep copies of probe bodies. A process probe whose point matches several
 * functions gets one copy of the body per function, because its target
 * variables are lowered differently at each address. */
#include <string.h>

#include "sema/uprobe.h"

static struct expr *clone_list(struct arena *arena, struct expr *list)
{
    struct expr *head = NULL, **tail = &head;
    for (struct expr *e = list; e; e = e->next) {
        *tail = sema_clone_expr(arena, e);
        tail = &(*tail)->next;
    }
    return head;
}

static struct component *clone_components(struct arena *arena, struct component *list)
{
    struct component *head = NULL, **tail = &head;
    for (struct component *c = list; c; c = c->next) {
        struct component *copy = ARENA_NEW(arena, struct component);
        *copy = *c;
        copy->index = c->index ? sema_clone_expr(arena, c->index) : NULL;
        copy->next = NULL;
        *tail = copy;
        tail = &copy->next;
    }
    return head;
}

#define CLONE(field) ((field) = (field) ? sema_clone_expr(arena, (field)) : NULL)

struct expr *sema_clone_expr(struct arena *arena, struct expr *e)
{
    struct expr *c = ARENA_NEW(arena, struct expr);
    *c = *e;
    c->next = NULL;
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_IDENT: case EXPR_REGISTER:
        break;
    case EXPR_TARGET: c->target.components = clone_components(arena, e->target.components); break;
    case EXPR_UNARY: CLONE(c->unary.operand); break;
    case EXPR_BINARY: CLONE(c->binary.lhs); CLONE(c->binary.rhs); break;
    case EXPR_ASSIGN: CLONE(c->assign.lhs); CLONE(c->assign.rhs); break;
    case EXPR_AGGREGATE: CLONE(c->aggregate.lhs); CLONE(c->aggregate.rhs); break;
    case EXPR_INCDEC: CLONE(c->incdec.operand); break;
    case EXPR_TERNARY: CLONE(c->ternary.cond); CLONE(c->ternary.then_expr); CLONE(c->ternary.else_expr); break;
    case EXPR_CALL: c->call.args = clone_list(arena, e->call.args); break;
    case EXPR_INDEX: CLONE(c->index.array); c->index.indices = clone_list(arena, e->index.indices); break;
    case EXPR_IN: c->in.keys = clone_list(arena, e->in.keys); CLONE(c->in.array); break;
    case EXPR_STAT: CLONE(c->stat.operand); c->stat.args = clone_list(arena, e->stat.args); break;
    case EXPR_HIST_BUCKET: CLONE(c->hist_bucket.hist); CLONE(c->hist_bucket.bucket); break;
    case EXPR_ENTRY: case EXPR_DEFINED: CLONE(c->unary_at.operand); break;
    case EXPR_CAST:
        CLONE(c->cast.address);
        c->cast.components = clone_components(arena, e->cast.components);
        break;
    case EXPR_VAR: c->var_at.components = clone_components(arena, e->var_at.components); break;
    case EXPR_USER_READ: CLONE(c->user_read.address); break;
    }
    return c;
}

static struct foreach_key *clone_keys(struct arena *arena, struct foreach_key *keys)
{
    struct foreach_key *head = NULL, **tail = &head;
    for (struct foreach_key *k = keys; k; k = k->next) {
        struct foreach_key *copy = ARENA_NEW(arena, struct foreach_key);
        *copy = *k;
        copy->next = NULL;
        *tail = copy;
        tail = &copy->next;
    }
    return head;
}

static struct stmt *clone_one(struct arena *arena, struct stmt *st)
{
    struct stmt *c = ARENA_NEW(arena, struct stmt);
    *c = *st;
    c->next = NULL;
    switch (st->kind) {
    case STMT_EMPTY: case STMT_BREAK: case STMT_CONTINUE: case STMT_NEXT: case STMT_EMBEDDED:
        break;
    case STMT_BLOCK: c->block.body = sema_clone_stmt(arena, st->block.body); break;
    case STMT_EXPR: case STMT_RETURN: case STMT_DELETE: CLONE(c->expr); break;
    case STMT_IF:
        CLONE(c->if_stmt.cond);
        c->if_stmt.then_stmt = sema_clone_stmt(arena, st->if_stmt.then_stmt);
        c->if_stmt.else_stmt = sema_clone_stmt(arena, st->if_stmt.else_stmt);
        break;
    case STMT_WHILE:
        CLONE(c->while_stmt.cond);
        c->while_stmt.body = sema_clone_stmt(arena, st->while_stmt.body);
        break;
    case STMT_FOR:
        CLONE(c->for_stmt.init); CLONE(c->for_stmt.cond); CLONE(c->for_stmt.step);
        c->for_stmt.body = sema_clone_stmt(arena, st->for_stmt.body);
        break;
    case STMT_FOREACH:
        c->foreach.keys = clone_keys(arena, st->foreach.keys);
        CLONE(c->foreach.array);
        c->foreach.slice = clone_list(arena, st->foreach.slice);
        CLONE(c->foreach.limit);
        c->foreach.body = sema_clone_stmt(arena, st->foreach.body);
        break;
    case STMT_TRY:
        c->try_stmt.body = sema_clone_stmt(arena, st->try_stmt.body);
        c->try_stmt.catch_body = sema_clone_stmt(arena, st->try_stmt.catch_body);
        break;
    }
    return c;
}

struct stmt *sema_clone_stmt(struct arena *arena, struct stmt *list)
{
    struct stmt *head = NULL, **tail = &head;
    for (struct stmt *st = list; st; st = st->next) {
        *tail = clone_one(arena, st);
        tail = &(*tail)->next;
    }
    return head;
}
