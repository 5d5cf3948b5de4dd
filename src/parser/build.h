/* The parser's context and the small builders its actions call: each action
 * in parser.y is one call into this file, which fills the AST of ast.h. */
#ifndef TAP_PARSER_BUILD_H
#define TAP_PARSER_BUILD_H

#include "lexer/token.h"
#include "parser/ast.h"

struct arena;
struct diags;

struct parser_ctx {
    struct arena *arena;
    struct diags *diags;
    struct ast *ast;
    const struct token *tokens;     /* preprocessed, ends with EOF */
    int count, pos;
    int errors;
};

/* Expressions. `op` is the operator token; its span names the node. */
struct expr *build_int(struct parser_ctx *ctx, const struct token *tok);
struct expr *build_string(struct parser_ctx *ctx, const struct token *tok);
struct expr *build_ident(struct parser_ctx *ctx, const struct token *tok);
struct expr *build_wildcard(struct parser_ctx *ctx, const struct token *tok);
struct expr *build_unary(struct parser_ctx *ctx, const struct token *op, struct expr *operand);
struct expr *build_binary(struct parser_ctx *ctx, const struct token *op, struct expr *lhs, struct expr *rhs);
struct expr *build_assign(struct parser_ctx *ctx, const struct token *op, struct expr *lhs, struct expr *rhs);
struct expr *build_incdec(struct parser_ctx *ctx, const struct token *op, int prefix, struct expr *operand);
struct expr *build_ternary(struct parser_ctx *ctx, const struct token *op, struct expr *cond,
                           struct expr *then_expr, struct expr *else_expr);
struct expr *build_call(struct parser_ctx *ctx, const struct token *name, struct expr *args);
struct expr *build_index(struct parser_ctx *ctx, const struct token *name, struct expr *indices);
struct expr *build_in(struct parser_ctx *ctx, const struct token *op, struct expr *keys, const struct token *array);
struct expr *build_stat(struct parser_ctx *ctx, const struct token *op, struct expr *args);
struct expr *build_hist_bucket(struct parser_ctx *ctx, struct expr *hist, struct expr *bucket);
struct expr *build_at_operand(struct parser_ctx *ctx, const struct token *op, enum expr_kind kind, struct expr *operand);
struct expr *build_target(struct parser_ctx *ctx, const struct token *tok);
struct expr *build_cast(struct parser_ctx *ctx, const struct token *op, struct expr *address,
                        const struct token *type, const struct token *module);
struct expr *build_var(struct parser_ctx *ctx, const struct token *op, const struct token *name,
                       const struct token *module);
struct expr *build_autocast(struct parser_ctx *ctx, struct expr *operand, const struct token *op);
struct expr *build_member(struct parser_ctx *ctx, struct expr *target, const struct token *member);
struct expr *build_subscript(struct parser_ctx *ctx, struct expr *target, const struct token *bracket,
                             struct expr *index);
struct expr *build_pretty(struct parser_ctx *ctx, struct expr *target, const struct token *pretty);
struct expr *build_address_of(struct parser_ctx *ctx, const struct token *amp, struct expr *target);
struct expr *build_literal(struct parser_ctx *ctx, const struct token *sign, const struct token *tok);

/* Statements; `first` is the statement's first token. */
struct stmt *build_stmt(struct parser_ctx *ctx, enum stmt_kind kind, struct span first);
struct stmt *build_expr_stmt(struct parser_ctx *ctx, enum stmt_kind kind, struct span first, struct expr *expr);
struct stmt *build_block(struct parser_ctx *ctx, struct span first, struct stmt *body);
struct stmt *build_if(struct parser_ctx *ctx, struct span first, struct expr *cond,
                      struct stmt *then_stmt, struct stmt *else_stmt);
struct stmt *build_while(struct parser_ctx *ctx, struct span first, struct expr *cond, struct stmt *body);
struct stmt *build_for(struct parser_ctx *ctx, struct span first, struct expr *init,
                       struct expr *cond, struct expr *step, struct stmt *body);
struct stmt *build_try(struct parser_ctx *ctx, struct span first, struct stmt *body,
                       const struct token *catch_var, struct stmt *catch_body);
struct stmt *build_embedded_stmt(struct parser_ctx *ctx, const struct token *tok);

/* foreach: keys and the optional value variable first, then the rest. */
struct foreach_key *build_foreach_key(struct parser_ctx *ctx, const struct token *name, const struct token *sort);
struct stmt *build_foreach_keys(struct parser_ctx *ctx, struct span first, struct foreach_key *keys, int bracketed);
struct stmt *build_foreach_value(struct parser_ctx *ctx, struct stmt *loop, const struct token *value,
                                 const struct token *sort);
struct stmt *build_foreach(struct parser_ctx *ctx, struct span first, struct stmt *loop,
                           const struct token *array, struct expr *slice, const struct token *stat,
                           const struct token *sort, struct expr *limit, struct stmt *body);

struct stmt *build_foreach_hist(struct parser_ctx *ctx, struct span first, struct stmt *loop,
                                struct expr *hist, struct expr *limit, struct stmt *body);

/* Declarations: each is appended to the AST as it is completed. */
struct decl *build_global(struct parser_ctx *ctx, const struct token *name, struct expr *init,
                          const struct token *size, int is_array, int wrap);
void build_private(struct decl *first);
struct param *build_param(struct parser_ctx *ctx, const struct token *name, enum param_type_decl type);
struct decl *build_function(struct parser_ctx *ctx, const struct token *name, enum param_type_decl ret,
                            struct param *params, struct stmt *body);
struct probe_component *build_probe_component(struct parser_ctx *ctx, const struct token *name,
                                              const struct token *sign, const struct token *arg);
struct probe_point *build_probe_point(struct parser_ctx *ctx, struct probe_component *component);
struct probe_point *build_probe_product(struct parser_ctx *ctx, struct probe_point *prefixes,
                                        struct probe_point *suffixes);
struct probe_point *build_probe_flags(struct parser_ctx *ctx, struct probe_point *points,
                                      const struct token *flag, struct expr *condition);
struct decl *build_probe(struct parser_ctx *ctx, const struct token *kw, struct probe_point *points,
                         struct stmt *body);
struct decl *build_alias(struct parser_ctx *ctx, const struct token *kw, struct probe_point *names,
                         const struct token *op, struct probe_point *points, struct stmt *body);
struct decl *build_embedded_decl(struct parser_ctx *ctx, const struct token *tok);

#endif
