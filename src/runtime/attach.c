/* Attach every probe that is not begin/end/error: each by its kind's hook
 * (kinds/), with the helpers they share (attach.h).
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
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "runtime/attach.h"


int add_link(struct session *s, struct bpf_link *link)
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
int attach_perf_event(struct session *s, struct bpf_program *prog,
                      const struct program_probe *probe, struct perf_event_attr *attr,
                      int cpu)
{
    int fd = syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return -errno;
    return attach_perf_fd(s, prog, probe, fd);
}

/* Attaches the program to the open perf event FD (closed on failure); returns 0 or -errno. */
int attach_perf_fd(struct session *s, struct bpf_program *prog, const struct program_probe *probe, int fd)
{
    LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = probe->cookie);
    struct bpf_link *link = bpf_program__attach_perf_event_opts(prog, fd, &opts);
    if (!link) {
        int err = -errno;
        close(fd);
        return err;
    }
    return add_link(s, link);
}

void perf_event_sampling(struct perf_event_attr *attr, uint64_t period, uint64_t frequency)
{
    if (frequency) {
        attr->freq = 1;
        attr->sample_freq = frequency;
    } else {
        attr->sample_period = period ? period : 1;
    }
}

/* A per-task event on the -c/-x target (its first thread, as SystemTap's
 * per-task events): perf's .process, process.data. The -c child waits to
 * exec: its event starts then. The fd, or -errno. */
int open_perf_on_target(struct session *s, struct perf_event_attr *attr)
{
    if (!s->target_pid)   /* an object compiled with -p4 alone, run without -c/-x */
        return ATTACH_NO_TARGET;
    attr->disabled = attr->enable_on_exec = s->child_pid != 0;
    int fd = (int)syscall(SYS_perf_event_open, attr, s->target_pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int attach_perf_on_target(struct session *s, struct bpf_program *prog, const struct program_probe *probe,
                          struct perf_event_attr *attr)
{
    int fd = open_perf_on_target(s, attr);
    return fd < 0 ? fd : attach_perf_fd(s, prog, probe, fd);
}

/* timer.profile and perf.*: one event per online CPU. */
int attach_every_cpu(struct session *s, struct bpf_program *prog, const struct program_probe *probe,
                     struct perf_event_attr *attr)
{
    unsigned char cpus[MAX_CPUS];   /* per call: no state outside the session */
    int err;

    online_cpus(cpus);
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        if (cpus[cpu] && (err = attach_perf_event(s, prog, probe, attr, cpu)) < 0)
            return err;
    }
    return 0;
}

int add_raw_link(struct session *s, int fd)
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

/* Errors that belong to one offset (an instruction the kernel refuses, or
 * an offset outside the file) or one kernel function name (several symbols
 * share it: EADDRNOTAVAIL), so that one failing probe of a wildcard is
 * skipped and the others attach. */
int is_offset_error(int err)
{
    return err == -ENOTSUPP || err == -ENOEXEC || err == -EINVAL || err == -EADDRNOTAVAIL;
}

static const char *attach_error_text(const struct program_probe *probe, int err)
{
    if (err == ATTACH_NO_TARGET)
        return "it opens its event on the target process: run it with -c CMD or -x PID";
    const struct probe_kind_ops *ops = probe_kind_ops(probe->kind);
    const char *text = ops->attach_error ? ops->attach_error(probe, err) : NULL;
    return text ? text : strerror(-err);
}

/* Probe i could not be attached: a probe a wildcard matched is skipped
 * with a warning (once per point: a probe on calls has several offsets);
 * any other failure ends the session. */
int attach_failed(struct session *s, char *state, int i, int err)
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

int session_attach(struct session *s)
{
    char *state = calloc((size_t)s->program->probe_count + 1, 1);
    int status = state ? 0 : -1;
    for (int i = 0; i < s->program->probe_count && status == 0; i++) {
        const struct program_probe *probe = &s->program->probes[i];
        if (state[i] != PROBE_PENDING)
            continue;
        const struct probe_kind_ops *ops = probe_kind_ops(probe->kind);
        if (!ops->attach)
            continue;   /* begin, end, error: run by the runtime */
        struct bpf_program *prog = bpf_object__find_program_by_name(s->object, probe->prog_name);
        int err = ops->attach(s, prog, i, state);
        if (err == ATTACH_REPORTED) {
            status = -1;
            continue;
        }
        if (state[i] == PROBE_PENDING)
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
