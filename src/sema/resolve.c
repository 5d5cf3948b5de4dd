/* Name resolution: binds every identifier, array reference and call in a body
 * to its symbol, function or builtin, creating locals on first use. What the
 * probe's $variables, @entry, @cast and register arguments read is
 * lowering's (lower.c, register_args.c, autocast.c), called at each. */
#include <string.h>

#include "base/strbuf.h"
#include "sema/autocast.h"
#include "sema/builtins.h"
#include "sema/lower.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"

static void resolve_value(struct sema *s, struct expr *e, int value_used);
static void resolve_stmt(struct sema *s, struct stmt *st);

/* An expression whose value is used (an operand, an argument, a condition). */
static void resolve_expr(struct sema *s, struct expr *e)
{
    resolve_value(s, e, 1);
}

static void resolve_list(struct sema *s, struct expr *list)
{
    for (struct expr *e = list; e; e = e->next)
        resolve_expr(s, e);
}

static int is_wildcard(const struct expr *e)
{
    return e->kind == EXPR_IDENT && strcmp(e->ident.name, "*") == 0;
}

/* The index list of `in` or delete, where `*` matches any key. */
static void resolve_keys(struct sema *s, struct expr *list)
{
    for (struct expr *e = list; e; e = e->next)
        if (!is_wildcard(e))
            resolve_expr(s, e);
}

int sema_prints_at_end(const struct symbol *global)
{
    return global->is_written && !global->is_used && !(global->span.file && global->span.file->is_tapset);
}

/* A name used as a value: local, parameter, then global. */
static struct symbol *resolve_name(struct sema *s, const char *name, struct span span, int writing)
{
    struct symbol *sym = sema_find_local(s->frame, name);
    if (!sym)
        sym = sema_find_global(s, name);
    if (!sym)
        sym = sema_tapset_global(s, name);   /* SystemTap looks in the library before making a local */
    if (!sym)
        sym = sema_add_local(s, s->frame, SYMBOL_LOCAL, name, span);
    if (writing)
        sym->is_written = 1;
    else
        sym->is_read = sym->is_used = 1;
    return sym;
}

/* `keys`: how many index expressions this use has. SystemTap's maps have
 * at most 9 (its runtime/map-gen.c stops at KEY9). */
static struct symbol *resolve_array(struct sema *s, struct expr *name_expr, int keys, int writing)
{
    if (name_expr->kind != EXPR_IDENT) {
        diag_error(s->diags, name_expr->span, "expected an array name");
        return NULL;
    }
    const char *name = name_expr->ident.name;
    if (keys > MAX_ARRAY_KEYS) {
        diag_error(s->diags, name_expr->span, "array %s indexed by %d expressions: at most %d (as SystemTap)", name,
                   keys, MAX_ARRAY_KEYS);
        return NULL;
    }
    struct symbol *sym = sema_find_global(s, name);
    if (!sym && !sema_find_local(s->frame, name))
        sym = sema_tapset_global(s, name);
    if (!sym || sema_find_local(s->frame, name)) {
        diag_error(s->diags, name_expr->span,
                   "unresolved global array %s, missing global declaration?", name);
        return NULL;
    }
    sym->is_array = 1;
    if (writing)
        sym->is_written = 1;
    else
        sym->is_read = sym->is_used = 1;
    name_expr->symbol = sym;
    return sym;
}

static void add_callee(struct sema *s, struct function_decl *fn)
{
    struct function_decl *caller = s->function;
    if (!caller)
        return;
    for (int i = 0; i < caller->callee_count; i++)
        if (caller->callees[i] == fn)
            return;
    if (caller->callee_count == caller->callee_capacity) {
        int capacity = caller->callee_capacity ? caller->callee_capacity * 2 : 4;
        caller->callees = arena_realloc(s->arena, caller->callees,
                                        sizeof(fn) * (size_t)caller->callee_capacity,
                                        sizeof(fn) * (size_t)capacity);
        caller->callee_capacity = capacity;
    }
    caller->callees[caller->callee_count++] = fn;
}

/* A private tapset function is visible only inside its own file. */
static struct function_decl *visible_function(struct sema *s, const char *name, struct span use)
{
    struct function_decl *fn = sema_find_function(s, name);
    if (fn && fn->decl->is_private && fn->decl->span.file != use.file)
        return NULL;
    return fn;
}

/* The overload of NAME taking ARITY arguments, when visible from USE. */
static struct function_decl *visible_overload(struct sema *s, const char *name, int arity, struct span use)
{
    struct function_decl *fn = sema_find_overload(s, name, arity);
    if (fn && fn->decl->is_private && fn->decl->span.file != use.file)
        return NULL;
    return fn;
}

/* A function of this name exists, none with this many arguments. */
static void report_arities(struct sema *s, const struct expr *e)
{
    struct strbuf arities = {0};
    int count = 0, arity = 0;
    for (int i = 0; i < s->script->function_count; i++) {
        struct function_decl *f = s->script->functions[i];
        if (strcmp(f->name, e->call.name) != 0 || sema_find_overload(s, f->name, f->param_count) != f)
            continue;
        add_callee(s, f);   /* meant, not unused */
        strbuf_printf(&arities, "%s%d", count ? ", " : "", f->param_count);
        arity = f->param_count;
        count++;
    }
    if (count == 1)
        diag_error(s->diags, e->span, "function %s takes %d argument%s, given %d", e->call.name, arity,
                   arity == 1 ? "" : "s", e->call.arg_count);
    else
        diag_error(s->diags, e->span, "no overload of function %s takes %d argument%s (overloads take %s)",
                   e->call.name, e->call.arg_count, e->call.arg_count == 1 ? "" : "s", arities.data);
    strbuf_free(&arities);
}

static int is_char_array_read(const struct expr *e)
{
    return e->kind == EXPR_CTX_READ && (e->ctx_read.kind == CTX_READ_KERNEL_CHARS || e->ctx_read.kind == CTX_READ_CHARS);
}

/* kernel_string(s), s a local holding a kernel char array: SystemTap's s is
 * the array's address, tap's the text it reads, so the call is s itself
 * (kernel_string_n(s, n): substr(s, 0, n), at most n bytes). Only while every value s is assigned is such an array (checked at later
 * assignments too: resolve.c note_char_array_store). */
static int string_of_char_array_local(struct sema *s, struct expr *e)
{
    struct expr *arg = e->call.args;
    enum builtin_id id = e->call.builtin->id;
    struct symbol *local = arg && arg->kind == EXPR_IDENT ? arg->symbol : NULL;
    if (!local || local->kind != SYMBOL_LOCAL || !local->char_array_stores || local->other_stores ||
        (id != BUILTIN_USER_STRING && id != BUILTIN_USER_STRING2 && id != BUILTIN_USER_STRING_N) ||
        strncmp(e->call.name, "kernel_string", 13) != 0)
        return 0;
    if (!local->char_array_read) {
        local->char_array_read = 1;
        local->char_array_read_span = e->span;
    }
    if (id == BUILTIN_USER_STRING_N) {   /* at most n bytes of the text: substr(s, 0, n) */
        struct expr *zero = ast_expr(s->arena, EXPR_INT, arg->span);
        zero->int_value = 0;
        zero->type = TYPE_LONG;
        zero->next = arg->next;
        arg->next = zero;
        e->call.name = "substr";
        e->call.builtin = builtin_overload("substr", 3);
        e->call.arg_count = 3;
        return 1;
    }
    struct expr *next = e->next;
    *e = *arg;
    e->next = next;
    return 1;
}

/* The string readers whose first argument is an address. */
static int reads_string_at(enum builtin_id id)
{
    switch (id) {
    case BUILTIN_USER_STRING: case BUILTIN_USER_STRING_N: case BUILTIN_USER_STRING2: case BUILTIN_USER_STRING_QUOTED:
    case BUILTIN_STRING_UTF16: case BUILTIN_STRING_UTF32: case BUILTIN_STRING_QUOTED_UTF16:
    case BUILTIN_STRING_QUOTED_UTF32: case BUILTIN_BUFFER_QUOTED: case BUILTIN_BUFFER_QUOTED_ERROR:
        return 1;
    default:
        return 0;
    }
}

/* kernel_string($p->comm): a char array is a string in tap, but SystemTap
 * passes the array's address to the string readers, so it is taken here; a
 * tracefs record's array ($prev_comm) has no address to read: the plain
 * reader of it is the string itself. */
static void string_of_char_array(struct sema *s, struct expr *e)
{
    struct expr *array = e->call.args;
    enum builtin_id id = e->call.builtin->id;
    if (string_of_char_array_local(s, e))
        return;
    if (!array || array->kind != EXPR_CTX_READ || !reads_string_at(id))
        return;
    struct expr *next = array->next;
    if (array->ctx_read.kind == CTX_READ_KERNEL_CHARS && array->ctx_read.address) {
        *array = *array->ctx_read.address;
        array->next = next;
    } else if (array->ctx_read.kind == CTX_READ_CHARS && id == BUILTIN_USER_STRING) {
        next = e->next;
        *e = *array;
        e->next = next;
    }
}

/* `local = value`: counts the char arrays a local holds (above). */
static void note_char_array_store(struct sema *s, struct expr *assign)
{
    struct expr *lhs = assign->assign.lhs;
    struct symbol *local = lhs->kind == EXPR_IDENT ? lhs->symbol : NULL;
    if (!local || local->kind != SYMBOL_LOCAL)
        return;
    if (assign->assign.op == ASSIGN_SET && is_char_array_read(assign->assign.rhs)) {
        local->char_array_stores++;
        return;
    }
    local->other_stores++;
    if (local->char_array_read)
        diag_error(s->diags, assign->span, "%s is read by kernel_string() at %d:%d as a kernel char array "
                   "(tap reads the array's text where SystemTap reads its address): this value is not one",
                   local->name, local->char_array_read_span.line, local->char_array_read_span.col);
}

static void resolve_call(struct sema *s, struct expr *e)
{
    resolve_list(s, e->call.args);
    if (!visible_function(s, e->call.name, e->span) && sema_lower_register_arg(s, e))
        return;
    int arity = e->call.arg_count;
    struct function_decl *fn = visible_overload(s, e->call.name, arity, e->span);
    const struct builtin *builtin = fn ? NULL : builtin_overload(e->call.name, arity);
    if (!fn && !builtin && sema_tapset_function(s, e->call.name))
        fn = visible_overload(s, e->call.name, arity, e->span);
    if (fn) {
        e->call.target = CALL_FUNCTION;
        e->call.function = fn;
        for (struct function_decl *f = fn; f; f = f->next_overload) {
            add_callee(s, f);
            if (f->is_builtin_tapset)   /* tapset functions are resolved when first called */
                sema_resolve_callee(s, f);
        }
        return;
    }
    if (builtin) {
        e->call.target = CALL_BUILTIN;
        e->call.builtin = builtin;
        string_of_char_array(s, e);
        if (builtin->id == BUILTIN_PERF_READ)
            sema_check_perf_read(s, e);
        return;
    }
    struct function_decl *hidden = sema_find_function(s, e->call.name);
    if (hidden && (!hidden->decl->is_private || hidden->decl->span.file == e->span.file)) {
        report_arities(s, e);
        return;
    }
    if (hidden) {
        diag_error(s->diags, e->span, "function %s is private to %s", e->call.name,
                   hidden->decl->span.file->name);
        return;
    }
    const char *similar = sema_similar_names(s, e->call.name, 1);
    if (*similar)
        diag_error(s->diags, e->span, "unresolved function %s (similar: %s)", e->call.name, similar);
    else
        diag_error(s->diags, e->span, "unresolved function %s", e->call.name);
}

/* How an assignment touches its target: a store (=, <<<); an update (++,
 * +=, ...) whose value is used; an update whose value is dropped (it is a
 * statement), which reads the old value without using it, so the global is
 * still printed at the end (SystemTap's rule: `n++` alone prints n). */
enum target_access { TARGET_STORE, TARGET_UPDATE, TARGET_UPDATE_DROPPED };

static enum target_access update_access(int value_used)
{
    return value_used ? TARGET_UPDATE : TARGET_UPDATE_DROPPED;
}

static void mark_target(struct symbol *sym, enum target_access access)
{
    if (!sym || access == TARGET_STORE)
        return;
    sym->is_read = 1;
    if (access == TARGET_UPDATE)
        sym->is_used = 1;
}

/* Assignment targets: a scalar name or an array element. */
static void resolve_lvalue(struct sema *s, struct expr *e, enum target_access access)
{
    switch (e->kind) {
    case EXPR_IDENT:
        e->symbol = resolve_name(s, e->ident.name, e->span, 1);
        mark_target(e->symbol, access);
        return;
    case EXPR_INDEX:
        e->symbol = resolve_array(s, e->index.array, e->index.index_count, 1);
        mark_target(e->symbol, access);
        resolve_list(s, e->index.indices);
        return;
    case EXPR_TARGET:
    case EXPR_CAST:
    case EXPR_VAR:
    case EXPR_AUTOCAST:
        sema_refuse_target_write(s, e);
        return;
    default:
        diag_error(s->diags, e->span, "the left side of an assignment must be a variable or an array element");
        resolve_expr(s, e);
    }
}

/* value_used: 0 when the value is dropped (an expression statement, a for
 * loop's init and step), which only matters to updates (++, +=). */
/* A condition made of @defined and `!` (`!@defined($p->in_iowait)`), which
 * folds to a constant once resolved: the branch it rules out is dropped
 * unresolved, as SystemTap elides it before reporting its target variables. */
static int tests_defined(const struct expr *e)
{
    while (e->kind == EXPR_UNARY && e->unary.op == UNARY_NOT)
        e = e->unary.operand;
    return e->kind == EXPR_DEFINED;
}

/* After resolution: `!` over a folded @defined becomes its constant. */
static int folded_defined(struct expr *e)
{
    if (e->kind == EXPR_UNARY && e->unary.op == UNARY_NOT && folded_defined(e->unary.operand)) {
        struct expr *next = e->next;
        *e = (struct expr){.kind = EXPR_INT, .span = e->span, .int_value = !e->unary.operand->int_value,
                           .type = TYPE_LONG};
        e->next = next;
    }
    return e->kind == EXPR_INT;
}

static void resolve_value(struct sema *s, struct expr *e, int value_used)
{
    switch (e->kind) {
    case EXPR_INT:
    case EXPR_STRING:
        return;
    case EXPR_IDENT:
        if (is_wildcard(e)) {
            diag_error(s->diags, e->span, "`*` matches keys only in foreach, delete and `in`");
            return;
        }
        e->symbol = resolve_name(s, e->ident.name, e->span, 0);
        return;
    case EXPR_UNARY:
        resolve_expr(s, e->unary.operand);
        return;
    case EXPR_BINARY:
        resolve_expr(s, e->binary.lhs);
        resolve_expr(s, e->binary.rhs);
        return;
    case EXPR_ASSIGN:
        switch (sema_lower_assign(s, e)) {
        case LOWER_RESOLVE_AGAIN:
            resolve_value(s, e, value_used);
            return;
        case LOWER_DONE:
            return;
        case LOWER_NOT_HERE:
            break;
        }
        resolve_expr(s, e->assign.rhs);
        resolve_lvalue(s, e->assign.lhs, e->assign.op == ASSIGN_SET ? TARGET_STORE : update_access(value_used));
        sema_assign_ctype(s, e);
        note_char_array_store(s, e);
        return;
    case EXPR_AGGREGATE:
        resolve_expr(s, e->aggregate.rhs);
        resolve_lvalue(s, e->aggregate.lhs, TARGET_STORE);
        return;
    case EXPR_INCDEC:
        resolve_lvalue(s, e->incdec.operand, update_access(value_used));
        return;
    case EXPR_TERNARY: {
        /* `@defined(x) ? x : y`: the branch not taken is dropped unresolved,
         * as SystemTap elides it (@choose_defined) */
        int defined_test = tests_defined(e->ternary.cond);
        resolve_expr(s, e->ternary.cond);
        if (defined_test && folded_defined(e->ternary.cond)) {
            struct expr *next = e->next;
            *e = *(e->ternary.cond->int_value ? e->ternary.then_expr : e->ternary.else_expr);
            e->next = next;
            resolve_value(s, e, value_used);
            return;
        }
        resolve_value(s, e->ternary.then_expr, value_used);
        resolve_value(s, e->ternary.else_expr, value_used);
        return;
    }
    case EXPR_CALL:
        resolve_call(s, e);
        return;
    case EXPR_INDEX:
        e->symbol = resolve_array(s, e->index.array, e->index.index_count, 0);
        resolve_list(s, e->index.indices);
        return;
    case EXPR_IN:
        resolve_keys(s, e->in.keys);
        e->symbol = resolve_array(s, e->in.array, e->in.key_count, 0);
        return;
    case EXPR_STAT:
        resolve_expr(s, e->stat.operand);
        resolve_list(s, e->stat.args);
        return;
    case EXPR_HIST_BUCKET:
        resolve_expr(s, e->hist_bucket.hist);
        resolve_expr(s, e->hist_bucket.bucket);
        return;
    case EXPR_CAST:
        resolve_expr(s, e->cast.address);
        __attribute__((fallthrough));
    case EXPR_ENTRY:
    case EXPR_DEFINED:
    case EXPR_TARGET:
    case EXPR_VAR:
        /* what they read is for the probe's kind to say (lower.c) */
        if (sema_lower_target_read(s, e) == LOWER_RESOLVE_AGAIN)
            resolve_value(s, e, value_used);
        return;
    case EXPR_AUTOCAST:
        /* `p->f`: p's C type comes from where its value came (autocast.c) */
        resolve_expr(s, e->autocast.operand);
        if (sema_lower_autocast(s, e))
            resolve_value(s, e, value_used);
        return;
    case EXPR_REGISTER:
        return;
    case EXPR_CTX_READ:
        /* kernel reads (@cast(p, ..., "kernel"), tracepoint arguments'
         * members) keep their address: its locals are read */
        if (e->ctx_read.address)
            resolve_expr(s, e->ctx_read.address);
        return;
    case EXPR_USER_READ:
        resolve_expr(s, e->user_read.address);
        return;
    }
}

void sema_resolve_expr(struct sema *s, struct expr *e)
{
    resolve_expr(s, e);
}

static void resolve_foreach(struct sema *s, struct stmt *st)
{
    st->foreach.array->symbol = resolve_array(s, st->foreach.array, st->foreach.key_count, 0);
    resolve_keys(s, st->foreach.slice);
    for (struct foreach_key *k = st->foreach.keys; k; k = k->next)
        k->symbol = resolve_name(s, k->name, k->span, 1);
    if (st->foreach.value_name)
        st->foreach.value_symbol = resolve_name(s, st->foreach.value_name, st->foreach.value_span, 1);
    if (st->foreach.limit)
        resolve_expr(s, st->foreach.limit);
    s->loop_depth++;
    resolve_stmt(s, st->foreach.body);
    s->loop_depth--;
}

/* SystemTap counts a delete as a use: a deleted global is not printed at the end. */
static void resolve_delete(struct sema *s, struct stmt *st)
{
    struct expr *target = st->expr;
    if (target->kind == EXPR_INDEX) {
        target->symbol = resolve_array(s, target->index.array, target->index.index_count, 1);
        if (target->symbol)
            target->symbol->is_used = 1;
        resolve_keys(s, target->index.indices);
    } else if (target->kind == EXPR_IDENT) {
        struct symbol *sym = sema_find_local(s->frame, target->ident.name);
        if (!sym)
            sym = sema_find_global(s, target->ident.name);
        if (!sym) {
            diag_error(s->diags, target->span, "unresolved variable %s in delete", target->ident.name);
            return;
        }
        sym->is_written = sym->is_used = 1;
        target->symbol = sym;
    } else {
        diag_error(s->diags, target->span, "delete needs a variable, an array or an array element");
    }
}

static void resolve_loop_body(struct sema *s, struct stmt *body)
{
    s->loop_depth++;
    resolve_stmt(s, body);
    s->loop_depth--;
}

static void resolve_stmt(struct sema *s, struct stmt *st)
{
    for (; st; st = st->next) {
        switch (st->kind) {
        case STMT_EMPTY:
            break;
        case STMT_BLOCK:
            resolve_stmt(s, st->block.body);
            break;
        case STMT_EXPR:
            resolve_value(s, st->expr, 0);
            break;
        case STMT_IF: {
            int defined_test = tests_defined(st->if_stmt.cond);
            resolve_expr(s, st->if_stmt.cond);
            if (defined_test && folded_defined(st->if_stmt.cond)) {
                /* `if (@defined(x))`: only the branch taken is resolved */
                struct stmt *dropped = st->if_stmt.cond->int_value ? st->if_stmt.else_stmt : st->if_stmt.then_stmt;
                if (dropped)
                    dropped->kind = STMT_EMPTY;
            }
            resolve_stmt(s, st->if_stmt.then_stmt);
            resolve_stmt(s, st->if_stmt.else_stmt);
            break;
        }
        case STMT_WHILE:
            resolve_expr(s, st->while_stmt.cond);
            resolve_loop_body(s, st->while_stmt.body);
            break;
        case STMT_FOR:
            if (st->for_stmt.init)
                resolve_value(s, st->for_stmt.init, 0);
            if (st->for_stmt.cond)
                resolve_expr(s, st->for_stmt.cond);
            if (st->for_stmt.step)
                resolve_value(s, st->for_stmt.step, 0);
            resolve_loop_body(s, st->for_stmt.body);
            break;
        case STMT_FOREACH:
            resolve_foreach(s, st);
            break;
        case STMT_BREAK:
        case STMT_CONTINUE:
            if (!s->loop_depth)
                diag_error(s->diags, st->span, "%s outside a loop",
                           st->kind == STMT_BREAK ? "break" : "continue");
            break;
        case STMT_NEXT:
            if (s->function && s->function->decl)
                s->function->has_next = 1;   /* the caller tries the next overload */
            break;
        case STMT_RETURN:
            /* Probe bodies resolve with a pseudo-function (no decl) that collects their calls. */
            if (!s->function || !s->function->decl)
                diag_error(s->diags, st->span, "return outside a function (use next to leave a probe)");
            if (st->expr) {
                resolve_expr(s, st->expr);
                sema_return_ctype(s, st->expr);
            }
            break;
        case STMT_DELETE:
            resolve_delete(s, st);
            break;
        case STMT_TRY:
            resolve_stmt(s, st->try_stmt.body);
            if (st->try_stmt.catch_var)
                st->try_stmt.catch_symbol = resolve_name(s, st->try_stmt.catch_var,
                                                         st->try_stmt.catch_span, 1);
            resolve_stmt(s, st->try_stmt.catch_body);
            break;
        case STMT_EMBEDDED:
            diag_error(s->diags, st->span,
                       "embedded C (%%{ %%}) is not available: tap runs scripts as BPF programs, with no guru mode");
            break;
        }
    }
}

void sema_resolve_body(struct sema *s, struct stmt *body)
{
    s->loop_depth = 0;
    resolve_stmt(s, body);
}
