/* The abstract syntax tree: tagged unions with a kind enum; each enum line
 * says which union member is live. Lists are singly linked through `next`.
 * Everything lives in the compilation's arena. Sema fills the annotation
 * fields (marked "sema:"); the parser leaves them zero. */
#ifndef TAP_PARSER_AST_H
#define TAP_PARSER_AST_H

#include <stddef.h>
#include <stdint.h>

#include "base/source.h"

struct arena;
struct symbol;
struct function_decl;

/* Value types of the language. */
enum value_type {
    TYPE_UNKNOWN,
    TYPE_LONG,
    TYPE_STRING,
    TYPE_STATS,          /* aggregate: target of <<< */
    TYPE_VOID,           /* function with no return value */
};

enum unary_op { UNARY_NEG, UNARY_PLUS, UNARY_NOT, UNARY_BITNOT };

enum binary_op {
    BINARY_ADD, BINARY_SUB, BINARY_MUL, BINARY_DIV, BINARY_MOD,
    BINARY_SHL, BINARY_SHR, BINARY_BITAND, BINARY_BITOR, BINARY_BITXOR,
    BINARY_LOGAND, BINARY_LOGOR,
    BINARY_LT, BINARY_GT, BINARY_LE, BINARY_GE, BINARY_EQ, BINARY_NE,
    BINARY_CONCAT,                       /* . */
    BINARY_REGEX_MATCH, BINARY_REGEX_NOMATCH,   /* =~ !~ (rhs is a string literal) */
};

/* `x = v` and compound forms; ASSIGN_CONCAT is `.=`. */
enum assign_op {
    ASSIGN_SET, ASSIGN_ADD, ASSIGN_SUB, ASSIGN_MUL, ASSIGN_DIV, ASSIGN_MOD,
    ASSIGN_SHL, ASSIGN_SHR, ASSIGN_BITAND, ASSIGN_BITOR, ASSIGN_BITXOR, ASSIGN_CONCAT,
};

enum stat_op {
    STAT_COUNT, STAT_SUM, STAT_MIN, STAT_MAX, STAT_AVG, STAT_VARIANCE,
    STAT_HIST_LOG, STAT_HIST_LINEAR,
};

/* One step after a target variable, @cast or @var: ->name, .name or [index]. */
enum component_kind { COMPONENT_MEMBER, COMPONENT_INDEX };
struct component {
    enum component_kind kind;
    struct span span;
    const char *member;          /* COMPONENT_MEMBER */
    struct expr *index;          /* COMPONENT_INDEX */
    struct component *next;
};

enum expr_kind {
    EXPR_INT,            /* int_value */
    EXPR_STRING,         /* string.value, string.len */
    EXPR_IDENT,          /* ident.name: a scalar local/global/param, or an array name as an operand */
    EXPR_TARGET,         /* target: $name, $$vars/$$parms/$$locals/$$return ($$ kept in name) */
    EXPR_UNARY,          /* unary */
    EXPR_BINARY,         /* binary */
    EXPR_ASSIGN,         /* assign: lhs op= rhs */
    EXPR_AGGREGATE,      /* aggregate: lhs <<< rhs */
    EXPR_INCDEC,         /* incdec: ++x, x--, ... */
    EXPR_TERNARY,        /* ternary */
    EXPR_CALL,           /* call: name(args); also print/printf/sprintf... */
    EXPR_INDEX,          /* index: array[indices...] */
    EXPR_IN,             /* in: [keys...] in array */
    EXPR_STAT,           /* stat: @count(s), @hist_log(s), @hist_linear(s, a, b, c), @variance(s, shift) */
    EXPR_HIST_BUCKET,    /* hist_bucket: @hist_log(s)[bucket] */
    EXPR_ENTRY,          /* unary_at.operand: @entry(expr) */
    EXPR_DEFINED,        /* unary_at.operand: @defined(expr) */
    EXPR_CAST,           /* cast: @cast(addr, "type"[, "module"]) components */
    EXPR_VAR,            /* var_at: @var("name"[, "module"]) components */
    EXPR_AUTOCAST,       /* autocast: operand components, `p->f`, `f()->g[2]`, `&(x)->f`: the
                          * operand's C type is known from where its value came (sema/autocast.c) */
    /* Generic reads that sema lowers target variables into (never parsed): */
    EXPR_REGISTER,       /* reg.number: a DWARF register of the probed thread, as a long */
    EXPR_USER_READ,      /* user_read: size bytes at address in the traced process */
    EXPR_CTX_READ,       /* ctx_read: a field of the probe's context record (tracepoint fields) */
};

/* EXPR_REGISTER numbers past the DWARF registers (sema/dwarf.h makes them,
 * codegen/probed_thread.c reads them). The load bias of the probed binary (runtime
 * address - file address), for DW_OP_addr in PIE and libraries: */
#define DWARF_REG_LOAD_BIAS 1000
/* In a .return probe, the value of the k-th @entry expression at the call. */
#define DWARF_REG_ENTRY_SNAPSHOT 2000
#define MAX_ENTRY_SNAPSHOTS 16
/* The probed address as the process sees it (uaddr()). */
#define DWARF_REG_IP 16

/* How an EXPR_CTX_READ turns record bytes into a value. */
enum ctx_read_kind {
    CTX_READ_LONG,       /* size bytes at offset, sign- or zero-extended */
    CTX_READ_CHARS,      /* char[size] at offset: a string */
    CTX_READ_DATA_LOC,   /* __data_loc: u32 at offset, low 16 bits locate the string in the record */
    CTX_READ_KERNEL_LONG,    /* size bytes of kernel memory at address (an expression) */
    CTX_READ_KERNEL_CHARS,   /* char[size] of kernel memory at address: a string */
    CTX_READ_FUNC_ARG,   /* a trampoline's argument offset / 8 through bpf_get_func_arg: a pointer
                          * type the verifier will not load from ctx (6.1: not to a struct, int, void) */
};

/* What a call's name resolves to (set once by sema/resolve.c). */
enum call_target {
    CALL_UNRESOLVED,
    CALL_BUILTIN,        /* call.builtin */
    CALL_FUNCTION,       /* call.function: a script or tapset function */
};

struct builtin;
struct c_type;

struct expr {
    enum expr_kind kind;
    struct span span;            /* the token that names the node (operator, identifier, literal) */
    struct expr *next;           /* in argument and index lists */
    /* sema: */
    enum value_type type;
    struct symbol *symbol;       /* EXPR_IDENT, EXPR_INDEX, EXPR_IN, EXPR_AGGREGATE target... */
    const struct c_type *ctype;  /* a lowered target read: the C type of its value (autocast) */
    union {
        int64_t int_value;
        struct { const char *value; int len; } string;
        struct { const char *name; } ident;
        struct {
            const char *name;    /* without the leading '$'; "$vars" for $$vars */
            struct component *components;
            int pretty;          /* 0, 1 for `$v$`, 2 for `$v$$` */
            int address_of;      /* &$v->f */
        } target;
        struct { enum unary_op op; struct expr *operand; } unary;
        struct { enum binary_op op; struct expr *lhs, *rhs; } binary;
        struct { enum assign_op op; struct expr *lhs, *rhs; } assign;
        struct { struct expr *lhs, *rhs; } aggregate;
        struct { int increment; int prefix; struct expr *operand; } incdec;
        struct { struct expr *cond, *then_expr, *else_expr; } ternary;
        struct {
            const char *name;
            struct expr *args;
            int arg_count;
            /* sema: what resolution bound the name to (CALL_UNRESOLVED after an error) */
            enum call_target target;
            const struct builtin *builtin;        /* CALL_BUILTIN */
            struct function_decl *function;       /* CALL_FUNCTION: the overload chosen */
        } call;
        struct { struct expr *array; struct expr *indices; int index_count; } index;
        /* keys may contain NULL-free wildcard markers: see EXPR_IN docs in parser */
        struct { struct expr *keys; int key_count; struct expr *array; } in;
        struct { enum stat_op op; struct expr *operand; struct expr *args; int arg_count; } stat;
        struct { struct expr *hist; struct expr *bucket; } hist_bucket;
        struct { struct expr *operand; } unary_at;
        struct {
            struct expr *address;
            const char *type_name;    /* "struct foo" */
            const char *module;       /* NULL when absent */
            struct component *components;
            int pretty;
            int address_of;
        } cast;
        struct { int number; } reg;
        struct {
            struct expr *address;
            int size;                 /* 1, 2, 4 or 8 */
            int is_signed;            /* sign-extend to 64 bits */
            int kernel;               /* kernel memory (vmlinux DWARF), not the process's */
        } user_read;
        struct {
            enum ctx_read_kind kind;
            int offset;               /* bytes into the record */
            int size;                 /* CTX_READ_LONG: 1, 2, 4 or 8; CTX_READ_CHARS: array length */
            int is_signed;
            struct expr *address;     /* CTX_READ_KERNEL_*: typed TYPE_LONG, already lowered */
        } ctx_read;
        struct {
            const char *name;         /* "name" or "name@file.c" */
            const char *module;
            struct component *components;
            int pretty;
            int address_of;
        } var_at;
        struct {
            struct expr *operand;
            struct component *components;
            int pretty;
            int address_of;
        } autocast;
    };
};

/* One key of a foreach or slice: an expression, or `*` in a slice. */
struct foreach_key {
    const char *name;            /* loop variable name */
    struct span span;
    int sort;                    /* 0, +1 ascending, -1 descending */
    struct foreach_key *next;
    struct symbol *symbol;       /* sema: */
};

enum stmt_kind {
    STMT_EMPTY,          /* ; */
    STMT_BLOCK,          /* block.body */
    STMT_EXPR,           /* expr */
    STMT_IF,             /* if_stmt */
    STMT_WHILE,          /* while_stmt */
    STMT_FOR,            /* for_stmt: init/cond/step may be NULL */
    STMT_FOREACH,        /* foreach */
    STMT_BREAK,          /* (none) */
    STMT_CONTINUE,       /* (none) */
    STMT_NEXT,           /* (none) */
    STMT_RETURN,         /* expr (may be NULL) */
    STMT_DELETE,         /* expr: EXPR_INDEX (one element), EXPR_IDENT (array or scalar) */
    STMT_TRY,            /* try_stmt */
    STMT_EMBEDDED,       /* embedded.code: %{ ... %} (refused by sema) */
};

struct stmt {
    enum stmt_kind kind;
    struct span span;            /* the statement's first token */
    struct stmt *next;
    union {
        struct { struct stmt *body; } block;
        struct expr *expr;
        struct { struct expr *cond; struct stmt *then_stmt, *else_stmt; } if_stmt;
        struct { struct expr *cond; struct stmt *body; } while_stmt;
        struct { struct expr *init, *cond, *step; struct stmt *body; } for_stmt;
        struct {
            const char *value_name;      /* `v = [k] in a`: "v"; NULL when absent */
            struct span value_span;
            int value_sort;              /* `a+`/`a-`/`v+` sort by value: +1/-1, else 0 */
            struct foreach_key *keys;    /* at least one */
            int key_count;
            int keys_bracketed;          /* written as [k1, k2] */
            struct expr *array;          /* EXPR_IDENT naming the array */
            struct expr *slice;          /* index list; an EXPR_IDENT named "*" is a wildcard; NULL when none */
            int slice_count;
            enum stat_op sort_stat;      /* extractor for statistics arrays (default STAT_COUNT) */
            int has_sort_stat;
            struct expr *limit;          /* NULL when absent */
            struct stmt *body;
            struct symbol *value_symbol; /* sema: */
        } foreach;
        struct {
            struct stmt *body;
            const char *catch_var;       /* NULL when `catch { }` */
            struct span catch_span;
            struct stmt *catch_body;
            struct symbol *catch_symbol; /* sema: */
        } try_stmt;
        struct { const char *code; } embedded;
    };
};

/* A probe point: dotted components, each optionally with an argument. */
enum probe_arg_kind { PROBE_ARG_NONE, PROBE_ARG_INT, PROBE_ARG_STRING };
struct probe_component {
    const char *name;            /* may contain wildcards: "*", "sys_*", "**" */
    struct span span;
    enum probe_arg_kind arg_kind;
    int64_t arg_int;
    const char *arg_string;
    struct probe_component *next;
};

struct probe_point {
    struct probe_component *components;
    struct span span;
    int optional;                /* `?` */
    int sufficient;              /* `!` (implies optional) */
    struct expr *condition;      /* `if (expr)`, NULL when absent */
    struct probe_point *next;
};

enum param_type_decl { PARAM_TYPE_NONE, PARAM_TYPE_LONG, PARAM_TYPE_STRING };

struct param {
    const char *name;
    struct span span;
    enum param_type_decl declared;
    struct param *next;
    struct symbol *symbol;       /* sema: */
};

enum decl_kind {
    DECL_GLOBAL,         /* global */
    DECL_FUNCTION,       /* function */
    DECL_PROBE,          /* probe */
    DECL_ALIAS,          /* alias */
    DECL_EMBEDDED,       /* embedded.code: top-level %{ %} */
};

struct decl {
    enum decl_kind kind;
    struct span span;            /* the name (global, function, alias) or `probe` keyword */
    struct decl *next;
    int is_private;
    union {
        struct {
            const char *name;
            struct expr *init;           /* literal initializer or NULL */
            int is_array;                /* declared with [N] or % */
            int64_t max_entries;         /* [N]; 0 when not given */
            int wrap;                    /* a%[N] or a% */
            struct symbol *symbol;       /* sema: */
        } global;
        struct {
            const char *name;
            enum param_type_decl declared_return;
            struct param *params;
            int param_count;
            struct stmt *body;           /* STMT_BLOCK, or STMT_EMBEDDED for %{ %} bodies */
            struct function_decl *sema;  /* sema: */
        } function;
        struct {
            struct probe_point *points;
            struct stmt *body;           /* STMT_BLOCK */
        } probe;
        struct {
            struct probe_point *names;   /* the alias names being defined: `probe a.b, c = ...` */
            int is_epilogue;             /* `+=` */
            struct probe_point *points;  /* what it expands to */
            struct stmt *body;           /* prologue or epilogue */
        } alias;
        struct { const char *code; } embedded;
    };
};

struct ast {
    struct decl *decls;
    const struct source_file *file;
};

/* Builders used by the parser's actions; all allocate in `arena`. */
struct expr *ast_expr(struct arena *arena, enum expr_kind kind, struct span span);
struct stmt *ast_stmt(struct arena *arena, enum stmt_kind kind, struct span span);
struct decl *ast_decl(struct arena *arena, enum decl_kind kind, struct span span);

/* Appends `item` to a `next`-linked list and returns the head. */
#define AST_APPEND(type, head, item) ((type *)ast_list_append((head), (item), offsetof(type, next)))
void *ast_list_append(void *head, void *item, size_t next_offset);

/* The one place that knows each node's children. ast_expr_children and
 * ast_stmt_children call the visitor on the direct children of one node, in
 * source order, NULL ones skipped: an expression's operands (argument and
 * index lists, component indices and the address of a read included); a
 * statement's expressions and each statement of its bodies. A callback
 * returns nonzero to stop the walk, and that value is returned; a NULL
 * callback skips that sort of child. Read-only walkers recurse through these
 * instead of switching over kinds themselves. */
struct ast_visitor {
    int (*expr)(struct expr *e, void *ctx);
    int (*stmt)(struct stmt *st, void *ctx);
    void *ctx;
};
int ast_expr_children(struct expr *e, const struct ast_visitor *v);
int ast_stmt_children(struct stmt *st, const struct ast_visitor *v);
int ast_stmt_list(struct stmt *list, const struct ast_visitor *v);   /* v->stmt on each of a body */

/* Calls visit on every expression in a statement list, the statements and
 * expressions inside it included, parents before their operands. */
typedef void (*ast_expr_visitor)(struct expr *e, void *data);
void ast_visit_exprs(struct stmt *list, ast_expr_visitor visit, void *data);
void ast_visit_expr(struct expr *e, ast_expr_visitor visit, void *data);   /* e and its operands; e may be NULL */

const char *binary_op_text(enum binary_op op);
const char *assign_op_text(enum assign_op op);
const char *unary_op_text(enum unary_op op);
int ast_literal_int(const struct expr *e, int64_t *out);   /* 5 or -5 */
const char *stat_op_name(enum stat_op op);       /* "count", "hist_log", ... */
const char *value_type_name(enum value_type type);

#endif
