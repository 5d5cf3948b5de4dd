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

static void visit_expr(struct expr *e, ast_expr_visitor visit, void *data);

static void visit_list(struct expr *list, ast_expr_visitor visit, void *data)
{
    for (struct expr *e = list; e; e = e->next)
        visit_expr(e, visit, data);
}

static void visit_components(struct component *c, ast_expr_visitor visit, void *data)
{
    for (; c; c = c->next)
        visit_expr(c->index, visit, data);
}

static void visit_expr(struct expr *e, ast_expr_visitor visit, void *data)
{
    if (!e)
        return;
    visit(e, data);
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_IDENT: case EXPR_REGISTER: break;
    case EXPR_TARGET: visit_components(e->target.components, visit, data); break;
    case EXPR_UNARY: visit_expr(e->unary.operand, visit, data); break;
    case EXPR_BINARY: visit_expr(e->binary.lhs, visit, data); visit_expr(e->binary.rhs, visit, data); break;
    case EXPR_ASSIGN: visit_expr(e->assign.lhs, visit, data); visit_expr(e->assign.rhs, visit, data); break;
    case EXPR_AGGREGATE:
        visit_expr(e->aggregate.lhs, visit, data);
        visit_expr(e->aggregate.rhs, visit, data);
        break;
    case EXPR_INCDEC: visit_expr(e->incdec.operand, visit, data); break;
    case EXPR_TERNARY:
        visit_expr(e->ternary.cond, visit, data);
        visit_expr(e->ternary.then_expr, visit, data);
        visit_expr(e->ternary.else_expr, visit, data);
        break;
    case EXPR_CALL: visit_list(e->call.args, visit, data); break;
    case EXPR_INDEX: visit_expr(e->index.array, visit, data); visit_list(e->index.indices, visit, data); break;
    case EXPR_IN: visit_list(e->in.keys, visit, data); visit_expr(e->in.array, visit, data); break;
    case EXPR_STAT: visit_expr(e->stat.operand, visit, data); visit_list(e->stat.args, visit, data); break;
    case EXPR_HIST_BUCKET:
        visit_expr(e->hist_bucket.hist, visit, data);
        visit_expr(e->hist_bucket.bucket, visit, data);
        break;
    case EXPR_ENTRY: case EXPR_DEFINED: visit_expr(e->unary_at.operand, visit, data); break;
    case EXPR_CAST:
        visit_expr(e->cast.address, visit, data);
        visit_components(e->cast.components, visit, data);
        break;
    case EXPR_VAR: visit_components(e->var_at.components, visit, data); break;
    case EXPR_USER_READ: visit_expr(e->user_read.address, visit, data); break;
    case EXPR_CTX_READ: visit_expr(e->ctx_read.address, visit, data); break;
    }
}

void ast_visit_exprs(struct stmt *list, ast_expr_visitor visit, void *data)
{
    for (struct stmt *st = list; st; st = st->next) {
        switch (st->kind) {
        case STMT_EMPTY: case STMT_BREAK: case STMT_CONTINUE: case STMT_NEXT: case STMT_EMBEDDED: break;
        case STMT_BLOCK: ast_visit_exprs(st->block.body, visit, data); break;
        case STMT_EXPR: case STMT_RETURN: case STMT_DELETE: visit_expr(st->expr, visit, data); break;
        case STMT_IF:
            visit_expr(st->if_stmt.cond, visit, data);
            ast_visit_exprs(st->if_stmt.then_stmt, visit, data);
            ast_visit_exprs(st->if_stmt.else_stmt, visit, data);
            break;
        case STMT_WHILE:
            visit_expr(st->while_stmt.cond, visit, data);
            ast_visit_exprs(st->while_stmt.body, visit, data);
            break;
        case STMT_FOR:
            visit_expr(st->for_stmt.init, visit, data);
            visit_expr(st->for_stmt.cond, visit, data);
            visit_expr(st->for_stmt.step, visit, data);
            ast_visit_exprs(st->for_stmt.body, visit, data);
            break;
        case STMT_FOREACH:
            visit_expr(st->foreach.array, visit, data);
            visit_list(st->foreach.slice, visit, data);
            visit_expr(st->foreach.limit, visit, data);
            ast_visit_exprs(st->foreach.body, visit, data);
            break;
        case STMT_TRY:
            ast_visit_exprs(st->try_stmt.body, visit, data);
            ast_visit_exprs(st->try_stmt.catch_body, visit, data);
            break;
        }
    }
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
