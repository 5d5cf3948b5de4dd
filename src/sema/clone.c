/* Deep copies of bodies. An alias expansion gets its own copy of the user's
 * handler: sema binds symbols and types into the nodes, and each expansion
 * has its own frame (the alias's locals differ from one alias to the next). */
#include <string.h>

#include "sema/sema_internal.h"

#define COPY(arena, p) memcpy(arena_alloc((arena), sizeof(*(p))), (p), sizeof(*(p)))

static struct expr *clone_list(struct arena *arena, const struct expr *list);

static struct component *clone_components(struct arena *arena, const struct component *c)
{
    if (!c)
        return NULL;
    struct component *copy = COPY(arena, c);
    copy->index = c->index ? sema_clone_expr(arena, c->index) : NULL;
    copy->next = clone_components(arena, c->next);
    return copy;
}

struct expr *sema_clone_expr(struct arena *arena, const struct expr *e)
{
    if (!e)
        return NULL;
    struct expr *c = COPY(arena, e);
    c->next = NULL;
    c->type = TYPE_UNKNOWN;
    c->symbol = NULL;
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_IDENT: case EXPR_REGISTER:
        break;
    case EXPR_TARGET:
        c->target.components = clone_components(arena, e->target.components);
        break;
    case EXPR_UNARY: c->unary.operand = sema_clone_expr(arena, e->unary.operand); break;
    case EXPR_BINARY:
        c->binary.lhs = sema_clone_expr(arena, e->binary.lhs);
        c->binary.rhs = sema_clone_expr(arena, e->binary.rhs);
        break;
    case EXPR_ASSIGN:
        c->assign.lhs = sema_clone_expr(arena, e->assign.lhs);
        c->assign.rhs = sema_clone_expr(arena, e->assign.rhs);
        break;
    case EXPR_AGGREGATE:
        c->aggregate.lhs = sema_clone_expr(arena, e->aggregate.lhs);
        c->aggregate.rhs = sema_clone_expr(arena, e->aggregate.rhs);
        break;
    case EXPR_INCDEC: c->incdec.operand = sema_clone_expr(arena, e->incdec.operand); break;
    case EXPR_TERNARY:
        c->ternary.cond = sema_clone_expr(arena, e->ternary.cond);
        c->ternary.then_expr = sema_clone_expr(arena, e->ternary.then_expr);
        c->ternary.else_expr = sema_clone_expr(arena, e->ternary.else_expr);
        break;
    case EXPR_CALL:
        c->call.args = clone_list(arena, e->call.args);
        c->call.target = CALL_UNRESOLVED;   /* resolved again where the copy is used */
        c->call.builtin = NULL;
        c->call.function = NULL;
        break;
    case EXPR_INDEX:
        c->index.array = sema_clone_expr(arena, e->index.array);
        c->index.indices = clone_list(arena, e->index.indices);
        break;
    case EXPR_IN:
        c->in.keys = clone_list(arena, e->in.keys);
        c->in.array = sema_clone_expr(arena, e->in.array);
        break;
    case EXPR_STAT:
        c->stat.operand = sema_clone_expr(arena, e->stat.operand);
        c->stat.args = clone_list(arena, e->stat.args);
        break;
    case EXPR_HIST_BUCKET:
        c->hist_bucket.hist = sema_clone_expr(arena, e->hist_bucket.hist);
        c->hist_bucket.bucket = sema_clone_expr(arena, e->hist_bucket.bucket);
        break;
    case EXPR_ENTRY: case EXPR_DEFINED:
        c->unary_at.operand = sema_clone_expr(arena, e->unary_at.operand);
        break;
    case EXPR_CAST:
        c->cast.address = sema_clone_expr(arena, e->cast.address);
        c->cast.components = clone_components(arena, e->cast.components);
        break;
    case EXPR_VAR: c->var_at.components = clone_components(arena, e->var_at.components); break;
    case EXPR_AUTOCAST:
        c->autocast.operand = sema_clone_expr(arena, e->autocast.operand);
        c->autocast.components = clone_components(arena, e->autocast.components);
        break;
    case EXPR_USER_READ: c->user_read.address = sema_clone_expr(arena, e->user_read.address); break;
    case EXPR_CTX_READ: break;
    }
    return c;
}

static struct expr *clone_list(struct arena *arena, const struct expr *list)
{
    struct expr *head = NULL, **tail = &head;
    for (const struct expr *e = list; e; e = e->next) {
        *tail = sema_clone_expr(arena, e);
        tail = &(*tail)->next;
    }
    return head;
}

static struct foreach_key *clone_keys(struct arena *arena, const struct foreach_key *k)
{
    if (!k)
        return NULL;
    struct foreach_key *copy = COPY(arena, k);
    copy->symbol = NULL;
    copy->next = clone_keys(arena, k->next);
    return copy;
}

static struct stmt *clone_one(struct arena *arena, const struct stmt *st)
{
    struct stmt *c = COPY(arena, st);
    c->next = NULL;
    switch (st->kind) {
    case STMT_EMPTY: case STMT_BREAK: case STMT_CONTINUE: case STMT_NEXT: case STMT_EMBEDDED:
        break;
    case STMT_BLOCK: c->block.body = sema_clone_stmt(arena, st->block.body); break;
    case STMT_EXPR: case STMT_RETURN: case STMT_DELETE:
        c->expr = sema_clone_expr(arena, st->expr);
        break;
    case STMT_IF:
        c->if_stmt.cond = sema_clone_expr(arena, st->if_stmt.cond);
        c->if_stmt.then_stmt = sema_clone_stmt(arena, st->if_stmt.then_stmt);
        c->if_stmt.else_stmt = sema_clone_stmt(arena, st->if_stmt.else_stmt);
        break;
    case STMT_WHILE:
        c->while_stmt.cond = sema_clone_expr(arena, st->while_stmt.cond);
        c->while_stmt.body = sema_clone_stmt(arena, st->while_stmt.body);
        break;
    case STMT_FOR:
        c->for_stmt.init = sema_clone_expr(arena, st->for_stmt.init);
        c->for_stmt.cond = sema_clone_expr(arena, st->for_stmt.cond);
        c->for_stmt.step = sema_clone_expr(arena, st->for_stmt.step);
        c->for_stmt.body = sema_clone_stmt(arena, st->for_stmt.body);
        break;
    case STMT_FOREACH:
        c->foreach.keys = clone_keys(arena, st->foreach.keys);
        c->foreach.array = sema_clone_expr(arena, st->foreach.array);
        c->foreach.slice = clone_list(arena, st->foreach.slice);
        c->foreach.limit = sema_clone_expr(arena, st->foreach.limit);
        c->foreach.body = sema_clone_stmt(arena, st->foreach.body);
        c->foreach.value_symbol = NULL;
        break;
    case STMT_TRY:
        c->try_stmt.body = sema_clone_stmt(arena, st->try_stmt.body);
        c->try_stmt.catch_body = sema_clone_stmt(arena, st->try_stmt.catch_body);
        c->try_stmt.catch_symbol = NULL;
        break;
    }
    return c;
}

struct stmt *sema_clone_stmt(struct arena *arena, const struct stmt *list)
{
    struct stmt *head = NULL, **tail = &head;
    for (const struct stmt *st = list; st; st = st->next) {
        *tail = clone_one(arena, st);
        tail = &(*tail)->next;
    }
    return head;
}
