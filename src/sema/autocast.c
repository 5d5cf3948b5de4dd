/* Autocast (autocast.h): which C type a value has, and `->`/`[i]`/`&`/`$`
 * through it. A local's type is checked in both directions: a use fixes
 * it, and a later assignment of another type is an error, since a loop may
 * bring that value back to the use. */
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>

#include "base/strbuf.h"
#include "sema/autocast.h"
#include "sema/builtins.h"

void sema_note_dwarf_ctype(struct sema *s, struct expr *e, Dwarf_Die *type, int address_of)
{
    struct c_type *t = ARENA_NEW(s->arena, struct c_type);
    t->source = C_TYPE_DWARF;
    t->die = *type;
    t->address_of = address_of;
    e->ctype = t;
}

void sema_note_btf_ctype(struct sema *s, struct expr *e, struct btf *btf, int type_id, int address_of)
{
    const char *module = sema_btf_module(s, btf);
    if (btf != s->kernel_btf && !module)
        return;
    struct c_type *t = ARENA_NEW(s->arena, struct c_type);
    t->source = C_TYPE_BTF;
    t->module = module;
    t->type_id = type_id;
    t->address_of = address_of;
    e->ctype = t;
}

/* --- one type or two ------------------------------------------------------- */

static int same_name(Dwarf_Die *a, Dwarf_Die *b)
{
    const char *x = dwarf_diename(a), *y = dwarf_diename(b);
    return x == y || (x && y && strcmp(x, y) == 0);
}

/* The same type, maybe spelled by two DIEs (typedefs, qualifiers, two CUs'
 * copies of one struct): compared through pointers, by tag, name and size. */
static int same_dwarf_type(Dwarf_Die *a, Dwarf_Die *b, int depth)
{
    Dwarf_Die x, y;
    if (!dwarf_type_resolve(a, &x) || !dwarf_type_resolve(b, &y))
        return 0;
    if (x.addr == y.addr)
        return 1;
    int tag = dwarf_tag(&x);
    if (tag != dwarf_tag(&y) || depth > 8)
        return 0;
    Dwarf_Die xt, yt;
    if (dwarf_tag_is_pointer(tag) || tag == DW_TAG_array_type) {
        int has_x = dwarf_die_type(&x, &xt), has_y = dwarf_die_type(&y, &yt);
        return has_x == has_y && (!has_x || same_dwarf_type(&xt, &yt, depth + 1));
    }
    Dwarf_Attribute attr;
    Dwarf_Word xs = 0, ys = 0;
    if (dwarf_attr_integrate(&x, DW_AT_byte_size, &attr))
        dwarf_formudata(&attr, &xs);
    if (dwarf_attr_integrate(&y, DW_AT_byte_size, &attr))
        dwarf_formudata(&attr, &ys);
    return same_name(&x, &y) && xs == ys && dwarf_diename(&x);
}

static int same_btf_type(struct btf *btf, int a, int b, int depth)
{
    a = btf__resolve_type(btf, (uint32_t)a);
    b = btf__resolve_type(btf, (uint32_t)b);
    if (a == b)
        return 1;
    const struct btf_type *x = btf__type_by_id(btf, (uint32_t)a), *y = btf__type_by_id(btf, (uint32_t)b);
    return x && y && btf_is_ptr(x) && btf_is_ptr(y) && depth < 8 &&
           same_btf_type(btf, (int)x->type, (int)y->type, depth + 1);
}

/* The pointed-to type of a pointer type: `&x` of type T is a T *. */
static int dwarf_pointee(Dwarf_Die *type, Dwarf_Die *out)
{
    Dwarf_Die resolved;
    return dwarf_type_resolve(type, &resolved) && dwarf_tag_is_pointer(dwarf_tag(&resolved)) &&
           dwarf_die_type(&resolved, out);
}

static int btf_pointee(struct btf *btf, int id)
{
    const struct btf_type *t = btf__type_by_id(btf, (uint32_t)btf__resolve_type(btf, (uint32_t)id));
    return t && btf_is_ptr(t) ? (int)t->type : -1;
}

static int same_ctype(struct sema *s, const struct c_type *a, const struct c_type *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->source != b->source)
        return 0;
    if (a->address_of && !b->address_of) {   /* an address of T, a T * */
        const struct c_type *swap = a;
        a = b;
        b = swap;
    }
    int pointee = a->address_of != b->address_of;
    if (a->source == C_TYPE_DWARF) {
        Dwarf_Die target;
        if (pointee)
            return dwarf_pointee((Dwarf_Die *)&a->die, &target) && same_dwarf_type(&target, (Dwarf_Die *)&b->die, 0);
        return same_dwarf_type((Dwarf_Die *)&a->die, (Dwarf_Die *)&b->die, 0);
    }
    if ((a->module == NULL) != (b->module == NULL) || (a->module && strcmp(a->module, b->module) != 0))
        return 0;
    struct btf *btf = sema_probe_btf(s, a->module);
    int a_id = pointee && btf ? btf_pointee(btf, a->type_id) : a->type_id;
    return btf && a_id >= 0 && same_btf_type(btf, a_id, b->type_id, 0);
}

static const char *ctype_text(struct sema *s, const struct c_type *t)
{
    const char *text = "?";
    if (t->source == C_TYPE_DWARF) {
        struct strbuf sb;
        strbuf_init(&sb);
        dwarf_type_spell(&sb, (Dwarf_Die *)&t->die);
        text = arena_strdup(s->arena, sb.data ? sb.data : "?");
        strbuf_free(&sb);
    } else {
        struct btf *btf = sema_probe_btf(s, t->module);
        text = btf ? sema_btf_type_text(s, btf, t->type_id) : "?";
    }
    return t->address_of ? arena_printf(s->arena, "%s *", text) : text;
}

static const char *where(struct sema *s, struct span span)
{
    return arena_printf(s->arena, "%d:%d", span.line, span.col);
}

/* --- flow through locals and returns -------------------------------------- */

static const struct c_type *value_ctype(struct sema *s, struct expr *e, const char **why);

/* The local takes t, assigned at span. */
static void merge_local(struct sema *s, struct symbol *local, const struct c_type *t, struct span span)
{
    if (!t || same_ctype(s, local->ctype, t))
        return;   /* an untyped value (0, p + 8) leaves the type, as in SystemTap */
    if (!local->ctype) {
        local->ctype = t;
        local->ctype_span = span;
    } else if (local->ctype_used) {
        diag_error(s->diags, span, "%s holds a %s here, but `->` at %s reads it as a %s (assigned at %s)",
                   local->name, ctype_text(s, t), where(s, local->ctype_use_span), ctype_text(s, local->ctype),
                   where(s, local->ctype_span));
    } else if (!local->other_ctype) {
        local->other_ctype = t;
        local->other_ctype_span = span;
    }
}

/* A call of a script function not analysed yet: its return type is asked
 * for when the local is read through (the probes are resolved before the
 * script's functions, whose diagnostics keep their order). */
static int is_pending_call(const struct expr *e)
{
    return e->kind == EXPR_CALL && e->call.target == CALL_FUNCTION && !e->call.function->is_resolved;
}

void sema_assign_ctype(struct sema *s, struct expr *assign)
{
    struct expr *lhs = assign->assign.lhs, *rhs = assign->assign.rhs;
    struct symbol *local = lhs->kind == EXPR_IDENT ? lhs->symbol : NULL;
    if (assign->assign.op != ASSIGN_SET || !local || local->kind != SYMBOL_LOCAL)
        return;
    if (is_pending_call(rhs) && !local->ctype_used && local->pending_call_count < MAX_PENDING_CALLS) {
        local->pending_calls[local->pending_call_count++] = rhs;
        return;
    }
    const char *why = NULL;
    merge_local(s, local, value_ctype(s, rhs, &why), assign->span);
}

void sema_return_ctype(struct sema *s, struct expr *value)
{
    struct function_decl *fn = s->function;
    const char *why = NULL;
    const struct c_type *t = fn && fn->decl ? value_ctype(s, value, &why) : NULL;
    if (!t || same_ctype(s, fn->return_ctype, t))
        return;
    if (!fn->return_ctype) {
        fn->return_ctype = t;
        fn->return_ctype_span = value->span;
    } else if (!fn->other_return_ctype) {
        fn->other_return_ctype = t;
        fn->other_return_span = value->span;
    }
}

/* A use before the first typed assignment (a loop brings that value
 * back): the first `local = $v` (or @cast, @var) anywhere in the body types
 * the local, as SystemTap infers it both ways. A quiet copy of the value is
 * lowered for its type; the assignment itself is lowered in its turn. */
struct later_assignment {
    struct sema *s;
    struct symbol *local;
    int done;
};

static void type_from_assignment(struct expr *e, void *data)
{
    struct later_assignment *later = data;
    if (later->done || e->kind != EXPR_ASSIGN || e->assign.op != ASSIGN_SET || e->assign.lhs->kind != EXPR_IDENT ||
        strcmp(e->assign.lhs->ident.name, later->local->name) != 0)
        return;
    struct expr *rhs = e->assign.rhs;
    if (rhs->kind != EXPR_TARGET && rhs->kind != EXPR_CAST && rhs->kind != EXPR_VAR)
        return;
    struct sema *s = later->s;
    struct expr *copy = sema_clone_expr(s->arena, rhs);
    struct diags quiet, *saved = s->diags;
    diags_init(&quiet);
    s->diags = &quiet;
    sema_resolve_expr(s, copy);
    s->diags = saved;
    if (quiet.error_count == 0 && copy->ctype) {
        merge_local(s, later->local, copy->ctype, e->span);
        later->done = 1;
    }
    diags_free(&quiet);
}

static void type_from_later_assignment(struct sema *s, struct symbol *local)
{
    /* a probe's body is resolved as a function without a declaration */
    struct stmt *body = s->function && s->function->decl ? s->function->decl->function.body
                      : s->probe ? s->probe->body : NULL;
    struct later_assignment later = {.s = s, .local = local};
    if (body)
        ast_visit_exprs(body, type_from_assignment, &later);
}

static const struct c_type *local_ctype(struct sema *s, struct expr *e, const char **why)
{
    struct symbol *sym = e->symbol;
    if (!sym)
        return NULL;
    if (sym->kind == SYMBOL_GLOBAL) {
        *why = arena_printf(s->arena, "%s is a global: C types stay with locals (use @cast)", sym->name);
        return NULL;
    }
    if (sym->kind == SYMBOL_PARAM) {
        *why = arena_printf(s->arena, "%s is a function parameter, which has no C type (use @cast)", sym->name);
        return NULL;
    }
    for (int i = 0; i < sym->pending_call_count; i++) {
        const char *ignored = NULL;
        merge_local(s, sym, value_ctype(s, sym->pending_calls[i], &ignored), sym->pending_calls[i]->span);
    }
    sym->pending_call_count = 0;
    if (!sym->ctype)
        type_from_later_assignment(s, sym);
    if (sym->other_ctype) {
        *why = arena_printf(s->arena, "%s is assigned a %s at %s and a %s at %s", sym->name,
                            ctype_text(s, sym->ctype), where(s, sym->ctype_span), ctype_text(s, sym->other_ctype),
                            where(s, sym->other_ctype_span));
        return NULL;
    }
    if (!sym->ctype) {
        *why = arena_printf(s->arena, "%s has no C type here: assign it a target variable, a @cast or a "
                            "value of one", sym->name);
        return NULL;
    }
    if (!sym->ctype_used) {
        sym->ctype_used = 1;
        sym->ctype_use_span = e->span;
    }
    return sym->ctype;
}

/* A function's returns, its body resolved first when not yet done. */
/* task_current() is SystemTap's @task: a struct task_struct * of the kernel. */
static const struct c_type *task_ctype(struct sema *s, const char **why)
{
    struct btf *btf = sema_kernel_btf(s);
    int id = btf ? btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT) : -1;
    if (id <= 0) {
        *why = "task_current()->...: the kernel's BTF has no struct task_struct";
        return NULL;
    }
    struct expr typed = {0};
    sema_note_btf_ctype(s, &typed, btf, id, 1);
    return typed.ctype;
}

static const struct c_type *return_ctype(struct sema *s, struct expr *e, const char **why)
{
    if (e->call.target == CALL_BUILTIN && e->call.builtin->id == BUILTIN_TASK_CURRENT)
        return task_ctype(s, why);
    struct function_decl *fn = e->call.target == CALL_FUNCTION ? e->call.function : NULL;
    if (!fn) {
        *why = arena_printf(s->arena, "%s() returns a value without a C type (use @cast)", e->call.name);
        return NULL;
    }
    if (fn->is_resolving) {
        *why = arena_printf(s->arena, "%s() is still being analysed here (a recursive call): its C type is "
                            "not known (use @cast)", fn->name);
        return NULL;
    }
    sema_resolve_callee(s, fn);
    if (fn->other_return_ctype) {
        *why = arena_printf(s->arena, "%s() returns a %s at %s and a %s at %s", fn->name,
                            ctype_text(s, fn->return_ctype), where(s, fn->return_ctype_span),
                            ctype_text(s, fn->other_return_ctype), where(s, fn->other_return_span));
        return NULL;
    }
    if (!fn->return_ctype)
        *why = arena_printf(s->arena, "%s() returns a value without a C type (use @cast)", fn->name);
    return fn->return_ctype;
}

static const struct c_type *value_ctype(struct sema *s, struct expr *e, const char **why)
{
    if (e->ctype)
        return e->ctype;   /* a lowered read, even one that became its address operand (`&@cast(p, ...)`) */
    switch (e->kind) {
    case EXPR_IDENT: return local_ctype(s, e, why);
    case EXPR_ASSIGN: return e->assign.op == ASSIGN_SET ? value_ctype(s, e->assign.rhs, why) : NULL;
    case EXPR_CALL: return return_ctype(s, e, why);
    case EXPR_INDEX:
        *why = "array elements have no C type (use @cast)";
        return NULL;
    case EXPR_TERNARY: {
        const struct c_type *a = value_ctype(s, e->ternary.then_expr, why);
        const struct c_type *b = a ? value_ctype(s, e->ternary.else_expr, why) : NULL;
        if (a && b && !same_ctype(s, a, b))
            *why = arena_printf(s->arena, "the two values of ?: have different C types (%s, %s)",
                                ctype_text(s, a), ctype_text(s, b));
        return a && b && same_ctype(s, a, b) ? a : NULL;
    }
    default:
        *why = "this value has no C type: `->` and `[]` apply to a target variable, a @cast, or a local "
               "or function result holding one";
        return NULL;
    }
}

/* "p", "f()", "a[...]" or "(...)": the operand as errors name it. */
static const char *operand_text(struct sema *s, const struct expr *e)
{
    switch (e->kind) {
    case EXPR_IDENT: return e->ident.name;
    case EXPR_CALL: return arena_printf(s->arena, "%s()", e->call.name);
    case EXPR_INDEX:
        return e->index.array->kind == EXPR_IDENT ? arena_printf(s->arena, "%s[...]", e->index.array->ident.name)
                                                  : "(...)";
    default: return "(...)";
    }
}

int sema_lower_autocast(struct sema *s, struct expr *e)
{
    const char *why = NULL;
    const struct c_type *t = value_ctype(s, e->autocast.operand, &why);
    if (!t) {
        diag_error(s->diags, e->span, "%s", why ? why : "this value has no C type");
        return 0;
    }
    const char *what = operand_text(s, e->autocast.operand);
    return t->source == C_TYPE_DWARF ? target_lower_autocast(s, e, t, what) : sema_lower_btf_autocast(s, e, t, what);
}

/* @defined(p->f): 1 when a copy resolves and lowers without a diagnostic. */
int sema_autocast_defined(struct sema *s, struct expr *e)
{
    struct expr *copy = sema_clone_expr(s->arena, e->unary_at.operand);
    struct diags quiet, *saved = s->diags;
    diags_init(&quiet);
    s->diags = &quiet;
    sema_resolve_expr(s, copy);
    s->diags = saved;
    int defined = quiet.error_count == 0;
    diags_free(&quiet);
    struct expr *next = e->next;
    struct span span = e->span;
    *e = (struct expr){.kind = EXPR_INT, .span = span, .next = next, .int_value = defined, .type = TYPE_LONG};
    return 1;
}
