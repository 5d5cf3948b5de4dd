/* Type inference: long or string for every expression, symbol, array key and
 * function, propagated to a fixpoint; mismatches are reported on the last
 * round only, when everything that can be known is. */
#include <string.h>

#include "base/format.h"
#include "sema/builtins.h"
#include "sema/dwarf.h"
#include "sema/sema_internal.h"

static enum value_type infer_expr(struct sema *s, struct expr *e);
static void infer_stmt(struct sema *s, struct stmt *st);

#include <stdarg.h>
#include "base/strbuf.h"

static void report(struct sema *s, struct span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(struct sema *s, struct span span, const char *fmt, ...)
{
    if (!s->report)
        return;
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    diag_error(s->diags, span, "%s", message);
}

/* Gives an unknown slot the type `t`; reports a conflict with a known one. */
static void unify(struct sema *s, enum value_type *slot, enum value_type t, struct span span)
{
    if (t == TYPE_UNKNOWN)
        return;
    if (*slot == TYPE_UNKNOWN) {
        *slot = t;
        s->changed = 1;
    } else if (*slot != t) {
        report(s, span, "type mismatch (%s vs %s)", value_type_name(*slot), value_type_name(t));
    }
}

static void expect(struct sema *s, struct expr *e, enum value_type want)
{
    enum value_type got = infer_expr(s, e);
    if (got == TYPE_UNKNOWN && e->symbol && (e->kind == EXPR_IDENT || e->kind == EXPR_INDEX))
        unify(s, &e->symbol->type, want, e->span);
    else if (got == TYPE_UNKNOWN && e->kind == EXPR_CALL && e->call.target == CALL_FUNCTION)
        unify(s, &e->call.function->return_type, want, e->span);
    else if (got != TYPE_UNKNOWN && got != want)
        report(s, e->span, "type mismatch: expected %s, got %s", value_type_name(want),
               value_type_name(got));
}

/* Makes two operands agree (comparisons, ternary branches, assignment). */
static enum value_type agree(struct sema *s, struct expr *a, struct expr *b, struct span span)
{
    enum value_type ta = infer_expr(s, a), tb = infer_expr(s, b);
    if (ta == TYPE_UNKNOWN && tb != TYPE_UNKNOWN) {
        expect(s, a, tb);
        return tb;
    }
    if (tb == TYPE_UNKNOWN && ta != TYPE_UNKNOWN) {
        expect(s, b, ta);
        return ta;
    }
    if (ta != tb && ta != TYPE_UNKNOWN)
        report(s, span, "type mismatch (%s vs %s)", value_type_name(ta), value_type_name(tb));
    return ta;
}

static void infer_keys(struct sema *s, struct symbol *array, struct expr *keys, int count,
                       struct span span)
{
    if (!array)
        return;
    if (array->key_count == 0) {
        array->key_count = count;
    } else if (array->key_count != count) {
        if (s->report)
            diag_error(s->diags, span, "array %s used with %d index expressions, elsewhere with %d",
                       array->name, count, array->key_count);
        return;
    }
    int i = 0;
    for (struct expr *k = keys; k && i < MAX_ARRAY_KEYS; k = k->next, i++) {
        if (k->kind == EXPR_IDENT && strcmp(k->ident.name, "*") == 0)
            continue;
        enum value_type t = infer_expr(s, k);
        if (t == TYPE_UNKNOWN)
            expect(s, k, array->key_types[i]);
        else
            unify(s, &array->key_types[i], t, k->span);
    }
}

static enum value_type lvalue_type_slot_unify(struct sema *s, struct expr *lhs, enum value_type t)
{
    if (lhs->kind == EXPR_INDEX && lhs->symbol) {
        infer_keys(s, lhs->symbol, lhs->index.indices, lhs->index.index_count, lhs->span);
        unify(s, &lhs->symbol->type, t, lhs->span);
        return lhs->symbol->type;
    }
    if (lhs->kind == EXPR_IDENT && lhs->symbol) {
        if (lhs->symbol->is_array) {
            if (s->report)
                diag_error(s->diags, lhs->span, "array %s used as a scalar", lhs->symbol->name);
            return t;   /* its elements' type is not in question: no type mismatch on top */
        }
        unify(s, &lhs->symbol->type, t, lhs->span);
        return lhs->symbol->type;
    }
    return t;
}

static enum value_type infer_assign(struct sema *s, struct expr *e)
{
    struct expr *lhs = e->assign.lhs;
    switch (e->assign.op) {
    case ASSIGN_SET: {
        enum value_type t = infer_expr(s, e->assign.rhs);
        enum value_type lt = lvalue_type_slot_unify(s, lhs, t);
        if (t == TYPE_UNKNOWN && lt != TYPE_UNKNOWN)
            expect(s, e->assign.rhs, lt);
        if (lt == TYPE_STATS && s->report)
            diag_error(s->diags, e->span, "statistics can only be updated with <<<");
        return lt;
    }
    case ASSIGN_CONCAT:
        expect(s, e->assign.rhs, TYPE_STRING);
        lvalue_type_slot_unify(s, lhs, TYPE_STRING);
        return TYPE_STRING;
    default:
        expect(s, e->assign.rhs, TYPE_LONG);
        lvalue_type_slot_unify(s, lhs, TYPE_LONG);
        return TYPE_LONG;
    }
}

static void check_format_call(struct sema *s, struct expr *e, struct expr *format, struct expr *args)
{
    if (!format || format->kind != EXPR_STRING) {
        report(s, e->span, "%s needs a literal format string", e->call.name);
        return;
    }
    struct compiled_format compiled;
    char error[128];
    size_t offset;
    if (format_compile(format->string.value, &compiled, error, sizeof(error), &offset) != 0) {
        report(s, format->span, "invalid format: %s", error);
        return;
    }
    int i = 0;
    struct expr *a = args;
    for (; a && i < compiled.arg_count; a = a->next, i++)
        expect(s, a, compiled.arg_types[i] == FORMAT_VALUE_STRING ? TYPE_STRING : TYPE_LONG);
    if ((a || i < compiled.arg_count) && s->report) {
        struct strbuf quoted;   /* escaped, so a "\n" in the format stays on the message's line */
        strbuf_init(&quoted);
        strbuf_quote(&quoted, format->string.value, strlen(format->string.value));
        diag_error(s->diags, e->span, "%s format %s takes %d argument%s, given %d", e->call.name,
                   quoted.data, compiled.arg_count, compiled.arg_count == 1 ? "" : "s",
                   e->call.arg_count - 1);
        strbuf_free(&quoted);
    }
    format_free(&compiled);
}

static void expect_printable(struct sema *s, struct expr *a)
{
    enum value_type t = infer_expr(s, a);
    if (t == TYPE_UNKNOWN && a->kind == EXPR_IDENT && a->symbol && !a->symbol->is_array)
        report(s, a->span, "unresolved type for %s", a->symbol->name);
    else if (t == TYPE_STATS && !(a->kind == EXPR_STAT &&
                                  (a->stat.op == STAT_HIST_LOG || a->stat.op == STAT_HIST_LINEAR)))
        report(s, a->span, "statistics cannot be printed directly; use an extractor such as @count");
}

static enum value_type infer_builtin(struct sema *s, struct expr *e, const struct builtin *b)
{
    struct expr *args = e->call.args;
    switch (b->args) {
    case BUILTIN_ARGS_FORMAT:
        check_format_call(s, e, args, args ? args->next : NULL);
        break;
    case BUILTIN_ARGS_ANY:
        for (struct expr *a = args; a; a = a->next)
            expect_printable(s, a);
        break;
    case BUILTIN_ARGS_DELIMITED:
        if (!args || !args->next) {
            report(s, e->span, "%s needs a delimiter and at least one value", e->call.name);
            break;
        }
        expect(s, args, TYPE_STRING);
        for (struct expr *a = args->next; a; a = a->next)
            expect_printable(s, a);
        break;
    case BUILTIN_ARGS_FIXED: {
        if (e->call.arg_count != b->arg_count && s->report) {
            diag_error(s->diags, e->span, "%s takes %d argument%s, given %d", b->name, b->arg_count,
                       b->arg_count == 1 ? "" : "s", e->call.arg_count);
            break;
        }
        int i = 0;
        for (struct expr *a = args; a && i < b->arg_count; a = a->next, i++)
            expect(s, a, b->arg_types[i]);
        break;
    }
    }
    return b->return_type;
}

static enum value_type infer_call(struct sema *s, struct expr *e)
{
    switch (e->call.target) {
    case CALL_UNRESOLVED:
        for (struct expr *a = e->call.args; a; a = a->next)
            infer_expr(s, a);
        return TYPE_UNKNOWN;
    case CALL_BUILTIN:
        return infer_builtin(s, e, e->call.builtin);
    case CALL_FUNCTION:
        break;
    }
    /* Resolution chose the overload with this arity; the ones a `next`
     * passes the same arguments to must agree with it. */
    struct function_decl *fn = e->call.function;
    for (struct function_decl *f = fn; f; f = f->next_overload) {
        int i = 0;
        for (struct expr *a = e->call.args; a && i < f->param_count; a = a->next, i++) {
            enum value_type t = infer_expr(s, a);
            if (t == TYPE_UNKNOWN)
                expect(s, a, f->params[i]->type);
            else
                unify(s, &f->params[i]->type, t, a->span);
        }
        if (f != fn && f->return_type != TYPE_UNKNOWN)
            unify(s, &fn->return_type, f->return_type, f->decl->span);
        else if (f != fn && fn->return_type != TYPE_UNKNOWN)
            unify(s, &f->return_type, fn->return_type, f->decl->span);
    }
    return fn->return_type;
}

static enum value_type infer_stat(struct sema *s, struct expr *e)
{
    struct expr *operand = e->stat.operand;
    if (operand->kind == EXPR_IDENT || operand->kind == EXPR_INDEX)
        lvalue_type_slot_unify(s, operand, TYPE_STATS);
    else
        report(s, operand->span, "statistics extractors need a statistic variable or array element");
    for (struct expr *a = e->stat.args; a; a = a->next)
        expect(s, a, TYPE_LONG);
    if (e->stat.op == STAT_HIST_LOG || e->stat.op == STAT_HIST_LINEAR)
        return TYPE_STATS;
    return TYPE_LONG;
}

static enum value_type infer_unsupported(struct sema *s, struct expr *e, const char *what)
{
    report(s, e->span, "%s are not supported yet", what);
    return TYPE_UNKNOWN;
}

static enum value_type infer_binary(struct sema *s, struct expr *e)
{
    switch (e->binary.op) {
    case BINARY_LT: case BINARY_GT: case BINARY_LE: case BINARY_GE:
    case BINARY_EQ: case BINARY_NE:
        agree(s, e->binary.lhs, e->binary.rhs, e->span);
        return TYPE_LONG;
    case BINARY_CONCAT:
        expect(s, e->binary.lhs, TYPE_STRING);
        expect(s, e->binary.rhs, TYPE_STRING);
        return TYPE_STRING;
    case BINARY_REGEX_MATCH: case BINARY_REGEX_NOMATCH:
        expect(s, e->binary.lhs, TYPE_STRING);
        if (e->binary.rhs->kind != EXPR_STRING)
            report(s, e->binary.rhs->span, "a regular expression must be a string literal");
        return TYPE_LONG;
    case BINARY_LOGAND: case BINARY_LOGOR:
        /* `count && ++n == count && exit()`: SystemTap takes a call with no
         * value as an operand here (false: codegen's cg_condition) */
        if (!(e->binary.lhs->kind == EXPR_CALL && infer_expr(s, e->binary.lhs) == TYPE_VOID))
            expect(s, e->binary.lhs, TYPE_LONG);
        if (!(e->binary.rhs->kind == EXPR_CALL && infer_expr(s, e->binary.rhs) == TYPE_VOID))
            expect(s, e->binary.rhs, TYPE_LONG);
        return TYPE_LONG;
    default:
        expect(s, e->binary.lhs, TYPE_LONG);
        expect(s, e->binary.rhs, TYPE_LONG);
        return TYPE_LONG;
    }
}

/* A register is a long, but an @entry snapshot has its operand's type: the
 * operand is inferred here, where the value is used. */
static enum value_type infer_register(struct sema *s, struct expr *e)
{
    int k = e->reg.number - DWARF_REG_ENTRY_SNAPSHOT;
    if (k < 0 || k >= MAX_ENTRY_SNAPSHOTS || s->function || !s->probe || k >= s->probe->entry_count)
        return TYPE_LONG;
    return infer_expr(s, s->probe->entry_values[k]);
}

static enum value_type infer_expr_kind(struct sema *s, struct expr *e)
{
    switch (e->kind) {
    case EXPR_INT: return TYPE_LONG;
    case EXPR_STRING: return TYPE_STRING;
    case EXPR_IDENT:
        if (e->symbol && e->symbol->is_array) {
            if (s->report)
                diag_error(s->diags, e->span, "array %s used as a scalar", e->symbol->name);
            return TYPE_UNKNOWN;   /* not its elements' type: no type mismatch on top */
        }
        return e->symbol ? e->symbol->type : TYPE_UNKNOWN;
    case EXPR_UNARY:
        expect(s, e->unary.operand, TYPE_LONG);
        return TYPE_LONG;
    case EXPR_BINARY: return infer_binary(s, e);
    case EXPR_ASSIGN: return infer_assign(s, e);
    case EXPR_AGGREGATE:
        expect(s, e->aggregate.rhs, TYPE_LONG);
        lvalue_type_slot_unify(s, e->aggregate.lhs, TYPE_STATS);
        return TYPE_LONG;
    case EXPR_INCDEC:
        lvalue_type_slot_unify(s, e->incdec.operand, TYPE_LONG);
        return TYPE_LONG;
    case EXPR_TERNARY:
        expect(s, e->ternary.cond, TYPE_LONG);
        return agree(s, e->ternary.then_expr, e->ternary.else_expr, e->span);
    case EXPR_CALL: return infer_call(s, e);
    case EXPR_INDEX:
        infer_keys(s, e->symbol, e->index.indices, e->index.index_count, e->span);
        return e->symbol ? e->symbol->type : TYPE_UNKNOWN;
    case EXPR_IN:
        infer_keys(s, e->symbol, e->in.keys, e->in.key_count, e->span);
        return TYPE_LONG;
    case EXPR_STAT: return infer_stat(s, e);
    case EXPR_HIST_BUCKET:
        infer_expr(s, e->hist_bucket.hist);
        expect(s, e->hist_bucket.bucket, TYPE_LONG);
        return TYPE_LONG;
    case EXPR_TARGET: return infer_unsupported(s, e, "target variables");
    case EXPR_ENTRY: return infer_unsupported(s, e, "@entry expressions");
    case EXPR_DEFINED: return infer_unsupported(s, e, "@defined expressions");
    case EXPR_CAST: return infer_unsupported(s, e, "@cast expressions");
    case EXPR_AUTOCAST: return infer_unsupported(s, e, "autocast expressions");
    case EXPR_VAR: return infer_unsupported(s, e, "@var expressions");
    case EXPR_REGISTER: return infer_register(s, e);
    case EXPR_CTX_READ:
        if (e->ctx_read.address)   /* a kernel read's address: a runtime index is a long */
            expect(s, e->ctx_read.address, TYPE_LONG);
        return e->ctx_read.kind == CTX_READ_LONG || e->ctx_read.kind == CTX_READ_KERNEL_LONG ||
               e->ctx_read.kind == CTX_READ_FUNC_ARG ? TYPE_LONG
                                                                                            : TYPE_STRING;
    case EXPR_USER_READ:
        expect(s, e->user_read.address, TYPE_LONG);
        return TYPE_LONG;
    }
    return TYPE_UNKNOWN;
}

static enum value_type infer_expr(struct sema *s, struct expr *e)
{
    enum value_type t = infer_expr_kind(s, e);
    if (t != TYPE_UNKNOWN && e->type != t) {
        e->type = t;
        s->changed = 1;
    }
    return t;
}

static void infer_foreach(struct sema *s, struct stmt *st)
{
    struct symbol *array = st->foreach.array->symbol;
    if (array) {
        if (array->key_count && array->key_count != st->foreach.key_count && s->report)
            diag_error(s->diags, st->span, "foreach over %s has %d keys, the array has %d", array->name,
                       st->foreach.key_count, array->key_count);
        if (!array->key_count)
            array->key_count = st->foreach.key_count;
        int i = 0;
        for (struct foreach_key *k = st->foreach.keys; k && i < MAX_ARRAY_KEYS; k = k->next, i++) {
            unify(s, &k->symbol->type, array->key_types[i], k->span);
            unify(s, &array->key_types[i], k->symbol->type, k->span);
        }
        if (st->foreach.value_symbol)
            unify(s, &st->foreach.value_symbol->type, array->type == TYPE_STATS ? TYPE_LONG : array->type,
                  st->foreach.value_span);
        if (st->foreach.slice)
            infer_keys(s, array, st->foreach.slice, st->foreach.slice_count, st->span);
    }
    if (st->foreach.limit)
        expect(s, st->foreach.limit, TYPE_LONG);
    infer_stmt(s, st->foreach.body);
}

static void infer_stmt(struct sema *s, struct stmt *st)
{
    for (; st; st = st->next) {
        switch (st->kind) {
        case STMT_BLOCK: infer_stmt(s, st->block.body); break;
        case STMT_EXPR: infer_expr(s, st->expr); break;
        case STMT_IF:
            expect(s, st->if_stmt.cond, TYPE_LONG);
            infer_stmt(s, st->if_stmt.then_stmt);
            infer_stmt(s, st->if_stmt.else_stmt);
            break;
        case STMT_WHILE:
            expect(s, st->while_stmt.cond, TYPE_LONG);
            infer_stmt(s, st->while_stmt.body);
            break;
        case STMT_FOR:
            if (st->for_stmt.init)
                infer_expr(s, st->for_stmt.init);
            if (st->for_stmt.cond)
                expect(s, st->for_stmt.cond, TYPE_LONG);
            if (st->for_stmt.step)
                infer_expr(s, st->for_stmt.step);
            infer_stmt(s, st->for_stmt.body);
            break;
        case STMT_FOREACH: infer_foreach(s, st); break;
        case STMT_RETURN:
            if (st->expr && s->function) {
                enum value_type t = infer_expr(s, st->expr);
                if (t == TYPE_UNKNOWN)
                    expect(s, st->expr, s->function->return_type);
                else
                    unify(s, &s->function->return_type, t, st->expr->span);
            }
            break;
        case STMT_DELETE:
            if (st->expr->kind == EXPR_INDEX)
                infer_keys(s, st->expr->symbol, st->expr->index.indices, st->expr->index.index_count,
                           st->expr->span);
            break;
        case STMT_TRY:
            infer_stmt(s, st->try_stmt.body);
            if (st->try_stmt.catch_symbol)
                unify(s, &st->try_stmt.catch_symbol->type, TYPE_STRING, st->try_stmt.catch_span);
            infer_stmt(s, st->try_stmt.catch_body);
            break;
        default: break;
        }
    }
}

static void infer_round(struct sema *s)
{
    struct script *script = s->script;
    for (int i = 0; i < script->probe_count; i++) {
        struct probe *probe = script->probes[i];
        if (i > 0 && script->probes[i - 1]->body == probe->body)
            continue;   /* several points, one body: analyse it once */
        s->function = NULL;
        s->frame = probe->frame;
        s->probe = probe;
        if (probe->condition)
            expect(s, probe->condition, TYPE_LONG);
        infer_stmt(s, probe->body);
    }
    for (int i = 0; i < script->function_count; i++) {
        struct function_decl *fn = script->functions[i];
        if (!fn->is_resolved || !fn->is_reachable)
            continue;   /* elided before types, as in SystemTap: its stores type nothing */
        s->function = fn;
        s->frame = &fn->frame;
        infer_stmt(s, fn->decl->function.body);
    }
}

/* Unknown types left after the fixpoint: defaults where stap has them,
 * errors where it doesn't. */
static void default_locals(struct sema *s, struct frame_layout *frame);

static void check_unresolved(struct sema *s)
{
    struct script *script = s->script;
    for (int i = 0; i < script->global_count; i++) {
        struct symbol *g = script->globals[i];
        if (g->type == TYPE_UNKNOWN && (g->is_read || g->is_written))
            diag_error(s->diags, g->span, "unresolved type for global %s", g->name);
        for (int k = 0; k < g->key_count; k++)
            if (g->key_types[k] == TYPE_UNKNOWN)
                diag_error(s->diags, g->span, "unresolved type for index %d of array %s", k + 1, g->name);
    }
    for (int i = 0; i < script->function_count; i++) {
        struct function_decl *fn = script->functions[i];
        if (!fn->is_reachable)
            continue;
        if (fn->return_type == TYPE_UNKNOWN)
            fn->return_type = TYPE_VOID;
        for (int p = 0; p < fn->param_count; p++)
            if (fn->params[p]->type == TYPE_UNKNOWN)
                diag_error(s->diags, fn->params[p]->span, "unresolved type for parameter %s",
                           fn->params[p]->name);
        default_locals(s, &fn->frame);
    }
}

static void default_locals(struct sema *s, struct frame_layout *frame)
{
    for (int i = 0; i < frame->local_count; i++) {
        struct symbol *sym = frame->locals[i];
        if (sym->kind == SYMBOL_PARAM)
            continue;
        if (sym->type == TYPE_STATS) {   /* an extractor's operand: statistics live in maps */
            diag_error(s->diags, sym->span, "stat locals not supported, missing global declaration?");
            continue;
        }
        if (!sym->is_written) {
            if (sym->is_read)   /* neither: only elided alias stores used it */
                diag_warning(s->diags, sym->span, "never-assigned local variable '%s'", sym->name);
            if (sym->type == TYPE_UNKNOWN)
                sym->type = TYPE_LONG;
        } else if (sym->type == TYPE_UNKNOWN) {
            diag_error(s->diags, sym->span, "unresolved type for local %s", sym->name);
        }
    }
}

void sema_infer_types(struct sema *s)
{
    for (int round = 0; round < 32; round++) {
        s->changed = 0;
        infer_round(s);
        if (!s->changed)
            break;
    }
    s->report = 1;
    infer_round(s);
    for (int i = 0; i < s->script->probe_count; i++)
        if (i == 0 || s->script->probes[i - 1]->frame != s->script->probes[i]->frame)
            default_locals(s, s->script->probes[i]->frame);
    check_unresolved(s);
}
