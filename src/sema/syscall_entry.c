/* @entry(expr) and $argument in syscall.NAME.return (nd_syscall, nd1_syscall
 * too). tap's syscall aliases are the syscalls:sys_enter_NAME and
 * sys_exit_NAME tracepoints; the exit record holds only the return value.
 * As SystemTap's @entry in a .return probe, the value is taken at the
 * call: for each user probe whose points are all syscall return aliases,
 * a probe is written on the matching entry aliases that stores each
 * @entry's operand in a map by thread, and the .return handler reads them
 * back first thing (a thread is in one syscall at a time). No stored value
 * (the call began before tap attached) means no handler run, as a
 * kretprobe runs only where it saw the entry. `$fd` there is SystemTap's
 * entry value of the argument: it becomes @entry($fd), and int_arg(1) (any
 * argument reader of register_args.c) @entry(int_arg(1)): the exit record
 * has no arguments, and the registers at the return are no longer them. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "parser/parse.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"

struct entry_values {
    struct arena *arena;
    int probe;                   /* the probe's number among those rewritten */
    struct expr **operands;      /* each value, as written (spans kept) */
    int count, capacity;
};

static int is_return_alias(const struct probe_point *p)
{
    const struct probe_component *c = p->components;
    if (!c || (strcmp(c->name, "syscall") != 0 && strcmp(c->name, "nd_syscall") != 0 &&
               strcmp(c->name, "nd1_syscall") != 0))
        return 0;
    const struct probe_component *name = c->next;
    return name && name->arg_kind == PROBE_ARG_NONE && name->next && strcmp(name->next->name, "return") == 0 &&
           name->next->arg_kind == PROBE_ARG_NONE && !name->next->next;
}

/* The exit record's own fields and SystemTap's $return stay. */
static int is_entry_argument(const struct expr *e)
{
    const char *name = e->target.name;
    return name[0] != '$' && strcmp(name, "ret") != 0 && strcmp(name, "__syscall_nr") != 0 &&
           strcmp(name, "return") != 0;
}

static int is_argument_call(const struct expr *e)
{
    for (const struct register_arg_function *f = register_arg_functions; f->name; f++)
        if (!f->by_name && !f->returned && strcmp(f->name, e->call.name) == 0)
            return 1;
    return 0;
}

/* Pre-order: the node becomes the local the value is read into, so the
 * walk does not go into its operand. */
static void take_value(struct expr *e, void *data)
{
    struct entry_values *v = data;
    struct expr *operand;
    if (e->kind == EXPR_ENTRY) {
        operand = e->unary_at.operand;
    } else if ((e->kind == EXPR_TARGET && is_entry_argument(e)) || (e->kind == EXPR_CALL && is_argument_call(e))) {
        operand = ARENA_NEW(v->arena, struct expr);
        *operand = *e;
        operand->next = NULL;
    } else {
        return;
    }
    if (v->count == v->capacity) {
        int grown = v->capacity ? 2 * v->capacity : 4;
        v->operands = arena_realloc(v->arena, v->operands, sizeof(*v->operands) * (size_t)v->capacity,
                                    sizeof(*v->operands) * (size_t)grown);
        v->capacity = grown;
    }
    struct expr *next = e->next;
    struct span span = e->span;
    memset(e, 0, sizeof(*e));
    e->kind = EXPR_IDENT;
    e->ident.name = arena_printf(v->arena, "__tap_entry_v%d_%d", v->probe, v->count);
    e->span = span;
    e->next = next;
    v->operands[v->count++] = operand;
}

/* The entry probe, and the statements that start the .return handler. */
static void write_probe(struct strbuf *out, const struct decl *d, const struct entry_values *v)
{
    for (int k = 0; k < v->count; k++)
        strbuf_printf(out, "global __tap_entry_%d_%d\n", v->probe, k);
    strbuf_puts(out, "probe ");
    for (const struct probe_point *p = d->probe.points; p; p = p->next)
        strbuf_printf(out, "%s%s.%s%s", p == d->probe.points ? "" : ", ", p->components->name,
                      p->components->next->name, p->optional ? "?" : "");
    strbuf_puts(out, " {\n");
    for (int k = 0; k < v->count; k++)
        strbuf_printf(out, "  __tap_entry_%d_%d[tid()] = 0\n", v->probe, k);
    strbuf_printf(out, "}\nprobe never {\n  if (!(tid() in __tap_entry_%d_0)) next\n", v->probe);
    for (int k = 0; k < v->count; k++)
        strbuf_printf(out, "  __tap_entry_v%d_%d = __tap_entry_%d_%d[tid()]\n  delete __tap_entry_%d_%d[tid()]\n",
                      v->probe, k, v->probe, k, v->probe, k);
    strbuf_puts(out, "}\n");
}

/* The written entry probe's `= 0`s become the operands, in order. */
struct placement { struct expr **operands; int next; };

static void place_operand(struct expr *e, void *data)
{
    struct placement *p = data;
    if (e->kind != EXPR_ASSIGN || e->assign.rhs->kind != EXPR_INT)
        return;
    struct expr *rhs = e->assign.rhs, *next = rhs->next;
    *rhs = *p->operands[p->next++];
    rhs->next = next;
}

/* Splices one rewritten probe's text: the entry probe goes after the
 * user's declarations, the `never` probe's statements before the handler. */
static void splice(struct sema *s, struct ast *user, struct decl *d, const struct entry_values *v, const char *text)
{
    struct source_file *file = source_from_string(s->arena, "<@entry of a syscall return>", text, strlen(text));
    struct parse_options options = {0};
    struct ast *ast = parse_source(s->arena, s->diags, file, &options);
    if (!ast)
        return;
    struct decl *entry = NULL, *start = NULL;
    for (struct decl *g = ast->decls; g; g = g->next)
        if (g->kind == DECL_PROBE)
            *(entry ? &start : &entry) = g;
    struct placement placement = {v->operands, 0};
    ast_visit_exprs(entry->probe.body, place_operand, &placement);
    struct stmt **last = &start->probe.body->block.body;
    while (*last)
        last = &(*last)->next;
    *last = d->probe.body->block.body;
    d->probe.body->block.body = start->probe.body->block.body;
    struct decl **g = &ast->decls;
    while (*g != start)
        g = &(*g)->next;
    *g = start->next;
    struct decl **tail = &user->decls;
    while (*tail)
        tail = &(*tail)->next;
    *tail = ast->decls;
}

void sema_write_syscall_entries(struct sema *s, struct ast *user)
{
    int rewritten = 0;
    struct decl *last = user->decls;
    while (last && last->next)
        last = last->next;
    for (struct decl *d = user->decls; d; d = d == last ? NULL : d->next) {
        if (d->kind != DECL_PROBE || !d->probe.body || d->probe.body->kind != STMT_BLOCK)
            continue;
        int all = 1;
        for (const struct probe_point *p = d->probe.points; p && all; p = p->next)
            all = is_return_alias(p);
        if (!all)
            continue;
        struct entry_values v = {.arena = s->arena, .probe = rewritten};
        ast_visit_exprs(d->probe.body->block.body, take_value, &v);
        if (!v.count)
            continue;
        struct strbuf text;
        strbuf_init(&text);
        write_probe(&text, d, &v);
        splice(s, user, d, &v, arena_strdup(s->arena, text.data));
        strbuf_free(&text);
        rewritten++;
    }
}
