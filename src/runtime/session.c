/* runtime_run: the session from load to detach, one visible sequence. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "base/format.h"
#include "runtime/session.h"
#include "runtime/mappings.h"
#include "runtime/symbols.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int has_privileges(void)
{
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
    struct __user_cap_data_struct data[2] = { { 0 } };

    if (geteuid() == 0)
        return 1;
    if (syscall(SYS_capget, &header, data) < 0)
        return 0;
    uint64_t effective = data[0].effective | (uint64_t)data[1].effective << 32;
    return (effective & (1ull << CAP_BPF)) && (effective & (1ull << CAP_PERFMON));
}

static int open_output(struct session *s)
{
    const char *path = s->options->output_path;

    s->out_fd = STDOUT_FILENO;
    if (!path)
        return 0;
    s->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (s->out_fd < 0) {
        fprintf(stderr, "ERROR: cannot open output file '%s': %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void session_init(struct session *s, const struct program *program,
                         const struct runtime_options *options)
{
    memset(s, 0, sizeof(*s));
    s->program = program;
    s->options = options;
    s->start_ns = now_ns();
    s->out_fd = s->child_go_fd = s->target_pidfd = -1;
    s->epoll_fd = s->signal_fd = s->timer_fd = -1;
    strbuf_init(&s->out);
    strbuf_init(&s->procfs_value);
}

static void close_fd(int fd)
{
    if (fd >= 0)
        close(fd);
}

static void session_free(struct session *s)
{
    session_procfs_close(s);
    session_detach(s);
    ring_buffer__free(s->events);
    ring_buffer__free(s->control);
    if (s->data)
        munmap(s->data, s->data_mmap_size);
    session_unload(s);
    if (s->formats) {
        for (int i = 0; i < s->program->format_count; i++)
            format_free(&s->formats[i]);
        free(s->formats);
    }
    free(s->commands);
    strbuf_free(&s->out);
    symbols_free(s->symbols);
    mappings_free(s->mappings);
    session_free_unwind_tables(s);
    session_free_line_tables(s);
    if (s->out_fd > STDERR_FILENO)
        close(s->out_fd);
    close_fd(s->child_go_fd);
    close_fd(s->target_pidfd);
    close_fd(s->epoll_fd);
    close_fd(s->timer_fd);
    if (s->signal_fd >= 0) {
        close(s->signal_fd);
        sigprocmask(SIG_SETMASK, &s->saved_mask, NULL);
    }
}

/* Begin probes, attach, let the -c child run, pump events. */
static int session_start(struct session *s)
{
    s->commands_held = 1;
    session_run_probes(s, RUN_AT_BEGIN);
    session_flush(s);
    if (s->end != SESSION_RUNNING) {
        session_release_commands(s, 1);
        return 0;   /* exit() or an error in begin: straight to end */
    }
    /* before anything runs: the libraries it loads later */
    int refresh = session_symbol_maps_used(s) || session_unwind_maps_used(s) || session_line_maps_used(s) ||
                  session_proc_maps_used(s);
    if (s->program->user_frames || refresh)
        s->mappings = mappings_open(s->child_pid, refresh);
    if (s->target_pid && !s->child_pid)   /* -x: what it mapped before tap started */
        mappings_add_process(s->mappings, s->target_pid);
    session_refresh_proc_maps(s);
    int attached = session_attach(s);
    session_release_commands(s, attached == 0);
    if (attached < 0)
        return -1;
    session_scan_processes(s);
    if (session_release_child(s) < 0)
        return -1;
    return session_loop(s);
}

/* Other handlers stop, then end (or error) probes run on what is left. */
static void session_end(struct session *s)
{
    s->state->exiting = 1;
    session_drain_all(s);
    if (s->end != SESSION_END_ABORT)
        session_run_probes(s, s->end == SESSION_END_ERROR ? RUN_AT_ERROR : RUN_AT_END);
    session_drain_all(s);
    if (s->end != SESSION_END_ABORT && !s->options->no_global_display)
        session_print_globals(s);
    session_print_timing(s);
    session_report_losses(s);
}

/* A program per kernel function and a link (and perf event) per probe: a
 * wildcard's hundreds pass the usual 1024 descriptors (EMFILE), the
 * gallery's fs wildcard (~3000 kprobes, two fds each on 6.1) the usual hard
 * limit of 4096. Both go to what the kernel lets a process have (nr_open)
 * where tap may raise the hard limit (root), else the soft to the hard. */
static void raise_open_file_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return;
    FILE *f = fopen("/proc/sys/fs/nr_open", "r");
    unsigned long long most = 0;
    if (f) {
        if (fscanf(f, "%llu", &most) != 1)
            most = 0;
        fclose(f);
    }
    struct rlimit raised = {most, most};
    if (most > limit.rlim_max && setrlimit(RLIMIT_NOFILE, &raised) == 0)
        return;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

int runtime_run(const struct program *program, const struct runtime_options *options)
{
    struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
    struct session s;
    int status = 1;

    if (!has_privileges()) {
        fprintf(stderr,
                "ERROR: tap needs root (or CAP_BPF and CAP_PERFMON) to load BPF programs\n");
        return 1;
    }
    session_init(&s, program, options);
    setrlimit(RLIMIT_MEMLOCK, &unlimited);   /* not needed with memcg accounting */

    if (open_output(&s) < 0 || session_block_signals(&s) < 0)
        goto cleanup;
    s.target_pid = options->target_pid;
    if (options->target_command && session_start_child(&s) < 0)
        goto cleanup;
    raise_open_file_limit();   /* after the -c command started: it keeps the usual limit */
    if (session_watch_target(&s) < 0 || session_load(&s) < 0 || session_open_events(&s) < 0)
        goto cleanup;

    if (session_start(&s) < 0) {
        session_flush(&s);
        goto cleanup;
    }
    session_end(&s);
    session_reap_commands(&s, 1);
    status = s.end == SESSION_END_ERROR || s.runtime_errors ? 1 : 0;
    if (session_finish_child(&s))
        status = 1;
    if (options->verbose)
        fprintf(stderr, "Pass 5: run completed in %llu ms.\n",
                (unsigned long long)((now_ns() - s.start_ns) / 1000000));

cleanup:
    session_finish_child(&s);
    session_free(&s);
    return status;
}
