/* kernel.trace("subsys:name"): tracepoints resolved against tracefs. Each
 * event's `format` file gives its record layout; `$field` in a tracepoint
 * probe becomes an EXPR_CTX_READ of that record (a long, an inline char
 * array, or a __data_loc string), so codegen needs no tracefs knowledge. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "sema/sema_internal.h"
#include "sema/tracepoint.h"

/* The events directory of tracefs, or NULL with *error set: EACCES for a user other than root (the
 * directory is root's only), ENOENT where tracefs is not mounted and cannot be. */
static const char *events_root(int *error)
{
    static const char *const roots[] = {"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events"};
    struct stat st;
    *error = ENOENT;
    for (int attempt = 0; attempt < 2; attempt++) {
        for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
            if (stat(roots[i], &st) == 0)
                return roots[i];
            if (errno == EACCES)
                *error = EACCES;
        }
        if (*error == EACCES)
            return NULL;
        mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);   /* root may mount it */
    }
    return NULL;
}

const char *tracefs_unreadable(int error)
{
    if (error == EACCES)
        return "tracefs (/sys/kernel/tracing) is readable by root only: kernel.trace probes need root";
    return "tracefs is not available (mount -t tracefs nodev /sys/kernel/tracing)";
}

/* The C type of a field, in the words listings use ("char const*"). */
static const char *listing_type(struct arena *arena, const char *type, int array_len)
{
    static const struct { const char *from, *to; } names[] = {
        {"const char *", "char const*"}, {"const char*", "char const*"}, {"char *", "char*"},
        {"unsigned long", "long unsigned int"}, {"long", "long int"}, {"unsigned", "unsigned int"},
        {"unsigned short", "short unsigned int"}, {"short", "short int"},
        {"unsigned long long", "long long unsigned int"}, {"long long", "long long int"},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(type, names[i].from) == 0)
            return names[i].to;
    if (array_len >= 0)
        return arena_printf(arena, "%s[%d]", type, array_len);
    size_t n = strlen(type);
    if (n > 2 && strcmp(type + n - 2, " *") == 0)   /* "struct foo *" -> "struct foo*" */
        return arena_printf(arena, "%.*s*", (int)(n - 2), type);
    return type;
}

/* "field:const char * filename;" -> type "const char *", name "filename". */
static int parse_declaration(struct arena *arena, const char *decl, size_t len, struct tp_field *f)
{
    char text[256];
    if (len >= sizeof(text))
        return 0;
    memcpy(text, decl, len);
    text[len] = 0;
    f->array_len = -1;
    char *bracket = strrchr(text, '[');
    char *end = text + len;
    if (bracket && end[-1] == ']' && bracket > text && bracket[-1] != ' ' &&
        strncmp(text, "__data_loc", 10) != 0) {
        f->array_len = atoi(bracket + 1);   /* "char prev_comm[16]" */
        *bracket = 0;
        end = bracket;
    }
    char *name = end;
    while (name > text && (name[-1] == '_' || (name[-1] >= '0' && name[-1] <= '9') ||
                           (name[-1] >= 'a' && name[-1] <= 'z') || (name[-1] >= 'A' && name[-1] <= 'Z')))
        name--;
    if (name == text || name == end)
        return 0;
    f->name = arena_strdup(arena, name);
    char *type_end = name;
    while (type_end > text && type_end[-1] == ' ')
        type_end--;
    *type_end = 0;
    if (strncmp(text, "__data_loc ", 11) == 0) {
        f->is_data_loc = 1;
        f->type = arena_strdup(arena, text + 11);
    } else {
        f->type = arena_strdup(arena, text);
    }
    /* keep a pointer's star attached to the type: "const char *" */
    if (name > text && name[-1] == '*')
        f->type = arena_printf(arena, "%s", text);
    return 1;
}

struct tp_format *tracepoint_load_format(struct arena *arena, const char *category, const char *name)
{
    int error;
    const char *root = events_root(&error);
    if (!root)
        return NULL;
    char path[512];
    snprintf(path, sizeof(path), "%s/%s/%s/format", root, category, name);
    FILE *in = fopen(path, "r");
    if (!in)
        return NULL;
    struct tp_format *format = ARENA_NEW(arena, struct tp_format);
    format->category = arena_strdup(arena, category);
    format->name = arena_strdup(arena, name);
    char line[1024];
    int capacity = 0;
    while (fgets(line, sizeof(line), in)) {
        const char *field = strstr(line, "field:");
        const char *semi = field ? strchr(field, ';') : NULL;
        if (!semi)
            continue;
        struct tp_field f = {0};
        const char *offset = strstr(semi, "offset:"), *size = strstr(semi, "size:"),
                   *is_signed = strstr(semi, "signed:");
        if (!offset || !size || !parse_declaration(arena, field + 6, (size_t)(semi - field - 6), &f))
            continue;
        f.offset = atoi(offset + 7);
        f.size = atoi(size + 5);
        f.is_signed = is_signed ? atoi(is_signed + 7) : 0;
        f.list_type = listing_type(arena, f.is_data_loc ? "char*" : f.type, f.is_data_loc ? -1 : f.array_len);
        if (f.is_data_loc)
            f.list_type = "string";
        if (format->field_count == capacity) {
            int grown = capacity ? capacity * 2 : 8;
            format->fields = arena_realloc(arena, format->fields, sizeof(f) * (size_t)capacity,
                                           sizeof(f) * (size_t)grown);
            capacity = grown;
        }
        format->fields[format->field_count++] = f;
    }
    fclose(in);
    return format;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int tracepoint_match(const char *pattern, tracepoint_visit visit, void *data)
{
    int error;
    const char *root = events_root(&error);
    if (!root)
        return -error;
    const char *colon = strchr(pattern, ':');
    char category_pattern[256];
    const char *name_pattern = pattern;
    if (colon) {
        snprintf(category_pattern, sizeof(category_pattern), "%.*s", (int)(colon - pattern), pattern);
        name_pattern = colon + 1;
    } else {
        strcpy(category_pattern, "*");
    }
    struct dirent **categories;
    int category_count = scandir(root, &categories, NULL, by_name);
    int matched = 0;
    for (int i = 0; i < category_count; i++) {
        const char *category = categories[i]->d_name;
        if (category[0] != '.' && fnmatch(category_pattern, category, 0) == 0) {
            char dir[512];
            snprintf(dir, sizeof(dir), "%s/%s", root, category);
            struct dirent **events;
            int event_count = scandir(dir, &events, NULL, by_name);
            for (int j = 0; j < event_count; j++) {
                const char *event = events[j]->d_name;
                if (event[0] != '.' && strcmp(event, "enable") != 0 && strcmp(event, "filter") != 0 &&
                    fnmatch(name_pattern, event, 0) == 0) {
                    visit(category, event, data);
                    matched++;
                }
                free(events[j]);
            }
            if (event_count >= 0)
                free(events);
        }
        free(categories[i]);
    }
    if (category_count >= 0)
        free(categories);
    return matched;
}

struct resolve_state {
    struct sema *s;
    struct probe *probe;         /* filled with each match; earlier ones are copied out */
    int count;
    struct stmt *body;           /* the probe's, before @defined was folded for a match */
    struct expr *condition;
};

/* @defined($name): a field of the record or an argument of the tracepoint,
 * per match; what needs a lowering to decide (a member path after an
 * argument, & of one, a kernel @cast) is left to resolve (-1), which tries
 * it. */
static int tracepoint_defines(void *context, struct expr *operand)
{
    struct resolve_state *st = context;
    if (operand->kind == EXPR_VAR)
        return 0;
    if (operand->kind != EXPR_TARGET || operand->target.name[0] == '$')
        return -1;
    const char *name = operand->target.name;
    int plain = !operand->target.components && !operand->target.address_of;
    if (tracepoint_has_argument(st->s, st->probe->tp_name, name))
        return plain ? 1 : -1;
    return tracepoint_field(st->probe->tracepoint.format, name) && plain;
}

/* A probe reads the tracepoint's arguments (and runs as a raw tracepoint)
 * when it names one that is not also a tracefs field: then a name that is
 * both ($prev_state) is the argument too. */
static int reads_arguments(struct sema *s, struct probe *probe, const struct tp_format *format)
{
    const char **names;
    int count = sema_target_names(probe->body, probe->condition, &names), raw = 0;
    for (int i = 0; i < count && !raw; i++)
        raw = !tracepoint_field(format, names[i]) && tracepoint_has_argument(s, format->name, names[i]);
    free(names);
    return raw;
}

/* `$timer->function` at timer_expire_entry: the record's field is a
 * `void *`, the prototype's argument a `struct timer_list *`, so a member
 * or index on a pointer field that is also an argument reads the argument,
 * with its BTF type (and the probe, reading one or the other, all of them). */
struct member_scan { struct sema *s; const struct tp_format *format; int found; };

static void note_member_read(struct expr *e, void *data)
{
    struct member_scan *scan = data;
    if (e->kind != EXPR_TARGET || !e->target.components || e->target.name[0] == '$')
        return;
    const struct tp_field *f = tracepoint_field(scan->format, e->target.name);
    if (f && !f->is_data_loc && f->array_len < 0 && strchr(f->type, '*') &&
        tracepoint_has_argument(scan->s, scan->format->name, e->target.name))
        scan->found = 1;
}

static int reads_argument_members(struct sema *s, struct probe *probe, const struct tp_format *format)
{
    struct member_scan scan = {s, format, 0};
    ast_visit_exprs(probe->body, note_member_read, &scan);
    if (probe->condition)
        ast_visit_exprs(&(struct stmt){.kind = STMT_EXPR, .expr = probe->condition}, note_member_read, &scan);
    return scan.found;
}

static void add_match(const char *category, const char *name, void *data)
{
    struct resolve_state *st = data;
    struct sema *s = st->s;
    struct tp_format *format = tracepoint_load_format(s->arena, category, name);
    if (!format || !format->field_count)
        return;   /* a directory without a format file: not an event */
    if (st->count > 0)
        sema_add_probe_copy(s, st->probe);
    st->probe->tracepoint.category = format->category;
    st->probe->tp_name = format->name;
    st->probe->tracepoint.format = format;
    st->probe->body = sema_clone_stmt(s->arena, st->body);
    st->probe->condition = sema_clone_expr(s->arena, st->condition);
    sema_fold_defined(st->probe->body, st->probe->condition, tracepoint_defines, st);
    st->probe->tracepoint.raw = reads_arguments(s, st->probe, format) || reads_argument_members(s, st->probe, format);
    st->probe->tracepoint.reads_fields = 0;
    st->probe->point = arena_printf(s->arena, "kernel.trace(\"%s:%s\")", category, name);
    st->count++;
}

int sema_resolve_tracepoint(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *trace = point->components->next;
    /* a tapset alias on a tracepoint with a suffix (signal.handle.return) comes here */
    if (trace->arg_kind == PROBE_ARG_STRING && trace->next) {
        if (!point->optional)
            diag_error(s->diags, trace->next->span,
                       "while resolving probe point: kernel.trace(\"%s\") has no .%s: a tracepoint fires once, "
                       "at its event", trace->arg_string, trace->next->name);
        return 0;
    }
    if (trace->arg_kind != PROBE_ARG_STRING) {
        if (!point->optional)
            diag_error(s->diags, trace->span,
                       "while resolving probe point: kernel.trace needs a tracepoint name, as in %s",
                       "kernel.trace(\"sched:sched_switch\")");
        return 0;
    }
    struct resolve_state st = {s, probe, 0, sema_clone_stmt(s->arena, probe->body),
                               sema_clone_expr(s->arena, probe->condition)};
    int matched = tracepoint_match(trace->arg_string, add_match, &st);
    if (matched < 0) {
        if (!point->optional)
            diag_error(s->diags, trace->span, "while resolving probe point: %s", tracefs_unreadable(-matched));
        return 0;
    }
    if (st.count == 0 && !point->optional)
        diag_error(s->diags, trace->span, "while resolving probe point: no match for tracepoint \"%s\"",
                   trace->arg_string);
    return st.count;
}

const struct tp_field *tracepoint_field(const struct tp_format *format, const char *name)
{
    for (int i = 0; i < format->field_count; i++)
        if (strcmp(format->fields[i].name, name) == 0)
            return &format->fields[i];
    return NULL;
}

/* Syscall records store every argument as a long; the C type says how much of
 * it is the value (an int fd of -100 is 0x00000000ffffff9c there). */
static void declared_size(const struct tp_field *f, int *size, int *is_signed)
{
    static const struct { const char *type; int size, is_signed; } ints[] = {
        {"int", 4, 1}, {"unsigned int", 4, 0}, {"unsigned", 4, 0}, {"pid_t", 4, 1}, {"uid_t", 4, 0},
        {"gid_t", 4, 0}, {"qid_t", 4, 0}, {"key_t", 4, 1}, {"mqd_t", 4, 1}, {"clockid_t", 4, 1},
        {"timer_t", 4, 1}, {"rwf_t", 4, 1}, {"key_serial_t", 4, 1}, {"u32", 4, 0}, {"s32", 4, 1},
        {"__u32", 4, 0}, {"__s32", 4, 1}, {"umode_t", 2, 0}, {"short", 2, 1}, {"unsigned short", 2, 0},
        {"u16", 2, 0}, {"u8", 1, 0}, {"unsigned char", 1, 0}, {"char", 1, 1}, {"bool", 1, 0},
    };
    *size = f->size;
    *is_signed = f->is_signed;
    const char *type = strncmp(f->type, "const ", 6) == 0 ? f->type + 6 : f->type;
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        if (strcmp(type, ints[i].type) == 0 && ints[i].size <= f->size) {
            *size = ints[i].size;
            *is_signed = ints[i].is_signed;
            return;
        }
    }
}

static const char *alternatives(struct sema *s, const struct tp_format *format)
{
    struct strbuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < format->field_count; i++) {
        if (strncmp(format->fields[i].name, "common_", 7) == 0)
            continue;
        strbuf_printf(&sb, "%s$%s", sb.len ? ", " : "", format->fields[i].name);
    }
    const char *text = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

struct expr *sema_string_expr(struct sema *s, struct span span, const char *text)
{
    struct expr *e = ast_expr(s->arena, EXPR_STRING, span);
    e->string.value = text;
    e->string.len = (int)strlen(text);
    return e;
}

struct expr *sema_concat_expr(struct sema *s, struct span span, struct expr *lhs, struct expr *rhs)
{
    if (!lhs)
        return rhs;
    struct expr *e = ast_expr(s->arena, EXPR_BINARY, span);
    e->binary.op = BINARY_CONCAT;
    e->binary.lhs = lhs;
    e->binary.rhs = rhs;
    return e;
}

static int lower_field(struct sema *s, struct expr *e, const struct tp_field *f);

/* $$vars / $$parms: "name=0x1 path=\"...\"": every field but common_* and
 * the syscall number, numbers as %#x (through the tapset's _tap_hex). */
static void lower_vars(struct sema *s, struct expr *e, const struct tp_format *format)
{
    struct expr *text = NULL;
    for (int i = 0; i < format->field_count; i++) {
        const struct tp_field *f = &format->fields[i];
        if (strncmp(f->name, "common_", 7) == 0 || strcmp(f->name, "__syscall_nr") == 0 ||
            (f->array_len >= 0 && !strstr(f->type, "char")))
            continue;
        struct expr *value = ast_expr(s->arena, EXPR_TARGET, e->span);
        if (!lower_field(s, value, f))
            return;
        const char *label = arena_printf(s->arena, "%s%s=%s", text ? " " : "", f->name,
                                         value->ctx_read.kind == CTX_READ_LONG ? "" : "\"");
        text = sema_concat_expr(s, e->span, text, sema_string_expr(s, e->span, label));
        if (value->ctx_read.kind == CTX_READ_LONG) {
            value->ctx_read.is_signed = 0;   /* %#x of the field's own width */
            struct expr *call = ast_expr(s->arena, EXPR_CALL, e->span);
            call->call.name = "_tap_hex";
            call->call.args = value;
            call->call.arg_count = 1;
            text = sema_concat_expr(s, e->span, text, call);
        } else {
            text = sema_concat_expr(s, e->span, sema_concat_expr(s, e->span, text, value),
                                    sema_string_expr(s, e->span, "\""));
        }
    }
    struct expr *next = e->next;
    *e = *(text ? text : sema_string_expr(s, e->span, ""));
    e->next = next;
}

int sema_lower_tracepoint_target(struct sema *s, struct expr *e)
{
    const struct tp_format *format = s->probe->tracepoint.format;
    const char *name = e->target.name;
    if (!format)
        return 0;
    if (strcmp(name, "$vars") == 0 || strcmp(name, "$parms") == 0) {
        lower_vars(s, e, format);
        return 1;
    }
    if (strcmp(name, "$name") == 0 || strcmp(name, "$system") == 0) {
        struct expr *next = e->next;
        *e = *sema_string_expr(s, e->span, name[1] == 'n' ? format->name : format->category);
        e->next = next;
        return 0;
    }
    if (name[0] == '$') {
        diag_error(s->diags, e->span, "$%s is not available in kernel.trace probes ($$vars, $$parms, "
                   "$$name and $$system are)", name);
        return 0;
    }
    const struct tp_field *f = tracepoint_field(format, name);
    int argument = f && !s->probe->tracepoint.raw ? -1 : tracepoint_lower_argument(s, s->probe, e);
    if (argument >= 0)
        return argument;
    if (!f) {
        const char *arguments = tracepoint_argument_names(s, format->name);
        diag_error(s->diags, e->span, "unable to find tracepoint variable '$%s' (alternatives: %s%s%s)", name,
                   alternatives(s, format), *arguments ? "; arguments: " : "", arguments);
        return 0;
    }
    return lower_field(s, e, f);
}

/* An element of an integer array field (raw_syscalls' `args[6]`) at a
 * constant index, checked against the array's length here. */
static int lower_element(struct sema *s, struct expr *e, const struct tp_field *f)
{
    const struct expr *index = e->target.components->index;
    int element = f->size / f->array_len;
    if (index->kind != EXPR_INT) {
        diag_error(s->diags, index->span, "tracepoint field $%s: the index must be a constant", f->name);
        return 0;
    }
    if (index->int_value < 0 || index->int_value >= f->array_len) {
        diag_error(s->diags, index->span, "index %lld is out of range: $%s has %d elements",
                   (long long)index->int_value, f->name, f->array_len);
        return 0;
    }
    if (element != 1 && element != 2 && element != 4 && element != 8) {
        diag_error(s->diags, e->span, "tracepoint field $%s (%s) cannot be read as a value yet", f->name,
                   f->list_type);
        return 0;
    }
    struct expr lowered = {.kind = EXPR_CTX_READ, .span = e->span, .next = e->next};
    lowered.ctx_read.kind = CTX_READ_LONG;
    lowered.ctx_read.offset = f->offset + (int)index->int_value * element;
    lowered.ctx_read.size = element;
    lowered.ctx_read.is_signed = f->is_signed;
    *e = lowered;
    return 1;
}

static int lower_field(struct sema *s, struct expr *e, const struct tp_field *f)
{
    const char *name = f->name;
    if (s->probe->tracepoint.raw) {
        diag_error(s->diags, e->span, "$%s is a tracefs record field, but this probe also reads tracepoint "
                   "arguments: a kernel.trace probe reads one or the other", name);
        return 0;
    }
    s->probe->tracepoint.reads_fields = 1;
    const struct component *c = e->target.components;
    if (f->array_len > 0 && !strstr(f->type, "char") && c && c->kind == COMPONENT_INDEX && !c->next &&
        !e->target.pretty && !e->target.address_of)
        return lower_element(s, e, f);
    if (e->target.components || e->target.pretty || e->target.address_of) {
        diag_error(s->diags, e->span, "tracepoint field $%s is a plain value: members, indexing, & and "
                   "pretty printing are not supported on it", name);
        return 0;
    }
    struct expr lowered = {.kind = EXPR_CTX_READ, .span = e->span, .next = e->next};
    lowered.ctx_read.offset = f->offset;
    if (f->is_data_loc) {
        lowered.ctx_read.kind = CTX_READ_DATA_LOC;
    } else if (f->array_len >= 0 && strstr(f->type, "char")) {
        lowered.ctx_read.kind = CTX_READ_CHARS;
        lowered.ctx_read.size = f->size;
    } else if (f->array_len < 0 && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
        lowered.ctx_read.kind = CTX_READ_LONG;
        declared_size(f, &lowered.ctx_read.size, &lowered.ctx_read.is_signed);
    } else {
        diag_error(s->diags, e->span, "tracepoint field $%s (%s) cannot be read as a value yet", name,
                   f->list_type);
        return 0;
    }
    *e = lowered;
    return 1;
}
