/* process(...).function/.statement/.mark and their .return: uprobes at a
 * file offset (sema/uprobe*.c, usdt*.c find the sites), attached as one
 * uprobe_multi link per program and binary where the kernel has them, as
 * perf-event uprobes otherwise. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "kinds/uprobe.h"
#include "runtime/attach.h"
#include "program/program_io.h"
#include "sema/process_events.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"

/* process[(PID|"PATH")].syscall[.return], .begin, .end, .thread.begin and
 * .thread.end are the tapset's aliases with a filter (sema/process_events.c). */
static int resolve_process(struct sema *s, struct probe_point *point, struct probe *probe)
{
    if (sema_is_process_event(point))
        return sema_resolve_process_event(s, point, probe->body);
    if (sema_bad_process_event(s, point))
        return 0;
    return sema_resolve_process(s, probe->body, point, probe->frame);
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    static const char *const forms[] = {
        "process.function(string)", "process.statement(string)",
        "process(string).function(string)", "process(string).function(string).call",
        "process(string).function(string).return", "process(string).function(string).exported",
        "process(string).function(string).inline", "process(string).statement(string)",
        "process(string).statement(number)", "process(number).function(string)",
        "process(number).function(string).return", "process(number).statement(string)",
        "process(string).mark(string)", "process(string).provider(string).mark(string)",
        "process.mark(string)", "process.provider(string).mark(string)", "process(number).mark(string)",
        "process(string).syscall", "process(string).syscall.return", "process(number).syscall",
        "process(number).syscall.return", "process(string).begin", "process(number).begin",
        "process(string).end", "process(number).end", "process(string).thread.begin",
        "process(number).thread.begin", "process(string).thread.end", "process(number).thread.end",
        /* process.syscall[.return], .begin ...: tapset aliases */
    };
    for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++)
        add(lines, forms[i]);
}

const char *uprobe_hook_section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    if (probe_kind_has(probe->kind, KIND_AT_RETURN))
        return probe->uprobe.sleepable ? "uretprobe.s" : "uretprobe";
    return probe->uprobe.sleepable ? "uprobe.s" : "uprobe";
}

/* Its program_probe's own fields (path and offset are shared ones). */
struct uprobe_program_fields {
    char *build_id;          /* hex build-id of path at compile time, checked by --run; "" when none */
    uint64_t ref_ctr_offset; /* at an SDT mark: file offset of the semaphore the kernel raises
                              * while attached; 0: none */
};

const struct program_fields uprobe_program_fields = PROGRAM_FIELDS(struct uprobe_program_fields,
    PROGRAM_FIELD(STRING, struct uprobe_program_fields, build_id),
    PROGRAM_FIELD(U64, struct uprobe_program_fields, ref_ctr_offset));

static const struct uprobe_program_fields *uprobe_fields(const struct program_probe *probe)
{
    return probe->kind_fields;
}

void uprobe_hook_describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    struct uprobe_program_fields *fields = calloc(1, sizeof(*fields));
    out->kind_fields = fields;
    out->path = strdup(probe->uprobe.path);
    fields->ref_ctr_offset = probe->uprobe.ref_ctr_offset;
    /* a wildcard gives thousands of probes in one binary, described one
     * after another: its build id is read once */
    if (previous && probe_kind_program_fields(previous->kind) == &uprobe_program_fields &&
        uprobe_fields(previous)->build_id && strcmp(previous->path, out->path) == 0) {
        fields->build_id = strdup(uprobe_fields(previous)->build_id);
        return;
    }
    char build_id[128];
    elf_build_id(probe->uprobe.path, build_id, sizeof(build_id));
    fields->build_id = strdup(build_id);
}

/* --run: the binary must be the one the object was compiled for. */
int uprobe_hook_check_run(const struct program_probe *probe, char *error, size_t error_size)
{
    const char *then = uprobe_fields(probe)->build_id;
    if (!probe->path || !then || !then[0])
        return 0;
    char now[128];
    elf_build_id(probe->path, now, sizeof(now));
    if (strcmp(now, then) == 0)
        return 0;
    snprintf(error, error_size,
             "%s has build-id %s, but the object was compiled against build-id %s: "
             "recompile the script for this binary",
             probe->path, now[0] ? now : "(none, or unreadable)", then);
    return -1;
}

static int attach_one_uprobe(struct session *s, struct bpf_program *prog,
                             const struct program_probe *probe)
{
    LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = probe->cookie,
                .retprobe = probe_kind_has(probe->kind, KIND_AT_RETURN), .ref_ctr_offset = uprobe_fields(probe)->ref_ctr_offset);
    /* Not filtered by pid: the handler keeps the target and its descendants. */
    pid_t pid = -1;
    struct bpf_link *link =
        bpf_program__attach_uprobe_opts(prog, pid, probe->path, probe->offset, &opts);
    if (!link)
        return -errno;
    s->slow_detach = 1;
    return add_link(s, link);
}

/* One program's probes in one binary, attached as uprobe_multi links. */
struct uprobe_batch {
    int prog_fd;
    const char *path;
    int is_return;
    int *members;                /* indices in program->probes */
    uint64_t *offsets, *ref_ctr_offsets, *cookies;   /* ref_ctr_offsets: NULL when none has one */
};

/* Members [first, first + count) in one link. The kernel refuses the whole
 * link for one offset it refuses: halving the set until each such probe
 * stands alone names it, and every other probe still attaches (in about
 * refused * log2(count) links). */
static int attach_members(struct session *s, const struct uprobe_batch *b, int first, int count, char *state)
{
    int fd = uprobe_multi_attach(b->prog_fd, b->path, b->offsets + first,
                                 b->ref_ctr_offsets ? b->ref_ctr_offsets + first : NULL, b->cookies + first,
                                 (uint32_t)count, b->is_return);
    if (fd >= 0)
        fd = add_raw_link(s, fd);
    if (fd >= 0)
        return 0;
    if (count == 1 || !is_offset_error(fd))
        return attach_failed(s, state, b->members[first], fd);
    int half = count / 2;
    int left = attach_members(s, b, first, half, state);
    int right = attach_members(s, b, first + half, count - half, state);
    return left < 0 ? left : right;
}

/* Every probe entry of this program (one per function a wildcard matched)
 * goes into one uprobe_multi link, each offset with its cookie. */
static int attach_uprobe_group(struct session *s, struct bpf_program *prog, int first, char *state)
{
    const struct program *program = s->program;
    const struct program_probe *head = &program->probes[first];
    size_t n = (size_t)program->probe_count;
    struct uprobe_batch b = {bpf_program__fd(prog), head->path, probe_kind_has(head->kind, KIND_AT_RETURN),
                             calloc(n, sizeof(int)), calloc(n, sizeof(uint64_t)), calloc(n, sizeof(uint64_t)),
                             calloc(n, sizeof(uint64_t))};
    uint64_t *ref_ctr_offsets = b.ref_ctr_offsets;
    int count = 0, any_ref_ctr = 0, status;
    if (!b.members || !b.offsets || !b.ref_ctr_offsets || !b.cookies) {
        status = attach_failed(s, state, first, -ENOMEM);
        goto done;
    }
    for (int i = first; i < program->probe_count; i++) {
        const struct program_probe *p = &program->probes[i];
        if (state[i] != PROBE_PENDING || p->kind != head->kind || strcmp(p->prog_name, head->prog_name) != 0 ||
            strcmp(p->path, head->path) != 0)
            continue;
        b.members[count] = i;
        b.offsets[count] = p->offset;
        b.ref_ctr_offsets[count] = uprobe_fields(p)->ref_ctr_offset;
        any_ref_ctr |= uprobe_fields(p)->ref_ctr_offset != 0;
        b.cookies[count++] = p->cookie;
        state[i] = PROBE_CLAIMED;
    }
    if (!any_ref_ctr)
        b.ref_ctr_offsets = NULL;
    status = attach_members(s, &b, 0, count, state);
done:
    free(b.members);
    free(b.offsets);
    free(ref_ctr_offsets);
    free(b.cookies);
    return status;
}

int uprobe_hook_attach(struct session *s, struct bpf_program *prog, int index, char *state)
{
    if (s->uprobe_multi)
        return attach_uprobe_group(s, prog, index, state) < 0 ? ATTACH_REPORTED : 0;   /* reports its own failures */
    return attach_one_uprobe(s, prog, &s->program->probes[index]);
}

const char *uprobe_hook_attach_error(const struct program_probe *probe, int err)
{
    (void)probe;
    if (err == -ENOTSUPP)
        return "the kernel's uprobes refuse the instruction there";
    if (err == -ENOEXEC)
        return "the kernel's uprobes cannot decode the instruction there";
    return NULL;
}

/* a probe at a DWARF site: at a .return, the return register is set */
enum register_place uprobe_hook_register_place(const struct sema *s)
{
    const struct uprobe_site *site = s->probe->uprobe.site;
    return !site ? REGISTERS_NONE : site->is_return ? REGISTERS_AT_RETURN : REGISTERS_AT_ENTRY;
}

const struct probe_kind_ops uprobe_kind = {
    .kind = PROBE_UPROBE, .name = "uprobe", .flags = UPROBE_FLAGS,
    .heads = (const char *const[]){"process", NULL}, .resolve = resolve_process, .catalogue = catalogue,
    .register_place = uprobe_hook_register_place, UPROBE_LOAD_AND_ATTACH,
};

/* made by process's resolver */
const struct probe_kind_ops uretprobe_kind = {
    .kind = PROBE_URETPROBE, .name = "uretprobe", .flags = URETPROBE_FLAGS,
    .register_place = uprobe_hook_register_place, UPROBE_LOAD_AND_ATTACH,
};
