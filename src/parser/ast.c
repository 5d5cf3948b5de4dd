#include "parser/ast.h"

#include "base/arena.h"

struct expr *ast_expr(struct arena *arena, enum expr_kind kind, struct span span)
{
    struct expr *e = ARENA_NEW(arena, struct expr);
    e->kind = kind;
    e->span = span;
    return e;
}

struct stmt *ast_stmt(struct arena *arena, enum stmt_kind kind, struct span span)
{
    struct stmt *s = ARENA_NEW(arena, struct stmt);
    s->kind = kind;
    s->span = span;
    return s;
}

struct decl *ast_decl(struct arena *arena, enum decl_kind kind, struct span span)
{
    struct decl *d = ARENA_NEW(arena, struct decl);
    d->kind = kind;
    d->span = span;
    return d;
}

void *ast_list_append(void *head, void *item, size_t next_offset)
{
    if (!head)
        return item;
    char *node = head;
    for (;;) {
        void **next = (void **)(node + next_offset);
        if (!*next) {
            *next = item;
            return head;
        }
        node = *next;
    }
}

static int child_expr(struct expr *e, const struct ast_visitor *v)
{
    return e && v->expr ? v->expr(e, v->ctx) : 0;
}

static int child_exprs(struct expr *list, const struct ast_visitor *v)
{
    for (struct expr *e = list; e; e = e->next) {
        int stop = child_expr(e, v);
        if (stop)
            return stop;
    }
    return 0;
}

static int child_components(struct component *c, const struct ast_visitor *v)
{
    for (; c; c = c->next) {
        int stop = child_expr(c->index, v);
        if (stop)
            return stop;
    }
    return 0;
}

int ast_stmt_list(struct stmt *list, const struct ast_visitor *v)
{
    for (struct stmt *st = list; st && v->stmt; st = st->next) {
        int stop = v->stmt(st, v->ctx);
        if (stop)
            return stop;
    }
    return 0;
}

int ast_expr_children(struct expr *e, const struct ast_visitor *v)
{
    int stop = 0;
    /* no default: -Wswitch (an error here) names a new kind left out */
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_IDENT: case EXPR_REGISTER:
        return 0;
    case EXPR_TARGET: return child_components(e->target.components, v);
    case EXPR_UNARY: return child_expr(e->unary.operand, v);
    case EXPR_BINARY: return (stop = child_expr(e->binary.lhs, v)) ? stop : child_expr(e->binary.rhs, v);
    case EXPR_ASSIGN: return (stop = child_expr(e->assign.lhs, v)) ? stop : child_expr(e->assign.rhs, v);
    case EXPR_AGGREGATE:
        return (stop = child_expr(e->aggregate.lhs, v)) ? stop : child_expr(e->aggregate.rhs, v);
    case EXPR_INCDEC: return child_expr(e->incdec.operand, v);
    case EXPR_TERNARY:
        if ((stop = child_expr(e->ternary.cond, v)) || (stop = child_expr(e->ternary.then_expr, v)))
            return stop;
        return child_expr(e->ternary.else_expr, v);
    case EXPR_CALL: return child_exprs(e->call.args, v);
    case EXPR_INDEX: return (stop = child_expr(e->index.array, v)) ? stop : child_exprs(e->index.indices, v);
    case EXPR_IN: return (stop = child_exprs(e->in.keys, v)) ? stop : child_expr(e->in.array, v);
    case EXPR_STAT: return (stop = child_expr(e->stat.operand, v)) ? stop : child_exprs(e->stat.args, v);
    case EXPR_HIST_BUCKET:
        return (stop = child_expr(e->hist_bucket.hist, v)) ? stop : child_expr(e->hist_bucket.bucket, v);
    case EXPR_ENTRY: case EXPR_DEFINED: return child_expr(e->unary_at.operand, v);
    case EXPR_CAST:
        return (stop = child_expr(e->cast.address, v)) ? stop : child_components(e->cast.components, v);
    case EXPR_VAR: return child_components(e->var_at.components, v);
    case EXPR_AUTOCAST:
        return (stop = child_expr(e->autocast.operand, v)) ? stop : child_components(e->autocast.components, v);
    case EXPR_USER_READ: return child_expr(e->user_read.address, v);
    case EXPR_CTX_READ: return child_expr(e->ctx_read.address, v);
    }
    return 0;
}

int ast_stmt_children(struct stmt *st, const struct ast_visitor *v)
{
    int stop = 0;
    /* no default: -Wswitch (an error here) names a new kind left out */
    switch (st->kind) {
    case STMT_EMPTY: case STMT_BREAK: case STMT_CONTINUE: case STMT_NEXT: case STMT_EMBEDDED:
        return 0;
    case STMT_BLOCK: return ast_stmt_list(st->block.body, v);
    case STMT_EXPR: case STMT_RETURN: case STMT_DELETE: return child_expr(st->expr, v);
    case STMT_IF:
        if ((stop = child_expr(st->if_stmt.cond, v)) || (stop = ast_stmt_list(st->if_stmt.then_stmt, v)))
            return stop;
        return ast_stmt_list(st->if_stmt.else_stmt, v);
    case STMT_WHILE:
        return (stop = child_expr(st->while_stmt.cond, v)) ? stop : ast_stmt_list(st->while_stmt.body, v);
    case STMT_FOR:
        if ((stop = child_expr(st->for_stmt.init, v)) || (stop = child_expr(st->for_stmt.cond, v)) ||
            (stop = child_expr(st->for_stmt.step, v)))
            return stop;
        return ast_stmt_list(st->for_stmt.body, v);
    case STMT_FOREACH:
        if ((stop = child_expr(st->foreach.array, v)) || (stop = child_exprs(st->foreach.slice, v)) ||
            (stop = child_expr(st->foreach.limit, v)))
            return stop;
        return ast_stmt_list(st->foreach.body, v);
    case STMT_TRY:
        return (stop = ast_stmt_list(st->try_stmt.body, v)) ? stop : ast_stmt_list(st->try_stmt.catch_body, v);
    }
    return 0;
}

struct visit_all { ast_expr_visitor visit; void *data; };

static int visit_expr(struct expr *e, void *ctx)
{
    struct visit_all *all = ctx;
    all->visit(e, all->data);
    return ast_expr_children(e, &(struct ast_visitor){visit_expr, NULL, ctx});
}

static int visit_stmt(struct stmt *st, void *ctx)
{
    return ast_stmt_children(st, &(struct ast_visitor){visit_expr, visit_stmt, ctx});
}

void ast_visit_exprs(struct stmt *list, ast_expr_visitor visit, void *data)
{
    struct visit_all all = {visit, data};
    ast_stmt_list(list, &(struct ast_visitor){NULL, visit_stmt, &all});
}

void ast_visit_expr(struct expr *e, ast_expr_visitor visit, void *data)
{
    struct visit_all all = {visit, data};
    if (e)
        visit_expr(e, &all);
}

const char *binary_op_text(enum binary_op op)
{
    static const char *const text[] = {
        [BINARY_ADD] = "+", [BINARY_SUB] = "-", [BINARY_MUL] = "*", [BINARY_DIV] = "/",
        [BINARY_MOD] = "%", [BINARY_SHL] = "<<", [BINARY_SHR] = ">>", [BINARY_BITAND] = "&",
        [BINARY_BITOR] = "|", [BINARY_BITXOR] = "^", [BINARY_LOGAND] = "&&", [BINARY_LOGOR] = "||",
        [BINARY_LT] = "<", [BINARY_GT] = ">", [BINARY_LE] = "<=", [BINARY_GE] = ">=",
        [BINARY_EQ] = "==", [BINARY_NE] = "!=", [BINARY_CONCAT] = ".",
        [BINARY_REGEX_MATCH] = "=~", [BINARY_REGEX_NOMATCH] = "!~",
    };
    return text[op];
}

const char *assign_op_text(enum assign_op op)
{
    static const char *const text[] = {
        [ASSIGN_SET] = "=", [ASSIGN_ADD] = "+=", [ASSIGN_SUB] = "-=", [ASSIGN_MUL] = "*=",
        [ASSIGN_DIV] = "/=", [ASSIGN_MOD] = "%=", [ASSIGN_SHL] = "<<=", [ASSIGN_SHR] = ">>=",
        [ASSIGN_BITAND] = "&=", [ASSIGN_BITOR] = "|=", [ASSIGN_BITXOR] = "^=", [ASSIGN_CONCAT] = ".=",
    };
    return text[op];
}

const char *unary_op_text(enum unary_op op)
{
    static const char *const text[] = {
        [UNARY_NEG] = "-", [UNARY_PLUS] = "+", [UNARY_NOT] = "!", [UNARY_BITNOT] = "~",
    };
    return text[op];
}

/* An integer literal, or one negated: the form literal parameters take. */
int ast_literal_int(const struct expr *e, int64_t *out)
{
    if (e && e->kind == EXPR_INT) {
        *out = e->int_value;
        return 1;
    }
    if (e && e->kind == EXPR_UNARY && e->unary.op == UNARY_NEG && e->unary.operand->kind == EXPR_INT) {
        *out = -e->unary.operand->int_value;
        return 1;
    }
    return 0;
}

const char *stat_op_name(enum stat_op op)
{
    static const char *const text[] = {
        [STAT_COUNT] = "count", [STAT_SUM] = "sum", [STAT_MIN] = "min", [STAT_MAX] = "max",
        [STAT_AVG] = "avg", [STAT_VARIANCE] = "variance", [STAT_HIST_LOG] = "hist_log",
        [STAT_HIST_LINEAR] = "hist_linear",
    };
    return text[op];
}

const char *value_type_name(enum value_type type)
{
    switch (type) {
    case TYPE_LONG: return "long";
    case TYPE_STRING: return "string";
    case TYPE_STATS: return "stats";
    case TYPE_VOID: return "void";
    case TYPE_UNKNOWN: break;
    }
    return "unknown";
}
