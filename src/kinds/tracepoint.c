/* kernel.trace("category:name"): a tracepoint program reading the record's
 * fields (sema/tracepoint.c), or, when the body reads the tracepoint's
 * prototype arguments (sema/tracepoint_args.c), a raw tracepoint whose
 * context is those arguments. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "runtime/attach.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"
#include "sema/tracepoint.h"

static int resolve_tracepoint(struct sema *s, struct probe_point *point, struct probe *probe)
{
    int count = sema_resolve_tracepoint(s, point, probe);
    if (count > 0)
        sema_add_probe_copy(s, probe);   /* $fields are lowered per tracepoint */
    return count;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "kernel.trace(string)");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    return probe->tracepoint.raw ? "raw_tp" : "tracepoint";
}

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    out->kind = probe->tracepoint.raw ? PROBE_RAW_TRACEPOINT : PROBE_TRACEPOINT;
    out->tp_category = probe->tracepoint.category ? strdup(probe->tracepoint.category) : NULL;
    out->tp_name = probe->tp_name ? strdup(probe->tp_name) : NULL;
}

/* libbpf reads tracepoint ids from tracefs, which may not be mounted. */
static void ensure_tracefs(void)
{
    struct stat st;
    if (stat("/sys/kernel/tracing/events", &st) == 0 ||
        stat("/sys/kernel/debug/tracing/events", &st) == 0)
        return;
    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
}

static int attach_tracepoint(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = probe->cookie);
    ensure_tracefs();
    struct bpf_link *link =
        bpf_program__attach_tracepoint_opts(prog, probe->tp_category, probe->tp_name, &opts);
    if (!link)
        return -errno;
    s->slow_detach = 1;   /* each detach waits for an RCU grace period: syscall.* has hundreds */
    return add_link(s, link);
}

static int attach_raw_tracepoint(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    struct bpf_link *link = bpf_program__attach_raw_tracepoint(prog, s->program->probes[index].tp_name);
    if (!link)
        return -errno;
    s->slow_detach = 1;
    return add_link(s, link);
}

static const char *attach_error(const struct program_probe *probe, int err)
{
    (void)probe;
    return err == -ENOENT ? "no such tracepoint" : NULL;
}

/* @entry where a syscall returns was rewritten before (sema/syscall_entry.c):
 * what is left has no call to take a value at. */
static int lower_entry(struct sema *s, struct expr *e)
{
    diag_error(s->diags, e->span, "@entry in %s: only a probe whose points are all syscall.NAME.return "
               "aliases or syscalls:sys_exit_NAME tracepoints (or a process or kernel function .return "
               "probe) has a call to take the value at", probe_script_point(s->probe));
    return 0;
}

/* a syscall's record: its exit's holds the result */
static enum register_place register_place(const struct sema *s)
{
    const struct tp_format *format = s->probe->tracepoint.format;
    if (!format)
        return REGISTERS_NONE;
    return strncmp(format->name, "sys_exit", 8) == 0 ? REGISTERS_AT_RETURN : REGISTERS_AT_ENTRY;
}

const struct probe_kind_ops tracepoint_kind = {
    .kind = PROBE_TRACEPOINT, .name = "tracepoint",
    .flags = KIND_FREQUENT | KIND_TARGET_DEFINED_UNLESS_REPORTED | KIND_TASK_KERNEL_STACK,
    .probe_fields = PROBE_FIELDS_TRACEPOINT,
    .heads = (const char *const[]){"kernel.trace", NULL}, .resolve = resolve_tracepoint,
    .list = sema_list_tracepoints, .catalogue = catalogue, .lower_target = sema_lower_tracepoint_target,
    .lower_entry = lower_entry, .register_place = register_place, .register_value = register_arg_at_tracepoint,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_TRACEPOINT, .attach = attach_tracepoint,
    .attach_error = attach_error,
};

/* a tracepoint probe reading arguments: sema keeps PROBE_TRACEPOINT (tp_raw),
 * the runtime gets this kind */
const struct probe_kind_ops raw_tracepoint_kind = {
    .kind = PROBE_RAW_TRACEPOINT, .name = "raw_tracepoint", .flags = KIND_FREQUENT,
    .probe_fields = PROBE_FIELDS_TRACEPOINT,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
    .attach = attach_raw_tracepoint,
};
