/* -l/-L for kernel tracepoints and probe aliases:
 *   kernel.trace("syscalls:sys_enter_read") $__syscall_nr:int $fd:unsigned int ...
 *   syscall.read name:string fd:long buf_uaddr:long count:long argstr:string
 * Alias variables are the locals the alias's prologue sets, with their
 * inferred types, found by analysing `probe POINT {}`. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "parser/parse.h"
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

struct trace_listing {
    struct arena *arena;
    struct lines lines;
    int with_variables;
};

static void list_event(const char *category, const char *name, void *data)
{
    struct trace_listing *l = data;
    struct tp_format *format = tracepoint_load_format(l->arena, category, name);
    if (!format || !format->field_count)
        return;
    struct strbuf sb;
    strbuf_init(&sb);
    strbuf_printf(&sb, "kernel.trace(\"%s:%s\")", category, name);
    for (int i = 0; l->with_variables && i < format->field_count; i++) {
        const struct tp_field *f = &format->fields[i];
        if (strncmp(f->name, "common_", 7) != 0)
            strbuf_printf(&sb, " $%s:%s", f->name, f->list_type);
    }
    add_line(&l->lines, strdup(sb.data));
    strbuf_free(&sb);
}

int sema_list_tracepoints(FILE *out, struct arena *arena, const char *point, int with_variables)
{
    const char *open = strchr(point, '"'), *close = open ? strrchr(point, '"') : NULL;
    if (!open || close == open) {
        fprintf(stderr, "ERROR: kernel.trace needs a quoted name, as in kernel.trace(\"sched:*\")\n");
        return 1;
    }
    char *pattern = arena_printf(arena, "%.*s", (int)(close - open - 1), open + 1);
    struct trace_listing l = {.arena = arena, .with_variables = with_variables};
    if (tracepoint_match(pattern, list_event, &l) < 0) {
        fprintf(stderr, "ERROR: tracefs is not available (mount -t tracefs nodev /sys/kernel/tracing)\n");
        return 1;
    }
    if (print_lines(out, &l.lines)) {
        fprintf(stderr, "ERROR: no match for probe point %s\n", point);
        return 1;
    }
    return 0;
}
