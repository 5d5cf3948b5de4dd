/* Attach every probe that is not begin/end/error, one kind per function.
 * Every attachment is a bpf_link owning an fd (perf event or BPF link):
 * nothing goes through tracefs probe files or pins, so if tap is killed the
 * kernel releases everything. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "runtime/session.h"


static int add_link(struct session *s, struct bpf_link *link)
{
    if (s->link_count == s->link_cap) {
        int cap = s->link_cap ? s->link_cap * 2 : 16;
        struct bpf_link **links = realloc(s->links, cap * sizeof(*links));
        if (!links) {
            bpf_link__destroy(link);
            return -ENOMEM;
        }
        s->links = links;
        s->link_cap = cap;
    }
    s->links[s->link_count++] = link;
    return 0;
}

/* Opens the perf event and attaches the program; returns 0 or -errno. */
static int attach_perf_event(struct session *s, struct bpf_program *prog,
                             const struct program_probe *probe, struct perf_event_attr *attr,
                             int cpu)
{
    LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = probe->cookie);
    int fd = syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct bpf_link *link = bpf_program__attach_perf_event_opts(prog, fd, &opts);
    if (!link) {
        int err = -errno;
        close(fd);
        return err;
    }
    return add_link(s, link);
}

static void sampling(struct perf_event_attr *attr, uint64_t period, uint64_t frequency)
{
    if (frequency) {
        attr->freq = 1;
        attr->sample_freq = frequency;
    } else {
        attr->sample_period = period ? period : 1;
    }
}

static int attach_timer(struct session *s, struct bpf_program *prog,
                        const struct program_probe *probe)
{
    struct perf_event_attr attr = {
        .type = PERF_TYPE_SOFTWARE,
        .size = sizeof(attr),
        .config = PERF_COUNT_SW_CPU_CLOCK,
    };
    sampling(&attr, probe->period_ns, probe->frequency);
    return attach_perf_event(s, prog, probe, &attr, 0);
}

/* timer.profile and perf.*: one event per online CPU. */
static int attach_every_cpu(struct session *s, struct bpf_program *prog,
                            const struct program_probe *probe)
{
    unsigned char cpus[MAX_CPUS];   /* per call: no state outside the session */
    struct perf_event_attr attr = { .size = sizeof(attr) };
    int err;

    if (probe->kind == PROGRAM_PROBE_PROFILE) {
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_CPU_CLOCK;
        sampling(&attr, probe->period_ns ? probe->period_ns : 10000000, probe->frequency);
    } else {
        attr.type = probe->perf_type;
        attr.config = probe->perf_config;
        sampling(&attr, probe->sample_period ? probe->sample_period : probe->period_ns,
                 probe->frequency);
    }
    online_cpus(cpus);
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        if (cpus[cpu] && (err = attach_perf_event(s, prog, probe, &attr, cpu)) < 0)
            return err;
    }
    return 0;
}

static int attach_uprobe(struct session *s, struct bpf_program *prog,
                         const struct program_probe *probe)
{
    LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = probe->cookie,
                .retprobe = probe->kind == PROGRAM_PROBE_URETPROBE, .ref_ctr_offset = probe->ref_ctr_offset);
    /* Not filtered by pid: the handler keeps the target and its descendants. */
    pid_t pid = -1;
    struct bpf_link *link =
        bpf_program__attach_uprobe_opts(prog, pid, probe->path, probe->offset, &opts);
    if (!link)
        return -errno;
    s->slow_detach = 1;
    return add_link(s, link);
}

static int add_raw_link(struct session *s, int fd)
{
    if (s->raw_link_count == s->raw_link_cap) {
        int cap = s->raw_link_cap ? s->raw_link_cap * 2 : 8;
        int *links = realloc(s->raw_links, cap * sizeof(*links));
        if (!links) {
            close(fd);
            return -ENOMEM;
        }
        s->raw_links = links;
        s->raw_link_cap = cap;
    }
    s->raw_links[s->raw_link_count++] = fd;
    return 0;
}

/* The kernel's errno for an instruction uprobes refuse; user space's
 * errno.h does not have it. */
#define ENOTSUPP 524

enum attach_state { PROBE_PENDING, PROBE_CLAIMED, PROBE_FAILED };

/* Errors that belong to one offset (an instruction the kernel refuses, or
 * an offset outside the file), so that one failing probe of a wildcard is
 * skipped and the others attach. */
static int is_offset_error(int err)
{
    return err == -ENOTSUPP || err == -ENOEXEC || err == -EINVAL;
}

static const char *attach_error_text(const struct program_probe *probe, int err)
{
    if (probe->kind == PROGRAM_PROBE_PERF && (err == -ENOENT || err == -EOPNOTSUPP) &&
        probe->perf_type == PERF_TYPE_HARDWARE)
        return "this machine has no hardware performance counters";
    if (err == -ENOENT && probe->kind == PROGRAM_PROBE_TRACEPOINT)
        return "no such tracepoint";
    if (err == -ENOTSUPP)
        return "the kernel's uprobes refuse the instruction there";
    if (err == -ENOEXEC)
        return "the kernel's uprobes cannot decode the instruction there";
    return strerror(-err);
}

/* Probe i could not be attached: a probe a wildcard matched is skipped
 * with a warning (once per point: a probe on calls has several offsets);
 * any other failure ends the session. */
static int attach_failed(struct session *s, char *state, int i, int err)
{
    const struct program_probe *probe = &s->program->probes[i];
    state[i] = PROBE_FAILED;
    if (!probe->may_skip || !is_offset_error(err)) {
        fprintf(stderr, "ERROR: cannot attach probe %s: %s\n", probe->point, attach_error_text(probe, err));
        return -1;
    }
    for (int k = 0; k < s->program->probe_count; k++)
        if (k != i && state[k] == PROBE_FAILED && strcmp(s->program->probes[k].point, probe->point) == 0)
            return 0;
    fprintf(stderr, "WARNING: skipping probe %s: %s\n", probe->point, attach_error_text(probe, err));
    return 0;
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
    struct uprobe_batch b = {bpf_program__fd(prog), head->path, head->kind == PROGRAM_PROBE_URETPROBE,
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
        b.ref_ctr_offsets[count] = p->ref_ctr_offset;
        any_ref_ctr |= p->ref_ctr_offset != 0;
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

/* libbpf reads tracepoint ids from tracefs, which may not be mounted. */
static void ensure_tracefs(void)
{
    struct stat st;
    if (stat("/sys/kernel/tracing/events", &st) == 0 ||
        stat("/sys/kernel/debug/tracing/events", &st) == 0)
        return;
    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
}

static int attach_tracepoint(struct session *s, struct bpf_program *prog,
                             const struct program_probe *probe)
{
    LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = probe->cookie);
    ensure_tracefs();
    struct bpf_link *link =
        bpf_program__attach_tracepoint_opts(prog, probe->tp_category, probe->tp_name, &opts);
    if (!link)
        return -errno;
    s->slow_detach = 1;   /* each detach waits for an RCU grace period: syscall.* has hundreds */
    return add_link(s, link);
}

static int attach_raw_tracepoint(struct session *s, struct bpf_program *prog,
                                 const struct program_probe *probe)
{
    struct bpf_link *link = bpf_program__attach_raw_tracepoint(prog, probe->tp_name);
    if (!link)
        return -errno;
    s->slow_detach = 1;
    return add_link(s, link);
}

int session_attach(struct session *s)
{
    char *state = calloc((size_t)s->program->probe_count + 1, 1);
    int status = state ? 0 : -1;
    for (int i = 0; i < s->program->probe_count && status == 0; i++) {
        const struct program_probe *probe = &s->program->probes[i];
        if (state[i] != PROBE_PENDING)
            continue;
        struct bpf_program *prog = bpf_object__find_program_by_name(s->object, probe->prog_name);
        int err = 0;

        switch (probe->kind) {
        case PROGRAM_PROBE_BEGIN:
        case PROGRAM_PROBE_END:
        case PROGRAM_PROBE_ERROR:
            continue;
        case PROGRAM_PROBE_TIMER:
            err = attach_timer(s, prog, probe);
            break;
        case PROGRAM_PROBE_PROFILE:
        case PROGRAM_PROBE_PERF:
            err = attach_every_cpu(s, prog, probe);
            break;
        case PROGRAM_PROBE_UPROBE:
        case PROGRAM_PROBE_URETPROBE:
            if (s->uprobe_multi) {
                status = attach_uprobe_group(s, prog, i, state);   /* reports its own failures */
                continue;
            }
            err = attach_uprobe(s, prog, probe);
            break;
        case PROGRAM_PROBE_TRACEPOINT:
            err = attach_tracepoint(s, prog, probe);
            break;
        case PROGRAM_PROBE_RAW_TRACEPOINT:
            err = attach_raw_tracepoint(s, prog, probe);
            break;
        }
        state[i] = PROBE_CLAIMED;
        if (err < 0)
            status = attach_failed(s, state, i, err);
    }
    free(state);
    return status;
}

/* close_range(first, last) except the fd keep. */
static void close_except(unsigned int first, unsigned int last, int keep)
{
    unsigned int k = (unsigned int)keep;
    if (k < first || k > last) {
        syscall(SYS_close_range, first, last, 0);
        return;
    }
    if (k > first)
        syscall(SYS_close_range, first, k - 1, 0);
    if (k < last)
        syscall(SYS_close_range, k + 1, last, 0);
}

static int compare_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Closing a perf-event uprobe costs ~100 ms (an RCU grace period each,
 * serially), paid by whoever drops the last reference. A child inherits the
 * link fds, closes everything else (so no pipe waits on it), waits until
 * tap has exited (its pidfd turns readable after its files are released)
 * and only then lets go of the links. */
static void detach_in_background(struct session *s)
{
    int total = s->link_count + s->raw_link_count;
    int *fds = malloc((size_t)total * sizeof(int));
    if (!fds)
        return;
    for (int i = 0; i < s->link_count; i++)
        fds[i] = bpf_link__fd(s->links[i]);
    for (int i = 0; i < s->raw_link_count; i++)
        fds[s->link_count + i] = s->raw_links[i];
    qsort(fds, total, sizeof(int), compare_int);

    int parent = (int)syscall(SYS_pidfd_open, getpid(), 0);
    pid_t pid = parent < 0 ? -1 : fork();
    if (pid != 0) {
        free(fds);
        if (parent >= 0)
            close(parent);
        return;
    }
    unsigned int next = 0;
    for (int i = 0; i < total; i++) {
        if (fds[i] < 0 || (unsigned int)fds[i] < next)
            continue;
        if ((unsigned int)fds[i] > next)
            close_except(next, (unsigned int)fds[i] - 1, parent);
        next = (unsigned int)fds[i] + 1;
    }
    close_except(next, ~0u, parent);
    setsid();
    struct pollfd p = { .fd = parent, .events = POLLIN };
    while (poll(&p, 1, -1) < 0 && errno == EINTR)
        ;
    _exit(0);   /* the kernel closes the links one by one */
}

void session_detach(struct session *s)
{
    if ((s->slow_detach && s->link_count > 0) || s->raw_link_count > 0) {
        detach_in_background(s);
        /* the child holds the links now: drop ours without detaching */
        for (int i = 0; i < s->link_count; i++)
            bpf_link__disconnect(s->links[i]);
    }
    for (int i = 0; i < s->link_count; i++)
        bpf_link__destroy(s->links[i]);
    for (int i = 0; i < s->raw_link_count; i++)
        close(s->raw_links[i]);
    free(s->links);
    free(s->raw_links);
    s->links = NULL;
    s->raw_links = NULL;
    s->link_count = s->link_cap = s->raw_link_count = s->raw_link_cap = 0;
}
