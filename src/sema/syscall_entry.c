/* @entry(expr) and $argument where a syscall returns: syscall.NAME.return
 * (nd_syscall, nd1_syscall too) and the syscalls:sys_exit_NAME tracepoint
 * its alias sits on; the exit record holds only the return value. As
 * SystemTap's @entry in a .return probe, the value is taken at the call:
 * for a body whose points all have such a call (a user's probe, or a
 * tapset alias's own body as it is expanded: syscall.wait4.return's
 * status_str), a probe is written on the matching entry points that stores
 * each @entry's operand in a map by thread, and the body reads them back
 * first thing (a thread is in one syscall at a time). No stored value (the
 * call began before tap attached) means no handler run, as a kretprobe runs
 * only where it saw the entry. `$fd` there is SystemTap's entry value of the
 * argument: it becomes @entry($fd), and int_arg(1) (any argument reader of
 * register_args.c) @entry(int_arg(1)): the exit record has no arguments,
 * and the registers at the return are no longer them. */
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

/* Where the values of a body on p are taken: syscall.NAME for
 * syscall.NAME.return, syscalls:sys_enter_NAME for syscalls:sys_exit_NAME;
 * NULL for a point with no such call. */
static const char *entry_point(struct sema *s, const struct probe_point *p)
{
    const struct probe_component *c = p->components, *name = c ? c->next : NULL;
    const char *optional = p->optional ? "?" : "";
    if (name && strcmp(c->name, "kernel") == 0 && strcmp(name->name, "trace") == 0 && !name->next &&
        name->arg_kind == PROBE_ARG_STRING && strncmp(name->arg_string, "syscalls:sys_exit_", 18) == 0)
        return arena_printf(s->arena, "kernel.trace(\"syscalls:sys_enter_%s\")%s", name->arg_string + 18,
                            optional);
    if (!name || (strcmp(c->name, "syscall") != 0 && strcmp(c->name, "nd_syscall") != 0 &&
                  strcmp(c->name, "nd1_syscall") != 0))
        return NULL;
    if (name->arg_kind != PROBE_ARG_NONE || !name->next || strcmp(name->next->name, "return") != 0 ||
        name->next->arg_kind != PROBE_ARG_NONE || name->next->next)
        return NULL;
    return arena_printf(s->arena, "%s.%s%s", c->name, name->name, optional);
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

/* The entry probe on `points`, and the statements that start the body. */
static void write_probe(struct strbuf *out, const char *points, const struct entry_values *v)
{
    for (int k = 0; k < v->count; k++)
        strbuf_printf(out, "global __tap_entry_%d_%d\n", v->probe, k);
    strbuf_printf(out, "probe %s {\n", points);
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

/* Splices one rewritten body's text: the `never` probe's statements start
 * the body; the maps and the entry probe are returned. */
static struct decl *splice(struct sema *s, struct stmt *body, const struct entry_values *v, const char *text)
{
    struct source_file *file = source_from_string(s->arena, "<@entry of a syscall return>", text, strlen(text));
    struct parse_options options = {0};
    struct ast *ast = parse_source(s->arena, s->diags, file, &options);
    if (!ast)
        return NULL;
    struct decl *entry = NULL, *start = NULL;
    for (struct decl *g = ast->decls; g; g = g->next)
        if (g->kind == DECL_PROBE)
            *(entry ? &start : &entry) = g;
    struct placement placement = {v->operands, 0};
    ast_visit_exprs(entry->probe.body, place_operand, &placement);
    struct stmt **last = &start->probe.body->block.body;
    while (*last)
        last = &(*last)->next;
    *last = body->block.body;
    body->block.body = start->probe.body->block.body;
    entry->next = NULL;   /* `start` is spent */
    return ast->decls;
}

/* The entry points of the points from `points` to `end`, or NULL when one
 * has none. */
static const char *entry_points(struct sema *s, const struct probe_point *points, const struct probe_point *end)
{
    const char *text = NULL;
    for (const struct probe_point *p = points; p != end; p = p->next) {
        const char *entry = entry_point(s, p);
        if (!entry)
            return NULL;
        text = text ? arena_printf(s->arena, "%s, %s", text, entry) : entry;
    }
    return text;
}

struct decl *sema_take_entry_values(struct sema *s, const struct probe_point *points,
                                    const struct probe_point *end, struct stmt *body)
{
    const char *points_text = entry_points(s, points, end);
    if (!points_text || !body || body->kind != STMT_BLOCK)
        return NULL;
    struct entry_values v = {.arena = s->arena, .probe = s->entry_probes};
    ast_visit_exprs(body->block.body, take_value, &v);
    if (!v.count)
        return NULL;
    s->entry_probes++;
    struct strbuf text;
    strbuf_init(&text);
    write_probe(&text, points_text, &v);
    struct decl *decls = splice(s, body, &v, arena_strdup(s->arena, text.data));
    strbuf_free(&text);
    return decls;
}

void sema_write_syscall_entries(struct sema *s, struct ast *user)
{
    struct decl *last = user->decls;
    while (last && last->next)
        last = last->next;
    struct decl **tail = last ? &last->next : &user->decls;
    for (struct decl *d = user->decls; d; d = d == last ? NULL : d->next) {
        if (d->kind != DECL_PROBE)
            continue;
        *tail = sema_take_entry_values(s, d->probe.points, NULL, d->probe.body);
        while (*tail)
            tail = &(*tail)->next;
    }
}
