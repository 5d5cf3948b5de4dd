/* The one event loop: ring buffers, signals, the target's pidfd and the -T
 * timer, all in one epoll. It stops as soon as any of them ends the
 * session; the rings are drained once more by the caller. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "runtime/mappings.h"
#include "runtime/session.h"

enum loop_source {
    SOURCE_EVENTS, SOURCE_CONTROL, SOURCE_SIGNAL, SOURCE_TARGET, SOURCE_TIMER, SOURCE_MAPPINGS, SOURCE_INPUT,
    SOURCE_PROCFS
};

/* Blocked before the -c child is forked (it restores the mask before exec),
 * so Ctrl-C during load or begin is not lost: it ends the session after
 * begin. */
int session_block_signals(struct session *s)
{
    sigset_t mask;

    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    /* a hangup ends the session cleanly too (end probes, files removed),
     * unless it is ignored (nohup): a blocked signal is never dropped */
    struct sigaction hangup;
    if (sigaction(SIGHUP, NULL, &hangup) == 0 && hangup.sa_handler != SIG_IGN)
        sigaddset(&mask, SIGHUP);
    if (sigprocmask(SIG_BLOCK, &mask, &s->saved_mask) < 0)
        return -1;
    s->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    return s->signal_fd < 0 ? -1 : 0;
}

static int watch(struct session *s, int fd, enum loop_source source, uint32_t flags)
{
    struct epoll_event ev = { .events = EPOLLIN | flags, .data.u32 = source };
    return fd < 0 ? 0 : epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
}

static int arm_timeout(struct session *s)
{
    double secs = s->options->timeout_seconds;
    struct itimerspec spec = { 0 };

    if (secs <= 0)
        return 0;
    s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (s->timer_fd < 0)
        return -1;
    spec.it_value.tv_sec = (time_t)secs;
    spec.it_value.tv_nsec = (long)((secs - floor(secs)) * 1e9);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0)
        spec.it_value.tv_nsec = 1;
    return timerfd_settime(s->timer_fd, 0, &spec, NULL);
}

/* The files and ranges the kernel reported mapped, into the symbol, unwind,
 * line and mapping maps BPF reads. */
static void publish_mappings(struct session *s)
{
    mappings_drain(s->mappings);
    s->ranges_published = mappings_range_count(s->mappings);
    session_refresh_symbol_maps(s);
    session_refresh_unwind_maps(s);
    session_refresh_line_maps(s);
    session_refresh_proc_maps(s);
    session_add_wanted_unwind_files(s);
    session_add_wanted_symbol_files(s);
}

/* Any reader may have drained the mapping rings (a stack's symbols, the
 * wanted files), and a drained ring wakes nobody: ranges it read that the
 * maps lack are published after each wakeup, not only on a ring's. Without
 * this a loaded machine lost libc's frames for a whole run: the wanted files'
 * drain took the -c command's mmap records, and tap_proc_maps stayed empty. */
static void publish_drained_mappings(struct session *s)
{
    if (mappings_range_count(s->mappings) > s->ranges_published)
        publish_mappings(s);
}

/* Returns 1 when records are still waiting after a bounded batch. */
static int handle(struct session *s, enum loop_source source)
{
    struct signalfd_siginfo info;

    switch (source) {
    case SOURCE_EVENTS:
    case SOURCE_CONTROL:
        return session_drain(s);
    case SOURCE_SIGNAL:
        while (read(s->signal_fd, &info, sizeof(info)) == sizeof(info)) {
            if (s->end == SESSION_RUNNING)
                s->end = SESSION_END_SIGNAL;
        }
        break;
    case SOURCE_TARGET:
        session_target_exited(s);
        break;
    case SOURCE_TIMER:
        if (s->end == SESSION_RUNNING)
            s->end = SESSION_END_TIMEOUT;
        break;
    case SOURCE_INPUT:
        if (!session_read_input(s))
            epoll_ctl(s->epoll_fd, EPOLL_CTL_DEL, STDIN_FILENO, NULL);   /* its end: nothing more */
        break;
    case SOURCE_PROCFS:
        session_procfs_serve(s);
        break;
    case SOURCE_MAPPINGS:
        publish_mappings(s);
        break;
    }
    return 0;
}

int session_loop(struct session *s)
{
    struct epoll_event events[8];

    s->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    /* Edge-triggered: tap_events wakes the loop only when a record asked
     * for it, not whenever a record that woke nobody is unread (level
     * triggering polled the ring again after every batch, so a steady
     * stream of events cost a wakeup and a write per few records). */
    if (s->epoll_fd < 0 || arm_timeout(s) < 0 ||
        watch(s, ring_buffer__epoll_fd(s->events), SOURCE_EVENTS, EPOLLET) < 0 ||
        watch(s, ring_buffer__epoll_fd(s->control), SOURCE_CONTROL, 0) < 0 ||
        watch(s, s->signal_fd, SOURCE_SIGNAL, 0) < 0 ||
        watch(s, s->target_pidfd, SOURCE_TARGET, 0) < 0 ||
        watch(s, s->timer_fd, SOURCE_TIMER, 0) < 0) {
        fprintf(stderr, "ERROR: cannot set up the event loop: %s\n", strerror(errno));
        return -1;
    }
    /* drained before their rings fill; without this, only when a frame needs them */
    for (int i = 0; mappings_fd(s->mappings, i) >= 0; i++)
        watch(s, mappings_fd(s->mappings, i), SOURCE_MAPPINGS, 0);
    int procfs_fd = session_procfs_open(s);
    if (procfs_fd == -2 || watch(s, procfs_fd, SOURCE_PROCFS, 0) < 0)
        return -1;
    /* a regular file (epoll refuses it) is read whole now */
    if (session_reads_input(s) && watch(s, STDIN_FILENO, SOURCE_INPUT, 0) < 0 && errno == EPERM)
        while (s->end == SESSION_RUNNING && session_read_input(s))
            session_drain(s);
    /* Records may have arrived between attach and now. */
    int more = session_drain(s);
    session_flush(s);
    while (s->end == SESSION_RUNNING) {
        /* records that woke nobody (see TAP_WAKEUP_PERIOD_NS) are read on
         * time; a batch cut short goes on at once (no edge will come) */
        int n = epoll_wait(s->epoll_fd, events, 8, more ? 0 : (int)(TAP_WAKEUP_PERIOD_NS / 1000000));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fprintf(stderr, "ERROR: epoll_wait: %s\n", strerror(errno));
            return -1;
        }
        more = 0;
        if (n == 0) {
            more = session_drain(s);
            session_add_wanted_unwind_files(s);
            session_add_wanted_symbol_files(s);
        }
        for (int i = 0; i < n; i++)
            more |= handle(s, events[i].data.u32);
        publish_drained_mappings(s);
        session_flush(s);
    }
    return 0;
}
