/* -l/-L for kernel tracepoints and probe aliases:
 *   kernel.trace("sched:sched_switch") $preempt:bool $prev:struct task_struct* ...
 *   kernel.trace("syscalls:sys_enter_read") $__syscall_nr:int $fd:unsigned int ...
 * A tracepoint lists its arguments (BTF prototype, in order), as a script
 * reads them ($prev->comm), then its tracefs record fields ($prev_comm), which
 * a probe may read instead of the arguments.
 *   syscall.read name:string fd:long buf_uaddr:long count:long argstr:string
 * Alias variables are the locals the alias's prologue sets, with their
 * inferred types, found by analysing `probe POINT {}`. */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "parser/parse.h"
#include "sema/btf_types.h"
#include "sema/sema.h"
#include "sema/tracepoint.h"

struct lines {
    char **items;
    int count, capacity;
};

static void add_line(struct lines *lines, char *line)
{
    if (lines->count == lines->capacity) {
        lines->capacity = lines->capacity ? lines->capacity * 2 : 64;
        lines->items = realloc(lines->items, sizeof(char *) * (size_t)lines->capacity);
    }
    lines->items[lines->count++] = line;
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, without duplicates; 1 when there was nothing to print. */
static int print_lines(FILE *out, struct lines *lines)
{
    if (lines->count)
        qsort(lines->items, (size_t)lines->count, sizeof(char *), compare_lines);
    for (int i = 0; i < lines->count; i++)
        if (i == 0 || strcmp(lines->items[i], lines->items[i - 1]) != 0)
            fprintf(out, "%s\n", lines->items[i]);
    for (int i = 0; i < lines->count; i++)   /* after: each line is compared with the one before */
        free(lines->items[i]);
    free(lines->items);
    return lines->count ? 0 : 1;
}

struct stub {
    const char *tracepoint;      /* the name after the prefix */
    int id;
};

struct trace_listing {
    struct arena *arena;
    struct lines lines;
    int with_variables;
    struct btf *btf;             /* vmlinux, NULL when it cannot be read */
    struct stub *stubs;          /* its __probestub_* and __traceiter_* functions (the same
                                    prototypes), sorted by tracepoint name */
    int stub_count;
};

static int compare_stubs(const void *a, const void *b)
{
    return strcmp(((const struct stub *)a)->tracepoint, ((const struct stub *)b)->tracepoint);
}

/* One pass over BTF instead of a linear search per tracepoint ("*:*" has thousands). */
static void index_stubs(struct trace_listing *l)
{
    int types = l->btf ? (int)btf__type_cnt(l->btf) : 0;
    size_t stub = strlen(BTF_STUB_PREFIX), iter = strlen(BTF_ITER_PREFIX);
    l->stubs = malloc(sizeof(*l->stubs) * (size_t)(types ? types : 1));
    for (int id = 1; id < types; id++) {
        const struct btf_type *t = btf__type_by_id(l->btf, (unsigned)id);
        const char *name = btf__name_by_offset(l->btf, t->name_off);
        if (!btf_is_func(t))
            continue;
        if (strncmp(name, BTF_STUB_PREFIX, stub) == 0)
            l->stubs[l->stub_count++] = (struct stub){name + stub, id};
        else if (strncmp(name, BTF_ITER_PREFIX, iter) == 0)
            l->stubs[l->stub_count++] = (struct stub){name + iter, id};
    }
    qsort(l->stubs, (size_t)l->stub_count, sizeof(*l->stubs), compare_stubs);
}

static const struct btf_type *find_prototype(const struct trace_listing *l, const char *tracepoint)
{
    struct stub key = {tracepoint, 0};
    const struct stub *found = bsearch(&key, l->stubs, (size_t)l->stub_count, sizeof(*l->stubs), compare_stubs);
    return found ? btf_stub_prototype(l->btf, found->id) : NULL;
}

/* " $name:type" for each argument of the prototype (NULL: none). */
static void spell_arguments(struct strbuf *sb, const struct btf *btf, const struct btf_type *proto)
{
    const struct btf_param *param = btf_params(proto);
    for (int i = 1; i < btf_vlen(proto); i++) {   /* 0 is the probe's private data */
        strbuf_printf(sb, " $%s:", btf__name_by_offset(btf, param[i].name_off));
        btf_type_spell(sb, btf, (int)param[i].type);
    }
}

static int is_argument(const struct btf *btf, const struct btf_type *proto, const char *name)
{
    const struct btf_param *param = btf_params(proto);
    for (int i = 1; i < btf_vlen(proto); i++)
        if (strcmp(btf__name_by_offset(btf, param[i].name_off), name) == 0)
            return 1;
    return 0;
}

/* The BTF arguments first, then the tracefs record fields a probe may read
 * instead (not both in one probe; a name that is both means the argument). */
static void list_event(const char *category, const char *name, void *data)
{
    struct trace_listing *l = data;
    struct tp_format *format = tracepoint_load_format(l->arena, category, name);
    if (!format || !format->field_count)
        return;
    struct strbuf sb;
    strbuf_init(&sb);
    strbuf_printf(&sb, "kernel.trace(\"%s:%s\")", category, name);
    if (l->with_variables) {
        const struct btf_type *proto = find_prototype(l, name);
        if (proto && btf_vlen(proto) < 2)
            proto = NULL;
        if (proto)
            spell_arguments(&sb, l->btf, proto);
        for (int i = 0; i < format->field_count; i++) {
            const struct tp_field *f = &format->fields[i];
            if (strncmp(f->name, "common_", 7) != 0 && !(proto && is_argument(l->btf, proto, f->name)))
                strbuf_printf(&sb, " $%s:%s", f->name, f->list_type);
        }
    }
    add_line(&l->lines, strdup(sb.data));
    strbuf_free(&sb);
}

int sema_list_tracepoints(FILE *out, struct arena *arena, struct diags *diags, const struct probe_point *parsed,
                          const char *point, int with_variables)
{
    (void)diags;
    (void)parsed;
    const char *open = strchr(point, '"'), *close = open ? strrchr(point, '"') : NULL;
    if (!open || close == open) {
        fprintf(stderr, "ERROR: kernel.trace needs a quoted name, as in kernel.trace(\"sched:*\")\n");
        return 1;
    }
    char *pattern = arena_printf(arena, "%.*s", (int)(close - open - 1), open + 1);
    struct trace_listing l = {.arena = arena, .with_variables = with_variables};
    l.btf = with_variables ? btf__load_vmlinux_btf() : NULL;
    index_stubs(&l);
    int matched = tracepoint_match(pattern, list_event, &l);
    free(l.stubs);
    btf__free(l.btf);
    if (matched < 0) {
        fprintf(stderr, "ERROR: %s\n", tracefs_unreadable(-matched));
        return 1;
    }
    if (print_lines(out, &l.lines)) {
        fprintf(stderr, "ERROR: no match for probe point %s\n", point);
        return 1;
    }
    return 0;
}
