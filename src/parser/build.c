#include "parser/build.h"

#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "parser.h"

static int list_count(const struct expr *list)
{
    int n = 0;
    for (; list; list = list->next)
        n++;
    return n;
}

static void build_error(struct parser_ctx *ctx, struct span span, const char *msg)
{
    diag_parse_error(ctx->diags, span, "%s", msg);
    ctx->errors++;
}

struct expr *build_int(struct parser_ctx *ctx, const struct token *tok)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_INT, tok->span);
    e->int_value = tok->value;
    return e;
}

struct expr *build_string(struct parser_ctx *ctx, const struct token *tok)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_STRING, tok->span);
    e->string.value = tok->text;
    e->string.len = tok->len;
    return e;
}

struct expr *build_ident(struct parser_ctx *ctx, const struct token *tok)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_IDENT, tok->span);
    e->ident.name = tok->text;
    return e;
}

/* `*` in a slice or index list: an EXPR_IDENT named "*". */
struct expr *build_wildcard(struct parser_ctx *ctx, const struct token *tok)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_IDENT, tok->span);
    e->ident.name = "*";
    return e;
}

struct expr *build_unary(struct parser_ctx *ctx, const struct token *op, struct expr *operand)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_UNARY, op->span);
    switch (op->kind) {
    case '-': e->unary.op = UNARY_NEG; break;
    case '+': e->unary.op = UNARY_PLUS; break;
    case '!': e->unary.op = UNARY_NOT; break;
    default: e->unary.op = UNARY_BITNOT; break;
    }
    e->unary.operand = operand;
    return e;
}

static enum binary_op binary_op_of(int kind)
{
    switch (kind) {
    case '+': return BINARY_ADD;
    case '-': return BINARY_SUB;
    case '*': return BINARY_MUL;
    case '/': return BINARY_DIV;
    case '%': return BINARY_MOD;
    case SHL: return BINARY_SHL;
    case SHR: return BINARY_SHR;
    case '&': return BINARY_BITAND;
    case '|': return BINARY_BITOR;
    case '^': return BINARY_BITXOR;
    case ANDAND: return BINARY_LOGAND;
    case OROR: return BINARY_LOGOR;
    case '<': return BINARY_LT;
    case '>': return BINARY_GT;
    case LE: return BINARY_LE;
    case GE: return BINARY_GE;
    case EQ: return BINARY_EQ;
    case NE: return BINARY_NE;
    case '.': return BINARY_CONCAT;
    case REGEX_MATCH: return BINARY_REGEX_MATCH;
    default: return BINARY_REGEX_NOMATCH;
    }
}

struct expr *build_binary(struct parser_ctx *ctx, const struct token *op, struct expr *lhs, struct expr *rhs)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_BINARY, op->span);
    e->binary.op = binary_op_of(op->kind);
    e->binary.lhs = lhs;
    e->binary.rhs = rhs;
    return e;
}

static enum assign_op assign_op_of(int kind)
{
    switch (kind) {
    case ADD_ASSIGN: return ASSIGN_ADD;
    case SUB_ASSIGN: return ASSIGN_SUB;
    case MUL_ASSIGN: return ASSIGN_MUL;
    case DIV_ASSIGN: return ASSIGN_DIV;
    case MOD_ASSIGN: return ASSIGN_MOD;
    case SHL_ASSIGN: return ASSIGN_SHL;
    case SHR_ASSIGN: return ASSIGN_SHR;
    case AND_ASSIGN: return ASSIGN_BITAND;
    case OR_ASSIGN: return ASSIGN_BITOR;
    case XOR_ASSIGN: return ASSIGN_BITXOR;
    case CONCAT_ASSIGN: return ASSIGN_CONCAT;
    default: return ASSIGN_SET;
    }
}

/* `=`, `op=` and `<<<` (EXPR_AGGREGATE); lvalues are checked by sema. */
struct expr *build_assign(struct parser_ctx *ctx, const struct token *op, struct expr *lhs, struct expr *rhs)
{
    if (op->kind == AGGREGATE) {
        struct expr *e = ast_expr(ctx->arena, EXPR_AGGREGATE, op->span);
        e->aggregate.lhs = lhs;
        e->aggregate.rhs = rhs;
        return e;
    }
    struct expr *e = ast_expr(ctx->arena, EXPR_ASSIGN, op->span);
    e->assign.op = assign_op_of(op->kind);
    e->assign.lhs = lhs;
    e->assign.rhs = rhs;
    return e;
}

struct expr *build_incdec(struct parser_ctx *ctx, const struct token *op, int prefix, struct expr *operand)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_INCDEC, op->span);
    e->incdec.increment = op->kind == INC;
    e->incdec.prefix = prefix;
    e->incdec.operand = operand;
    return e;
}

struct expr *build_ternary(struct parser_ctx *ctx, const struct token *op, struct expr *cond,
                           struct expr *then_expr, struct expr *else_expr)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_TERNARY, op->span);
    e->ternary.cond = cond;
    e->ternary.then_expr = then_expr;
    e->ternary.else_expr = else_expr;
    return e;
}

struct expr *build_call(struct parser_ctx *ctx, const struct token *name, struct expr *args)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_CALL, name->span);
    e->call.name = name->text;
    e->call.args = args;
    e->call.arg_count = list_count(args);
    return e;
}

struct expr *build_index(struct parser_ctx *ctx, const struct token *name, struct expr *indices)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_INDEX, name->span);
    e->index.array = build_ident(ctx, name);
    e->index.indices = indices;
    e->index.index_count = list_count(indices);
    return e;
}

struct expr *build_in(struct parser_ctx *ctx, const struct token *op, struct expr *keys, const struct token *array)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_IN, op->span);
    e->in.keys = keys;
    e->in.key_count = list_count(keys);
    e->in.array = build_ident(ctx, array);
    return e;
}

/* @count(s) ... take one operand, @variance(s[, shift]) one or two,
 * @hist_linear(s, start, stop, interval) four. */
struct expr *build_stat(struct parser_ctx *ctx, const struct token *op, struct expr *args)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_STAT, op->span);
    enum stat_op stat = (enum stat_op)op->value;
    int count = list_count(args);
    int min = stat == STAT_HIST_LINEAR ? 4 : 1;
    int max = stat == STAT_HIST_LINEAR ? 4 : stat == STAT_VARIANCE ? 2 : 1;
    if (count < min || count > max) {
        diag_parse_error(ctx->diags, op->span, "%s takes %s %d argument%s", op->text,
                         min == max ? "exactly" : "1 or", max, max == 1 ? "" : "s");
        ctx->errors++;
    }
    e->stat.op = stat;
    e->stat.operand = args;
    e->stat.args = args ? args->next : NULL;
    e->stat.arg_count = count > 0 ? count - 1 : 0;
    if (args)
        args->next = NULL;
    return e;
}

struct expr *build_hist_bucket(struct parser_ctx *ctx, struct expr *hist, struct expr *bucket)
{
    if (hist->stat.op != STAT_HIST_LOG && hist->stat.op != STAT_HIST_LINEAR)
        build_error(ctx, hist->span, "only a histogram (@hist_log, @hist_linear) can be indexed");
    struct expr *e = ast_expr(ctx->arena, EXPR_HIST_BUCKET, hist->span);
    e->hist_bucket.hist = hist;
    e->hist_bucket.bucket = bucket;
    return e;
}

struct expr *build_at_operand(struct parser_ctx *ctx, const struct token *op, enum expr_kind kind,
                              struct expr *operand)
{
    struct expr *e = ast_expr(ctx->arena, kind, op->span);
    e->unary_at.operand = operand;
    return e;
}

/* `$name` keeps its name without the '$'; `$$vars` becomes "$vars". */
struct expr *build_target(struct parser_ctx *ctx, const struct token *tok)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_TARGET, tok->span);
    e->target.name = tok->text + 1;
    return e;
}

struct expr *build_cast(struct parser_ctx *ctx, const struct token *op, struct expr *address,
                        const struct token *type, const struct token *module)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_CAST, op->span);
    e->cast.address = address;
    e->cast.type_name = type->text;
    e->cast.module = module ? module->text : NULL;
    return e;
}

/* `operand->member` or `(operand)[i]`: the first component of an autocast;
 * its span is the operator's, which errors about the operand's type name. */
struct expr *build_autocast(struct parser_ctx *ctx, struct expr *operand, const struct token *op)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_AUTOCAST, op->span);
    e->autocast.operand = operand;
    return e;
}

struct expr *build_var(struct parser_ctx *ctx, const struct token *op, const struct token *name,
                       const struct token *module)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_VAR, op->span);
    e->var_at.name = name->text;
    e->var_at.module = module ? module->text : NULL;
    return e;
}

static struct component **target_components(struct expr *target)
{
    switch (target->kind) {
    case EXPR_CAST: return &target->cast.components;
    case EXPR_VAR: return &target->var_at.components;
    case EXPR_AUTOCAST: return &target->autocast.components;
    default: return &target->target.components;
    }
}

static void target_append(struct expr *target, struct component *c)
{
    struct component **list = target_components(target);
    *list = AST_APPEND(struct component, *list, c);
}

struct expr *build_member(struct parser_ctx *ctx, struct expr *target, const struct token *member)
{
    struct component *c = ARENA_NEW(ctx->arena, struct component);
    c->kind = COMPONENT_MEMBER;
    c->span = member->span;
    c->member = member->text;
    target_append(target, c);
    return target;
}

struct expr *build_subscript(struct parser_ctx *ctx, struct expr *target, const struct token *bracket,
                             struct expr *index)
{
    struct component *c = ARENA_NEW(ctx->arena, struct component);
    c->kind = COMPONENT_INDEX;
    c->span = bracket->span;
    c->index = index;
    target_append(target, c);
    return target;
}

struct expr *build_pretty(struct parser_ctx *ctx, struct expr *target, const struct token *pretty)
{
    (void)ctx;
    int level = (int)pretty->value;
    switch (target->kind) {
    case EXPR_CAST: target->cast.pretty = level; break;
    case EXPR_VAR: target->var_at.pretty = level; break;
    case EXPR_AUTOCAST: target->autocast.pretty = level; break;
    default: target->target.pretty = level; break;
    }
    return target;
}

struct expr *build_address_of(struct parser_ctx *ctx, const struct token *amp, struct expr *target)
{
    (void)ctx;
    (void)amp;
    switch (target->kind) {
    case EXPR_CAST: target->cast.address_of = 1; break;
    case EXPR_VAR: target->var_at.address_of = 1; break;
    case EXPR_AUTOCAST: target->autocast.address_of = 1; break;
    default: target->target.address_of = 1; break;
    }
    return target;
}

/* A global's initializer: a number (with an optional sign) or a string. */
struct expr *build_literal(struct parser_ctx *ctx, const struct token *sign, const struct token *tok)
{
    if (tok->kind == STRING)
        return build_string(ctx, tok);
    struct expr *e = build_int(ctx, tok);
    if (sign && sign->kind == '-')
        e->int_value = (int64_t)(0 - (uint64_t)e->int_value);
    return e;
}

struct stmt *build_stmt(struct parser_ctx *ctx, enum stmt_kind kind, struct span first)
{
    return ast_stmt(ctx->arena, kind, first);
}

struct stmt *build_expr_stmt(struct parser_ctx *ctx, enum stmt_kind kind, struct span first, struct expr *expr)
{
    struct stmt *s = ast_stmt(ctx->arena, kind, first);
    s->expr = expr;
    return s;
}

struct stmt *build_block(struct parser_ctx *ctx, struct span first, struct stmt *body)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_BLOCK, first);
    s->block.body = body;
    return s;
}

struct stmt *build_if(struct parser_ctx *ctx, struct span first, struct expr *cond,
                      struct stmt *then_stmt, struct stmt *else_stmt)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_IF, first);
    s->if_stmt.cond = cond;
    s->if_stmt.then_stmt = then_stmt;
    s->if_stmt.else_stmt = else_stmt;
    return s;
}

struct stmt *build_while(struct parser_ctx *ctx, struct span first, struct expr *cond, struct stmt *body)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_WHILE, first);
    s->while_stmt.cond = cond;
    s->while_stmt.body = body;
    return s;
}

struct stmt *build_for(struct parser_ctx *ctx, struct span first, struct expr *init,
                       struct expr *cond, struct expr *step, struct stmt *body)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_FOR, first);
    s->for_stmt.init = init;
    s->for_stmt.cond = cond;
    s->for_stmt.step = step;
    s->for_stmt.body = body;
    return s;
}

struct stmt *build_try(struct parser_ctx *ctx, struct span first, struct stmt *body,
                       const struct token *catch_var, struct stmt *catch_body)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_TRY, first);
    s->try_stmt.body = body;
    if (catch_var) {
        s->try_stmt.catch_var = catch_var->text;
        s->try_stmt.catch_span = catch_var->span;
    }
    s->try_stmt.catch_body = catch_body;
    return s;
}

struct stmt *build_embedded_stmt(struct parser_ctx *ctx, const struct token *tok)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_EMBEDDED, tok->span);
    s->embedded.code = tok->text;
    return s;
}

static int sort_of(const struct token *sort)
{
    return !sort ? 0 : sort->kind == '+' ? 1 : -1;
}

struct foreach_key *build_foreach_key(struct parser_ctx *ctx, const struct token *name, const struct token *sort)
{
    struct foreach_key *k = ARENA_NEW(ctx->arena, struct foreach_key);
    k->name = name->text;
    k->span = name->span;
    k->sort = sort_of(sort);
    return k;
}

struct stmt *build_foreach_keys(struct parser_ctx *ctx, struct span first, struct foreach_key *keys, int bracketed)
{
    struct stmt *s = ast_stmt(ctx->arena, STMT_FOREACH, first);
    s->foreach.keys = keys;
    for (struct foreach_key *k = keys; k; k = k->next)
        s->foreach.key_count++;
    s->foreach.keys_bracketed = bracketed;
    return s;
}

struct stmt *build_foreach_value(struct parser_ctx *ctx, struct stmt *loop, const struct token *value,
                                 const struct token *sort)
{
    (void)ctx;
    loop->foreach.value_name = value->text;
    loop->foreach.value_span = value->span;
    loop->foreach.value_sort = sort_of(sort);
    return loop;
}

/* Only one + or - in the whole header (value, keys or array). */
struct stmt *build_foreach(struct parser_ctx *ctx, struct span first, struct stmt *loop,
                           const struct token *array, struct expr *slice, const struct token *stat,
                           const struct token *sort, struct expr *limit, struct stmt *body)
{
    int sorts = loop->foreach.value_sort != 0;
    for (struct foreach_key *k = loop->foreach.keys; k; k = k->next)
        sorts += k->sort != 0;
    if (sort) {
        if (sorts)
            build_error(ctx, sort->span, "multiple sort directives");
        loop->foreach.value_sort = sort_of(sort);
    } else if (stat) {
        build_error(ctx, stat->span, "expected sort directive");
    }
    if (sorts > 1)
        build_error(ctx, first, "multiple sort directives");
    loop->span = first;
    loop->foreach.array = build_ident(ctx, array);
    loop->foreach.slice = slice;
    loop->foreach.slice_count = list_count(slice);
    loop->foreach.sort_stat = STAT_COUNT;
    if (stat) {
        if (stat->value > STAT_AVG)
            build_error(ctx, stat->span, "expected statistical operation");
        loop->foreach.sort_stat = (enum stat_op)stat->value;
        loop->foreach.has_sort_stat = 1;
    }
    loop->foreach.limit = limit;
    loop->foreach.body = body;
    return loop;
}

static struct expr *name_at(struct parser_ctx *ctx, const char *name, struct span span)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_IDENT, span);
    e->ident.name = name;
    return e;
}

static struct expr *number_at(struct parser_ctx *ctx, int64_t value, struct span span)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_INT, span);
    e->int_value = value;
    return e;
}

static struct expr *binary_at(struct parser_ctx *ctx, enum binary_op op, struct expr *lhs, struct expr *rhs)
{
    struct expr *e = ast_expr(ctx->arena, EXPR_BINARY, lhs->span);
    e->binary.op = op;
    e->binary.lhs = lhs;
    e->binary.rhs = rhs;
    return e;
}

/* foreach ([v =] b in @hist_*(s) [limit n]) body: every bucket index in
 * order, empty ones too, as SystemTap iterates a histogram (128 for
 * @hist_log; for @hist_linear the buckets with underflow and overflow):
 *   { [lim = n] for (b = 0; b < N [&& lim-- > 0]; b++) { [v = @hist_*(s)[b]] body } }
 * with lim a local of its own (the limit is evaluated once). */
struct stmt *build_foreach_hist(struct parser_ctx *ctx, struct span first, struct stmt *loop,
                                struct expr *hist, struct expr *limit, struct stmt *body)
{
    struct foreach_key *key = loop->foreach.keys;
    if (loop->foreach.key_count != 1)
        build_error(ctx, first, "a histogram's buckets are iterated with one index variable");
    if (loop->foreach.value_sort || key->sort)
        build_error(ctx, first, "a histogram's buckets are iterated in order: no sort");
    if (hist->stat.op != STAT_HIST_LOG && hist->stat.op != STAT_HIST_LINEAR) {
        build_error(ctx, hist->span, "foreach over a statistic needs @hist_log or @hist_linear");
        return build_stmt(ctx, STMT_EMPTY, first);
    }
    int64_t buckets = 128, p[3];
    if (hist->stat.op == STAT_HIST_LINEAR) {
        struct expr *arg = hist->stat.args;
        for (int i = 0; i < 3; i++, arg = arg ? arg->next : NULL)
            if (!ast_literal_int(arg, &p[i])) {
                build_error(ctx, hist->span, "@hist_linear needs literal start, stop and interval");
                return build_stmt(ctx, STMT_EMPTY, first);
            }
        if (p[2] <= 0 || p[1] <= p[0]) {
            build_error(ctx, hist->span, "@hist_linear needs start < stop and a positive interval");
            return build_stmt(ctx, STMT_EMPTY, first);
        }
        buckets = (p[1] - p[0]) / p[2] + 3;
    }
    struct span at = key->span;
    if (loop->foreach.value_name) {
        struct span value_at = loop->foreach.value_span;
        struct expr *value = build_hist_bucket(ctx, hist, name_at(ctx, key->name, at));
        struct expr *assign = ast_expr(ctx->arena, EXPR_ASSIGN, loop->foreach.value_span);
        assign->assign.op = ASSIGN_SET;
        assign->assign.lhs = name_at(ctx, loop->foreach.value_name, value_at);
        assign->assign.rhs = value;
        struct stmt *set = build_expr_stmt(ctx, STMT_EXPR, value_at, assign);
        set->next = body;
        body = build_block(ctx, body ? body->span : first, set);
    }
    struct expr *init = ast_expr(ctx->arena, EXPR_ASSIGN, at);
    init->assign.op = ASSIGN_SET;
    init->assign.lhs = name_at(ctx, key->name, at);
    init->assign.rhs = number_at(ctx, 0, at);
    struct expr *cond = binary_at(ctx, BINARY_LT, name_at(ctx, key->name, at), number_at(ctx, buckets, at));
    struct expr *step = ast_expr(ctx->arena, EXPR_INCDEC, at);
    step->incdec.increment = 1;
    step->incdec.operand = name_at(ctx, key->name, at);
    struct stmt *set_limit = NULL;
    if (limit) {
        const char *name = arena_printf(ctx->arena, "__tap_limit_%d_%d", first.line, first.col);
        struct expr *assign = ast_expr(ctx->arena, EXPR_ASSIGN, limit->span);
        assign->assign.op = ASSIGN_SET;
        assign->assign.lhs = name_at(ctx, name, limit->span);
        assign->assign.rhs = limit;
        set_limit = build_expr_stmt(ctx, STMT_EXPR, limit->span, assign);
        struct expr *count = ast_expr(ctx->arena, EXPR_INCDEC, limit->span);
        count->incdec.operand = name_at(ctx, name, limit->span);
        cond = binary_at(ctx, BINARY_LOGAND, cond, binary_at(ctx, BINARY_GT, count, number_at(ctx, 0, limit->span)));
    }
    struct stmt *for_loop = build_for(ctx, first, init, cond, step, body);
    if (!set_limit)
        return for_loop;
    set_limit->next = for_loop;
    return build_block(ctx, first, set_limit);
}

static void append_decl(struct parser_ctx *ctx, struct decl *d)
{
    ctx->ast->decls = AST_APPEND(struct decl, ctx->ast->decls, d);
}

struct decl *build_global(struct parser_ctx *ctx, const struct token *name, struct expr *init,
                          const struct token *size, int is_array, int wrap)
{
    struct decl *d = ast_decl(ctx->arena, DECL_GLOBAL, name->span);
    d->global.name = name->text;
    d->global.init = init;
    d->global.is_array = is_array;
    d->global.wrap = wrap;
    if (size) {
        if (size->value <= 0)
            build_error(ctx, size->span, "array size must be positive");
        d->global.max_entries = size->value;
    }
    append_decl(ctx, d);
    return d;
}

/* Marks `first` and every declaration appended after it. */
void build_private(struct decl *first)
{
    for (struct decl *d = first; d; d = d->next)
        d->is_private = 1;
}

struct param *build_param(struct parser_ctx *ctx, const struct token *name, enum param_type_decl type)
{
    struct param *p = ARENA_NEW(ctx->arena, struct param);
    p->name = name->text;
    p->span = name->span;
    p->declared = type;
    return p;
}

struct decl *build_function(struct parser_ctx *ctx, const struct token *name, enum param_type_decl ret,
                            struct param *params, struct stmt *body)
{
    struct decl *d = ast_decl(ctx->arena, DECL_FUNCTION, name->span);
    d->function.name = name->text;
    d->function.declared_return = ret;
    d->function.params = params;
    for (struct param *p = params; p; p = p->next)
        d->function.param_count++;
    d->function.body = body;
    append_decl(ctx, d);
    return d;
}

struct probe_component *build_probe_component(struct parser_ctx *ctx, const struct token *name,
                                              const struct token *sign, const struct token *arg)
{
    struct probe_component *c = ARENA_NEW(ctx->arena, struct probe_component);
    c->name = name->text;
    c->span = name->span;
    if (arg && arg->kind == STRING) {
        c->arg_kind = PROBE_ARG_STRING;
        c->arg_string = arg->text;
    } else if (arg) {
        c->arg_kind = PROBE_ARG_INT;
        c->arg_int = sign && sign->kind == '-' ? (int64_t)(0 - (uint64_t)arg->value) : arg->value;
    }
    return c;
}

/* One alternative made of one component, before its flags are known. */
struct probe_point *build_probe_point(struct parser_ctx *ctx, struct probe_component *component)
{
    struct probe_point *p = ARENA_NEW(ctx->arena, struct probe_point);
    p->components = component;
    p->span = component->span;
    return p;
}

static struct probe_component *copy_components(struct parser_ctx *ctx, const struct probe_component *c)
{
    struct probe_component *head = NULL;
    for (; c; c = c->next) {
        struct probe_component *copy = ARENA_NEW(ctx->arena, struct probe_component);
        *copy = *c;
        copy->next = NULL;
        head = AST_APPEND(struct probe_component, head, copy);
    }
    return head;
}

/* `PREFIX.SUFFIX` where either side may be a brace group of alternatives:
 * as SystemTap, every prefix joined with every suffix, in order. Flags and
 * conditions belong to the whole point, so only a suffix may carry them. */
struct probe_point *build_probe_product(struct parser_ctx *ctx, struct probe_point *prefixes,
                                        struct probe_point *suffixes)
{
    struct probe_point *product = NULL;
    for (struct probe_point *a = prefixes; a; a = a->next) {
        if (a->optional || a->condition) {
            build_error(ctx, a->span, "'?', '!' or condition must only be specified in suffix");
            return prefixes;
        }
        for (struct probe_point *b = suffixes; b; b = b->next) {
            struct probe_point *p = ARENA_NEW(ctx->arena, struct probe_point);
            *p = *b;
            p->next = NULL;
            p->span = a->span;
            p->components = AST_APPEND(struct probe_component, copy_components(ctx, a->components),
                                       copy_components(ctx, b->components));
            product = AST_APPEND(struct probe_point, product, p);
        }
    }
    return product;
}

/* `?`, `!` and `if (cond)` after a point apply to each of its alternatives. */
struct probe_point *build_probe_flags(struct parser_ctx *ctx, struct probe_point *points,
                                      const struct token *flag, struct expr *condition)
{
    for (struct probe_point *p = points; p; p = p->next) {
        if (flag && p->optional)
            build_error(ctx, flag->span, "'?' or '!' respecified");
        else if (flag) {
            p->optional = 1;
            p->sufficient = flag->kind == '!';
        }
        if (condition && p->condition)
            build_error(ctx, condition->span, "condition respecified");
        else if (condition)
            p->condition = condition;
    }
    return points;
}

struct decl *build_probe(struct parser_ctx *ctx, const struct token *kw, struct probe_point *points,
                         struct stmt *body)
{
    struct decl *d = ast_decl(ctx->arena, DECL_PROBE, kw->span);
    d->probe.points = points;
    d->probe.body = body;
    append_decl(ctx, d);
    return d;
}

/* `probe NAME[, NAME] = PP[, PP] { }`: names are plain dotted words. */
struct decl *build_alias(struct parser_ctx *ctx, const struct token *kw, struct probe_point *names,
                         const struct token *op, struct probe_point *points, struct stmt *body)
{
    for (struct probe_point *n = names; n; n = n->next)
        if (n->optional || n->condition)
            build_error(ctx, n->span, "probe alias names cannot be optional or conditional");
    struct decl *d = ast_decl(ctx->arena, DECL_ALIAS, names->span);
    d->alias.names = names;
    d->alias.is_epilogue = op->kind == ADD_ASSIGN;
    d->alias.points = points;
    d->alias.body = body;
    (void)kw;
    append_decl(ctx, d);
    return d;
}

struct decl *build_embedded_decl(struct parser_ctx *ctx, const struct token *tok)
{
    struct decl *d = ast_decl(ctx->arena, DECL_EMBEDDED, tok->span);
    d->embedded.code = tok->text;
    append_decl(ctx, d);
    return d;
}
