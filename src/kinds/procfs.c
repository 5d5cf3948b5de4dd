/* procfs("file").read and .write, as SystemTap's tapset-procfs.cxx makes
 * them: tap makes no /proc files, so the runtime (runtime/procfs.c) serves
 * each file as a FIFO in the session's directory, as stapbpf does. A
 * reader opening it runs the .read probe, which builds $value (`=` resets,
 * `.=` appends: records the runtime collects); a writer's text is the
 * .write probe's $value. procfs("__stdin") is tap's standard input
 * (input.c). */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "runtime/session.h"
#include "sema/sema_internal.h"

extern const struct probe_kind_ops input_kind;

/* The write probe's $value comes in pieces the context holds (RAW_TP_CTX_SIZE - 1). */
#define PROCFS_WRITE_PIECE 95

/* SystemTap's checks of the path, its messages; NULL: fine. */
static const char *path_error(const char *path)
{
    if (path[0] == '/')
        return "procfs path cannot start with a '/'";
    for (const char *part = path;;) {
        size_t n = strcspn(part, "/");
        if (n == 0)
            return part[0] ? "procfs path component cannot be empty" : "procfs path cannot end with a '/'";
        if ((n == 1 && part[0] == '.') || (n == 2 && strncmp(part, "..", 2) == 0))
            return "procfs path cannot be relative (and contain '.' or '..')";
        if (!part[n])
            return NULL;
        part += n + 1;
    }
}

/* Another probe on the same file: SystemTap allows one read probe per
 * file; a FIFO serves readers or writers, not both (stapbpf's rule). */
static const char *file_conflict(struct sema *s, const struct procfs_probe *file)
{
    for (int i = 0; i < s->script->probe_count; i++) {
        const struct probe *other = s->script->probes[i];
        if (other->kind != PROBE_PROCFS || strcmp(other->procfs.file, file->file) != 0)
            continue;
        if (other->procfs.write != file->write)
            return "both read and write procfs probes cannot exist for the same procfs path";
        if (!file->write)
            return "only one read procfs probe can exist for procfs path";
    }
    return NULL;
}

/* The file and mode a point names, with SystemTap's checks; `op` stands for
 * the read/write component's name (NULL: as written; -l puts "read" and
 * "write" in place of a wildcard). NULL when fine, else the message (a %s
 * for the point's text) and *where, the component it is about. */
static const char *read_point(const struct probe_point *point, const char *op_name, uint64_t string_size,
                              struct procfs_probe *file, const struct probe_component **where)
{
    const struct probe_component *c = point->components, *op = c->next;
    *file = (struct procfs_probe){.file = "command", .maxsize = string_size};
    *where = c;
    if (c->arg_kind == PROBE_ARG_INT)
        return "procfs takes a file name (a string): %s";
    if (c->arg_kind == PROBE_ARG_STRING) {
        const char *error = path_error(c->arg_string);
        if (error)
            return error;
        file->file = c->arg_string;
    }
    int64_t umask = -1;
    if (op && strcmp(op->name, "umask") == 0) {
        *where = op;
        if (op->arg_kind != PROBE_ARG_INT)
            return "umask takes a number: %s";
        umask = op->arg_int;
        op = op->next;
    }
    const char *name = op && op_name ? op_name : op ? op->name : NULL;
    if (op)
        *where = op;
    if (!name || (strcmp(name, "read") != 0 && strcmp(name, "write") != 0) || op->arg_kind != PROBE_ARG_NONE)
        return "need read/write component: %s";
    file->write = name[0] == 'w';
    op = op->next;
    if (op && !file->write && strcmp(op->name, "maxsize") == 0) {
        *where = op;
        if (op->arg_kind != PROBE_ARG_INT || op->arg_int <= 0)
            return "maxsize must be greater than 0: %s";
        file->maxsize = (uint64_t)op->arg_int;
        op = op->next;
    }
    if (op) {
        *where = op;
        return "procfs probes end at .read, .read.maxsize(N) or .write: %s";
    }
    if (umask < 0)
        umask = file->write ? 0022 : 0044;
    file->mode = (file->write ? 0222u : 0444u) & ~(unsigned)umask;
    return NULL;
}

static int resolve_procfs(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components;
    if (c->arg_kind == PROBE_ARG_STRING && strcmp(c->arg_string, "__stdin") == 0)
        return input_kind.resolve(s, point, probe);
    struct procfs_probe file;
    const struct probe_component *where;
    const char *error = read_point(point, NULL, (uint64_t)s->options->string_size, &file, &where);
    if (error && strstr(error, "%s") == NULL)
        error = arena_printf(s->arena, "%s: %%s", error);   /* path_error's messages */
    if (error)
        return sema_point_error(s, point, where->span, error, sema_point_text(s, point));
    const char *conflict = file_conflict(s, &file);
    if (conflict)
        return sema_point_error(s, point, c->span, arena_printf(s->arena, "%s \"%s\": %%s", conflict, file.file),
                                sema_point_text(s, point));
    probe->kind = PROBE_PROCFS;
    probe->procfs = file;
    sema_add_probe(s, probe);
    return 1;
}

/* The lines of one point for -l/-L: the point as pp() spells it, once for
 * each of read and write its component matches; 0 after an error. */
static int list_point(struct arena *arena, struct diags *diags, const struct probe_point *point,
                      const char *text, const char **lines, int *count)
{
    const struct probe_component *c = point->components, *op = c->next;
    if (op && strcmp(op->name, "umask") == 0)
        op = op->next;
    int stdin_file = c->arg_kind == PROBE_ARG_STRING && strcmp(c->arg_string, "__stdin") == 0;
    int listed = 0;
    const char *error = NULL;
    const struct probe_component *where = op ? op : c;
    for (int write = 0; write < 2; write++) {
        const char *name = write ? "write" : "read";
        if (!op || fnmatch(op->name, name, 0) != 0 || (stdin_file && !write))
            continue;
        struct procfs_probe file;
        error = read_point(point, name, 0, &file, &where);
        if (error)
            continue;
        lines[(*count)++] = arena_printf(arena, "procfs%s%s%s%s.%s%s",
                                         c->arg_kind == PROBE_ARG_STRING ? "(\"" : "",
                                         c->arg_kind == PROBE_ARG_STRING ? file.file : "",
                                         c->arg_kind == PROBE_ARG_STRING ? "\")" : "",
                                         c->next != op ? arena_printf(arena, ".umask(%lld)",
                                                                      (long long)c->next->arg_int) : "",
                                         name,
                                         op->next ? arena_printf(arena, ".maxsize(%llu)",
                                                                 (unsigned long long)file.maxsize) : "");
        listed++;
    }
    if (listed)
        return 1;
    if (!error)
        error = "need read/write component: %s";
    if (strstr(error, "%s") == NULL)
        error = arena_printf(arena, "%s: %%s", error);
    diag_error(diags, where->span, error, text);
    return 0;
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -l/-L: `procfs.*` is both read and write, as SystemTap lists it (one
 * script cannot have both on one file). -L lists no variables, as
 * SystemTap's (its procfs probes have no getargs), though $value is there.
 * Lines sorted, each once. */
static int list(FILE *out, struct arena *arena, struct diags *diags, const struct probe_point *points,
                const char *text, int with_variables)
{
    (void)with_variables;
    int capacity = 0, count = 0;
    for (const struct probe_point *p = points; p; p = p->next)
        capacity += 2;
    const char **lines = ARENA_ARRAY(arena, const char *, capacity);
    for (const struct probe_point *p = points; p; p = p->next)
        if (!list_point(arena, diags, p, text, lines, &count))
            return 1;
    qsort(lines, (size_t)count, sizeof(*lines), compare_lines);
    for (int i = 0; i < count; i++)
        if (i == 0 || strcmp(lines[i], lines[i - 1]) != 0)
            fprintf(out, "%s\n", lines[i]);
    return 0;
}

/* $value read: the written text (a .write probe's piece of it) at the
 * start of the context, as input.c's byte. */
static int lower_value(struct sema *s, struct expr *e)
{
    if (strcmp(e->target.name, "value") != 0 || e->target.components) {
        diag_error(s->diags, e->span, "invalid target symbol for procfs probe, $value expected");
        return 0;
    }
    if (e->target.address_of) {
        diag_error(s->diags, e->span, "cannot take address of procfs variable");
        return 0;
    }
    if (!s->probe->procfs.write) {
        diag_error(s->diags, e->span, "procfs $value variable cannot be read in a procfs read probe");
        return 0;
    }
    struct expr lowered = {.kind = EXPR_CTX_READ, .span = e->span, .next = e->next};
    lowered.ctx_read.kind = CTX_READ_CHARS;
    lowered.ctx_read.size = PROCFS_WRITE_PIECE;
    *e = lowered;
    return 1;
}

/* `$value = v` and `$value .= v` in a .read probe: calls the records come from. */
static int lower_assign(struct sema *s, struct expr *assign)
{
    struct expr *target = assign->assign.lhs;
    if (strcmp(target->target.name, "value") != 0 || target->target.components || target->target.address_of) {
        diag_error(s->diags, target->span, "invalid target symbol for procfs probe, $value expected");
        return 0;
    }
    if (s->probe->procfs.write) {
        diag_error(s->diags, target->span, "procfs $value variable is read-only in a procfs write probe");
        return 0;
    }
    if (assign->assign.op != ASSIGN_SET && assign->assign.op != ASSIGN_CONCAT) {
        diag_error(s->diags, target->span, "Only the following assign operators are implemented on procfs "
                   "read target variables: '=', '.='");
        return 0;
    }
    struct expr *value = assign->assign.rhs;
    struct expr call = {.kind = EXPR_CALL, .span = assign->span, .next = assign->next};
    call.call.name = assign->assign.op == ASSIGN_SET ? "__procfs_value_set" : "__procfs_value_append";
    call.call.args = value;
    call.call.arg_count = 1;
    *assign = call;
    return 1;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "procfs(string).read");
    add(lines, "procfs(string).read.maxsize(number)");
    add(lines, "procfs(string).umask(number).read");
    add(lines, "procfs(string).umask(number).read.maxsize(number)");
    add(lines, "procfs(string).write");
    add(lines, "procfs(string).umask(number).write");
    add(lines, "procfs.read");
    add(lines, "procfs.write");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    (void)probe;
    return "raw_tp";
}

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    out->path = strdup(probe->procfs.file);
    struct procfs_program_fields *fields = calloc(1, sizeof(*fields));
    fields->write = probe->procfs.write;
    fields->mode = probe->procfs.mode;
    fields->maxsize = probe->procfs.maxsize;
    out->kind_fields = fields;
}

static const struct program_fields program_fields = PROGRAM_FIELDS(struct procfs_program_fields,
    PROGRAM_FIELD(INT, struct procfs_program_fields, write),
    PROGRAM_FIELD(U32, struct procfs_program_fields, mode),
    PROGRAM_FIELD(U64, struct procfs_program_fields, maxsize));

const struct probe_kind_ops procfs_kind = {
    .kind = PROBE_PROCFS, .name = "procfs", .flags = KIND_RUNS_ONCE, .runs = RUN_PER_FILE_ACCESS,
    .probe_fields = PROBE_FIELDS_PROCFS,
    .heads = (const char *const[]){"procfs", NULL}, .resolve = resolve_procfs, .list = list, .catalogue = catalogue,
    .lower_target = lower_value, .lower_assign = lower_assign, .section = section, .describe = describe,
    .program_fields = &program_fields, .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
};
