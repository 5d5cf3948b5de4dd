/* process.syscall and process.syscall.return, for every process or for
 * process(PID) / process("PATH"), as SystemTap's utrace probes: the tapset
 * aliases of that name (tapsets/process.tp) stand on the raw_syscalls
 * tracepoints; this file gives the handler SystemTap's variables ($syscall,
 * $arg1..$arg6, $return) and the process filter, then expands the alias.
 * Without a PID or PATH, -c/-x keeps the target's process tree, as for the
 * uprobes. */
#include "sema/process_events.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/arena.h"
#include "sema/sema_internal.h"

/* The process events, as process_event_of() tells them apart. */
enum process_event {
    PROCESS_SYSCALL,
    PROCESS_SYSCALL_RETURN,
    PROCESS_BEGIN,
    PROCESS_END,
    PROCESS_THREAD_BEGIN,
    PROCESS_THREAD_END,
};

struct renaming {
    struct sema *s;
    enum process_event event;
    const char *point;           /* the alias's name, for messages */
};

static struct expr *integer(struct arena *arena, int64_t value, struct span span)
{
    struct expr *e = ast_expr(arena, EXPR_INT, span);
    e->int_value = value;
    return e;
}

/* The tracepoint's field for $argN, by identity: the visitor goes on into
 * the nodes a renaming made and must leave them alone. */
static const char renamed_args[] = "args";

/* $argN is the tracepoint's args[N-1]. */
static void rename_arg(struct sema *s, struct expr *e, int n)
{
    struct component *index = ARENA_NEW(s->arena, struct component);
    index->kind = COMPONENT_INDEX;
    index->span = e->span;
    index->index = integer(s->arena, n - 1, e->span);
    e->target.components = index;
    e->target.name = renamed_args;
}

/* $$parms: SystemTap's "$arg1=0x3 $arg2=0x0 ..." of the six arguments. */
static void spell_parms(struct sema *s, struct expr *e)
{
    struct expr *next = e->next, *args = NULL, **tail = &args;
    for (int n = 1; n <= 6; n++) {
        struct expr *arg = ast_expr(s->arena, EXPR_TARGET, e->span);
        rename_arg(s, arg, n);
        *tail = arg;
        tail = &arg->next;
    }
    struct expr *format = sema_string_expr(s, e->span, "$arg1=%#x $arg2=%#x $arg3=%#x $arg4=%#x $arg5=%#x $arg6=%#x");
    format->next = args;
    e->kind = EXPR_CALL;
    memset(&e->call, 0, sizeof(e->call));
    e->call.name = "sprintf";
    e->call.args = format;
    e->call.arg_count = 7;
    e->next = next;
}

static void rename_target(struct expr *e, void *data)
{
    struct renaming *r = data;
    if (e->kind != EXPR_TARGET)
        return;
    const char *name = e->target.name;
    if (name == renamed_args)
        return;
    if (r->event != PROCESS_SYSCALL && r->event != PROCESS_SYSCALL_RETURN) {
        diag_error(r->s->diags, e->span, "%s has no $%s: it has no target variables (as in SystemTap)", r->point,
                   name);
        return;
    }
    int is_return = r->event == PROCESS_SYSCALL_RETURN;
    int is_arg = strlen(name) == 4 && strncmp(name, "arg", 3) == 0 && name[3] >= '1' && name[3] <= '6';
    if (e->target.components || e->target.pretty || e->target.address_of) {
        diag_error(r->s->diags, e->span, "$%s of process.syscall is a plain value: members, indexing, & and "
                   "pretty printing are not supported on it", name);
    } else if (strcmp(name, "syscall") == 0) {
        e->target.name = "id";
    } else if (!is_return && is_arg) {
        rename_arg(r->s, e, name[3] - '0');
    } else if (!is_return && strcmp(name, "$parms") == 0) {
        spell_parms(r->s, e);
    } else if (is_return && strcmp(name, "return") == 0) {
        e->target.name = "ret";
    } else if (is_return) {
        diag_error(r->s->diags, e->span, "process.syscall.return has no $%s: it has $syscall and $return "
                   "(the arguments are read at process.syscall)", name);
    } else {
        diag_error(r->s->diags, e->span, "process.syscall has no $%s: it has $syscall, $arg1 ... $arg6 and "
                   "$$parms (and .syscall.return has $return)", name);
    }
}

/* `if (!CALL) next` */
static struct stmt *next_unless(struct sema *s, struct expr *call, struct span span)
{
    struct expr *not = ast_expr(s->arena, EXPR_UNARY, span);
    not->unary.op = UNARY_NOT;
    not->unary.operand = call;
    struct stmt *skip = ast_stmt(s->arena, STMT_IF, span);
    skip->if_stmt.cond = not;
    skip->if_stmt.then_stmt = ast_stmt(s->arena, STMT_NEXT, span);
    return skip;
}

/* `if (!__tap_process_is(PID, DEV, INO)) next` before the handler; at an
 * end (an exit, or an exec away from the program) the executable is the one
 * the process ran: __tap_process_was. */
static struct stmt *process_filter(struct sema *s, enum process_event event, int64_t pid, int64_t dev, int64_t ino,
                                   struct span span)
{
    struct expr *call = ast_expr(s->arena, EXPR_CALL, span);
    call->call.name = event == PROCESS_END || event == PROCESS_THREAD_END ? "__tap_process_was" : "__tap_process_is";
    call->call.args = integer(s->arena, pid, span);
    call->call.args->next = integer(s->arena, dev, span);
    call->call.args->next->next = integer(s->arena, ino, span);
    call->call.arg_count = 3;
    return next_unless(s, call, span);
}

/* `if (!__tap_process_begin_once(!@defined($ret), N, pid())) next` (tid()
 * for a thread.begin): a process or thread running when tap started has each
 * begin probe (N) fire once, at its first system call that passes the probe's
 * filter (tapsets/process_exe.tp); the alias's other points (fork, exec,
 * clone) have $ret. */
static struct stmt *begin_once(struct sema *s, int n, const char *id_function, struct span span)
{
    struct expr *ret = ast_expr(s->arena, EXPR_TARGET, span);
    ret->target.name = "ret";
    struct expr *defined = ast_expr(s->arena, EXPR_DEFINED, span);
    defined->unary_at.operand = ret;
    struct expr *pending = ast_expr(s->arena, EXPR_UNARY, span);
    pending->unary.op = UNARY_NOT;
    pending->unary.operand = defined;
    struct expr *call = ast_expr(s->arena, EXPR_CALL, span);
    call->call.name = "__tap_process_begin_once";
    call->call.args = pending;
    pending->next = integer(s->arena, n, span);
    struct expr *id = ast_expr(s->arena, EXPR_CALL, span);
    id->call.name = id_function;
    pending->next->next = id;
    call->call.arg_count = 3;
    return next_unless(s, call, span);
}

/* The executable as the kernel names it: the inode and the superblock's
 * dev_t (MKDEV: major << 20 | minor), not stat's encoding. */
static int executable_id(struct sema *s, struct probe_point *point, const char *path, int64_t *dev, int64_t *ino)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return sema_point_error(s, point, point->components->span,
                                "while resolving probe point: process(\"%s\"): no such executable", path);
    *dev = (int64_t)(((uint64_t)major(st.st_dev) << 20) | minor(st.st_dev));
    *ino = (int64_t)st.st_ino;
    return 1;
}

static int is_plain(const struct probe_component *c, const char *name)
{
    return c && strcmp(c->name, name) == 0 && c->arg_kind == PROBE_ARG_NONE;
}

/* process[(..)].syscall[.return], .begin, .end, .thread.begin, .thread.end;
 * -1 for the other process points. */
static int process_event_of(const struct probe_point *point)
{
    const struct probe_component *c = point->components->next;
    const struct probe_component *last = c && c->next ? c->next : NULL;
    if (!c || (last && last->next))
        return -1;
    if (is_plain(c, "syscall"))
        return !last ? PROCESS_SYSCALL : is_plain(last, "return") ? PROCESS_SYSCALL_RETURN : -1;
    if (is_plain(c, "thread") && last)
        return is_plain(last, "begin") ? PROCESS_THREAD_BEGIN : is_plain(last, "end") ? PROCESS_THREAD_END : -1;
    if (last)
        return -1;
    return is_plain(c, "begin") ? PROCESS_BEGIN : is_plain(c, "end") ? PROCESS_END : -1;
}

int sema_is_process_event(const struct probe_point *point)
{
    return process_event_of(point) >= 0;
}

int sema_bad_process_event(struct sema *s, struct probe_point *point)
{
    static const char *const heads[] = {"begin", "end", "thread", "syscall"};
    const struct probe_component *c = point->components->next;
    for (size_t i = 0; c && i < sizeof(heads) / sizeof(*heads); i++)
        if (strcmp(c->name, heads[i]) == 0)
            return sema_point_error(s, point, c->span,
                                    "while resolving probe point: %s is not a process event: they are "
                                    ".begin, .end, .thread.begin, .thread.end, .syscall and .syscall.return, "
                                    "without arguments", sema_point_text(s, point)) || 1;
    return 0;
}

static const char *const event_variables[] = {
    [PROCESS_SYSCALL] = (" $syscall:long $arg1:long $arg2:long $arg3:long $arg4:long $arg5:long $arg6:long "
                         "$$parms:string"),
    [PROCESS_SYSCALL_RETURN] = " $syscall:long $return:long",
    [PROCESS_BEGIN] = "", [PROCESS_END] = "", [PROCESS_THREAD_BEGIN] = "", [PROCESS_THREAD_END] = "",
};

int sema_resolve_process_event(struct sema *s, struct probe_point *point, struct stmt *body)
{
    const struct probe_component *process = point->components;
    enum process_event event = (enum process_event)process_event_of(point);
    int errors = s->diags->error_count;
    struct renaming renaming = {s, event, sema_point_text(s, point)};
    struct stmt *handler = sema_clone_stmt(s->arena, body);
    ast_visit_exprs(handler, rename_target, &renaming);
    struct probe_point alias = *point;   /* process.syscall[.return]: the tapset's alias */
    alias.condition = sema_clone_expr(s->arena, point->condition);
    ast_visit_expr(alias.condition, rename_target, &renaming);
    struct probe_component *head = ARENA_NEW(s->arena, struct probe_component);
    *head = *process;
    head->arg_kind = PROBE_ARG_NONE;
    alias.components = head;
    struct stmt *head_stmt = handler;   /* the filter, begin's once, the handler */
    if (event == PROCESS_BEGIN || event == PROCESS_THREAD_BEGIN) {
        struct stmt *once = begin_once(s, s->script->probe_count, event == PROCESS_BEGIN ? "pid" : "tid",
                                       process->span);
        once->next = head_stmt;
        head_stmt = once;
    }
    if (process->arg_kind != PROBE_ARG_NONE) {
        int64_t pid = 0, dev = 0, ino = 0;
        if (process->arg_kind == PROBE_ARG_INT)
            pid = process->arg_int;
        else if (!executable_id(s, point, process->arg_string, &dev, &ino))
            return 0;
        struct stmt *filter = process_filter(s, event, pid, dev, ino, process->span);
        filter->next = head_stmt;
        head_stmt = filter;
    }
    if (head_stmt != handler) {
        handler = ast_stmt(s->arena, STMT_BLOCK, body->span);
        handler->block.body = head_stmt;
    }
    if (s->diags->error_count > errors)
        return 0;
    int first = s->script->probe_count;
    int added = sema_expand_alias(s, &alias, handler);
    for (int p = first; p < s->script->probe_count; p++) {
        struct probe *probe = s->script->probes[p];
        probe->point = renaming.point;   /* pp(): process("/bin/ls").syscall, as SystemTap's */
        probe->alias_point = probe->point;
        probe->target_tree = process->arg_kind == PROBE_ARG_NONE;
        probe->variables = event_variables[event];
    }
    return added > 0 ? added : 0;
}
