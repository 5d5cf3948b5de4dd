/* --dump-functions, --dump-probe-types, --dump-probe-aliases: what tap knows,
 * one sorted line per entry, as SystemTap's options of those names print it.
 * docs/language.md and docs/probes.md list the same lines (a test checks). */
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "kinds/kinds.h"
#include "sema/builtins.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"

struct lines {
    struct arena *arena;
    const char **items;
    int count, capacity;
};

static void add_line(struct lines *l, const char *line)
{
    if (l->count == l->capacity) {
        int capacity = l->capacity ? l->capacity * 2 : 128;
        l->items = arena_realloc(l->arena, l->items, sizeof(*l->items) * (size_t)l->capacity,
                                 sizeof(*l->items) * (size_t)capacity);
        l->capacity = capacity;
    }
    l->items[l->count++] = line;
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void print_lines(struct lines *l, FILE *out)
{
    qsort(l->items, (size_t)l->count, sizeof(*l->items), compare_lines);
    for (int i = 0; i < l->count; i++)
        if (i == 0 || strcmp(l->items[i], l->items[i - 1]) != 0)
            fprintf(out, "%s\n", l->items[i]);
}

static const char *declared_name(enum param_type_decl type)
{
    return type == PARAM_TYPE_LONG ? "long" : type == PARAM_TYPE_STRING ? "string" : "unknown";
}

/* "name:type (arg:type, ...)"; builtins have no parameter names, only types. */
static void add_builtins(struct lines *l)
{
    static const char *const variadic[] = {
        [BUILTIN_ARGS_FORMAT] = "format:string, ...", [BUILTIN_ARGS_ANY] = "...",
        [BUILTIN_ARGS_DELIMITED] = "delimiter:string, ...",
    };
    for (int i = 0; builtin_at(i); i++) {
        const struct builtin *b = builtin_at(i);
        if (b->name[0] == '_')
            continue;   /* internal to the tapsets */
        struct strbuf sb;
        strbuf_init(&sb);
        strbuf_printf(&sb, "%s:%s (", b->name, b->return_type == TYPE_VOID ? "unknown" : value_type_name(b->return_type));
        if (b->args != BUILTIN_ARGS_FIXED)
            strbuf_puts(&sb, variadic[b->args]);
        for (int a = 0; b->args == BUILTIN_ARGS_FIXED && a < b->arg_count; a++)
            strbuf_printf(&sb, "%s%s", a ? ", " : "", value_type_name(b->arg_types[a]));
        strbuf_putc(&sb, ')');
        add_line(l, arena_strdup(l->arena, sb.data));
        strbuf_free(&sb);
    }
    for (const struct register_arg_function *f = register_arg_functions; f->name; f++)
        add_line(l, arena_printf(l->arena, "%s:long (%s)", f->name,
                                 f->returned ? "" : f->by_name ? "name:string" : "n:long"));
    add_line(l, "returnstr:string (format:long)");   /* return_str(format, returnval()) */
}

static void add_tapset_function(void *context, const struct decl *d)
{
    struct lines *l = context;
    if (d->kind != DECL_FUNCTION || d->function.name[0] == '_' || d->is_private)
        return;
    struct strbuf sb;
    strbuf_init(&sb);
    strbuf_printf(&sb, "%s:%s (", d->function.name, declared_name(d->function.declared_return));
    for (const struct param *p = d->function.params; p; p = p->next)
        strbuf_printf(&sb, "%s%s:%s", p == d->function.params ? "" : ", ", p->name, declared_name(p->declared));
    strbuf_putc(&sb, ')');
    add_line(l, arena_strdup(l->arena, sb.data));
    strbuf_free(&sb);
}

void sema_dump_functions(struct arena *arena, struct diags *diags, const struct sema_options *options, FILE *out)
{
    struct sema s = {.arena = arena, .diags = diags, .options = options};
    struct lines l = {.arena = arena};
    add_builtins(&l);
    sema_tapset_each_decl(&s, add_tapset_function, &l);
    print_lines(&l, out);
}

static void add_catalogue_line(void *lines, const char *line)
{
    add_line(lines, line);
}

/* Each kind lists its own forms. */
void sema_dump_probe_types(struct arena *arena, FILE *out)
{
    struct lines l = {.arena = arena};
    for (int k = 0; k < PROBE_KIND_COUNT; k++)
        if (probe_kind_ops(k)->catalogue)
            probe_kind_ops(k)->catalogue(arena, add_catalogue_line, &l);
    print_lines(&l, out);
}

struct alias_lines {
    struct sema *s;
    struct lines lines;
};

static void add_alias(void *context, const struct decl *d)
{
    struct alias_lines *a = context;
    if (d->kind != DECL_ALIAS)
        return;
    struct strbuf targets;
    strbuf_init(&targets);
    for (const struct probe_point *p = d->alias.points; p; p = p->next)
        strbuf_printf(&targets, "%s%s%s", p == d->alias.points ? "" : ", ", sema_point_text(a->s, p),
                      p->sufficient ? "!" : p->optional ? "?" : "");
    for (const struct probe_point *name = d->alias.names; name; name = name->next)
        add_line(&a->lines, arena_printf(a->s->arena, "%s %s %s", sema_point_text(a->s, name),
                                         d->alias.is_epilogue ? "+=" : "=", targets.data ? targets.data : ""));
    strbuf_free(&targets);
}

void sema_dump_probe_aliases(struct arena *arena, struct diags *diags, const struct sema_options *options,
                             FILE *out)
{
    struct sema s = {.arena = arena, .diags = diags, .options = options};
    struct alias_lines a = {.s = &s, .lines = {.arena = arena}};
    sema_tapset_each_decl(&s, add_alias, &a);
    print_lines(&a.lines, out);
}
