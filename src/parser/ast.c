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
