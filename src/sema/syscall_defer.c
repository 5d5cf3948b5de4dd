/* Syscall-entry probes that read user strings. At sys_enter a path the
 * process has not touched yet is not resident, and a tracepoint program
 * cannot fault it in (this kernel lets only fentry, lsm, iter, uprobe and
 * struct_ops programs sleep). The kernel faults it in while copying it, so
 * by the matching sys_exit it reads. A probe on syscalls:sys_enter_NAME whose
 * body reads user strings at `const char *` fields of the record tries them
 * at entry; when one does not read, the handler runs at sys_exit_NAME instead,
 * on a copy of the entry's record (codegen/syscall_defer.c). */
#include <string.h>

#include "sema/builtins.h"
#include "sema/sema_internal.h"
#include "sema/tracepoint.h"

/* A `const char *` field of the record: what the syscall only reads, the
 * same at its exit (a `char *` buffer may be what it writes). */
static int input_string_field(const struct tp_format *format, const struct expr *e)
{
    if (e->kind != EXPR_CTX_READ || e->ctx_read.kind != CTX_READ_LONG)
        return 0;
    for (int i = 0; i < format->field_count; i++) {
        const struct tp_field *f = &format->fields[i];
        if (f->offset == e->ctx_read.offset)
            return strncmp(f->type, "const ", 6) == 0 && strchr(f->type, '*') && f->array_len < 0;
    }
    return 0;
}

struct checks {
    struct arena *arena;
    struct probe *probe;
    int capacity;
};

static void note_string_read(struct expr *e, void *data)
{
    struct checks *c = data;
    if (e->kind != EXPR_CALL || !e->call.args || e->call.target != CALL_BUILTIN)
        return;
    const struct builtin *b = e->call.builtin;
    if (
        (b->id != BUILTIN_USER_STRING && b->id != BUILTIN_USER_STRING_N && b->id != BUILTIN_USER_STRING2 &&
         b->id != BUILTIN_USER_STRING_QUOTED) ||
        !input_string_field(c->probe->tracepoint.format, e->call.args))
        return;
    struct probe *p = c->probe;
    for (int i = 0; i < p->tracepoint.user_check_count; i++)
        if (p->tracepoint.user_checks[i]->ctx_read.offset == e->call.args->ctx_read.offset)
            return;   /* checked once */
    if (p->tracepoint.user_check_count == c->capacity) {
        int grown = c->capacity ? c->capacity * 2 : 4;
        p->tracepoint.user_checks = arena_realloc(c->arena, p->tracepoint.user_checks, sizeof(*p->tracepoint.user_checks) * (size_t)c->capacity,
                                       sizeof(*p->tracepoint.user_checks) * (size_t)grown);
        c->capacity = grown;
    }
    p->tracepoint.user_checks[p->tracepoint.user_check_count++] = e->call.args;
}

/* The fixed fields' extent; -1 when strings follow them (__data_loc): the
 * copy would not hold those. */
static int record_size(const struct tp_format *format)
{
    int size = 0;
    for (int i = 0; i < format->field_count; i++)
        if (format->fields[i].is_data_loc)
            return -1;
        else if (format->fields[i].offset + format->fields[i].size > size)
            size = format->fields[i].offset + format->fields[i].size;
    return size;
}

void sema_plan_syscall_deferral(struct sema *s)
{
    for (int i = 0; i < s->script->probe_count; i++) {
        struct probe *p = s->script->probes[i];
        const struct tracepoint_probe *tp = probe_tracepoint(p);
        if (tp->raw || !tp->format || strcmp(tp->category, "syscalls") != 0 || strncmp(p->tp_name, "sys_enter_", 10) != 0)
            continue;
        struct checks c = {s->arena, p, 0};
        ast_visit_exprs(p->body, note_string_read, &c);
        if (!p->tracepoint.user_check_count)
            continue;
        const char *exit_name = arena_printf(s->arena, "sys_exit_%s", p->tp_name + 10);
        if (!tracepoint_load_format(s->arena, "syscalls", exit_name) || record_size(p->tracepoint.format) < 0) {
            p->tracepoint.user_check_count = 0;   /* read at entry only, as before */
            continue;
        }
        p->tracepoint.exit_name = exit_name;
        p->tracepoint.record_size = record_size(p->tracepoint.format);
    }
}
