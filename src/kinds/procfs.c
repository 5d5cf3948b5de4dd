/* procfs("file").read and .write, as SystemTap's tapset-procfs.cxx makes
 * them: tap makes no /proc files, so the runtime (runtime/procfs.c) serves
 * each file as a FIFO in the session's directory, as stapbpf does. A
 * reader opening it runs the .read probe, which builds $value (`=` resets,
 * `.=` appends: records the runtime collects); a writer's text is the
 * .write probe's $value. procfs("__stdin") is tap's standard input
 * (input.c). */
#include <string.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
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

static int resolve_procfs(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct probe_component *c = point->components, *op = c->next;
    struct procfs_probe file = {.file = "command"};
    if (c->arg_kind == PROBE_ARG_STRING && strcmp(c->arg_string, "__stdin") == 0)
        return input_kind.resolve(s, point, probe);
    if (c->arg_kind == PROBE_ARG_INT)
        return sema_point_error(s, point, c->span, "procfs takes a file name (a string): %s",
                                sema_point_text(s, point));
    if (c->arg_kind == PROBE_ARG_STRING) {
        const char *error = path_error(c->arg_string);
        if (error)
            return sema_point_error(s, point, c->span, arena_printf(s->arena, "%s: %%s", error),
                                    sema_point_text(s, point));
        file.file = c->arg_string;
    }
    int64_t umask = -1;
    if (op && strcmp(op->name, "umask") == 0) {
        if (op->arg_kind != PROBE_ARG_INT)
            return sema_point_error(s, point, op->span, "umask takes a number: %s", sema_point_text(s, point));
        umask = op->arg_int;
        op = op->next;
    }
    if (!op || (strcmp(op->name, "read") != 0 && strcmp(op->name, "write") != 0) || op->arg_kind != PROBE_ARG_NONE)
        return sema_point_error(s, point, op ? op->span : c->span, "need read/write component: %s",
                                sema_point_text(s, point));
    file.write = op->name[0] == 'w';
    file.maxsize = (uint64_t)s->options->string_size;
    op = op->next;
    if (op && !file.write && strcmp(op->name, "maxsize") == 0) {
        if (op->arg_kind != PROBE_ARG_INT || op->arg_int <= 0)
            return sema_point_error(s, point, op->span, "maxsize must be greater than 0: %s",
                                    sema_point_text(s, point));
        file.maxsize = (uint64_t)op->arg_int;
        op = op->next;
    }
    if (op)
        return sema_point_error(s, point, op->span, "procfs probes end at .read, .read.maxsize(N) or .write: %s",
                                sema_point_text(s, point));
    if (umask < 0)
        umask = file.write ? 0022 : 0044;
    file.mode = (file.write ? 0222u : 0444u) & ~(unsigned)umask;
    const char *conflict = file_conflict(s, &file);
    if (conflict)
        return sema_point_error(s, point, c->span, arena_printf(s->arena, "%s \"%s\": %%s", conflict, file.file),
                                sema_point_text(s, point));
    probe->kind = PROBE_PROCFS;
    probe->procfs = file;
    sema_add_probe(s, probe);
    return 1;
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

static void describe(const struct probe *probe, struct program_probe *out)
{
    out->path = strdup(probe->procfs.file);
    out->procfs_write = probe->procfs.write;
    out->procfs_mode = probe->procfs.mode;
    out->procfs_maxsize = probe->procfs.maxsize;
}

const struct probe_kind_ops procfs_kind = {
    .kind = PROBE_PROCFS, .name = "procfs", .flags = KIND_RUNS_ONCE,
    .heads = (const char *const[]){"procfs", NULL}, .resolve = resolve_procfs, .catalogue = catalogue,
    .lower_target = lower_value, .lower_assign = lower_assign, .section = section, .describe = describe,
    .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
};
