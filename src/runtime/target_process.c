/* target(): the -c child or the -x process. The -c child is forked before
 * load (target() is compiled into .data), waits on a pipe until every probe
 * is attached, then execs, so no early call is missed. Either target's exit
 * is noticed with a pidfd in the event loop. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/session.h"

static int pidfd_open(pid_t pid)
{
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

static void child_exec(struct session *s, int go_fd)
{
    const char *command = s->options->target_command;
    char byte = 0;
    ssize_t n;

    sigprocmask(SIG_SETMASK, &s->saved_mask, NULL);
    do
        n = read(go_fd, &byte, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1)
        _exit(127);   /* EOF: tap gave up before attaching */
    if (command_needs_shell(command)) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    } else {
        char **argv = command_split(command);
        if (argv && argv[0])
            execvp(argv[0], argv);
    }
    fprintf(stderr, "ERROR: -c: cannot run '%s': %s\n", command, strerror(errno));
    _exit(127);
}

int session_start_child(struct session *s)
{
    int fds[2];

    if (command_check(s->options->target_command) < 0) {
        fprintf(stderr, "ERROR: -c: cannot run '%s': %s\n", s->options->target_command, strerror(errno));
        return -1;
    }
    if (pipe2(fds, O_CLOEXEC) < 0) {
        fprintf(stderr, "ERROR: -c: %s\n", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "ERROR: -c: cannot fork: %s\n", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[1]);
        child_exec(s, fds[0]);
    }
    close(fds[0]);
    s->child_go_fd = fds[1];
    s->child_pid = s->target_pid = pid;
    return 0;
}

int session_release_child(struct session *s)
{
    if (s->child_go_fd < 0)
        return 0;
    if (write(s->child_go_fd, "g", 1) != 1) {
        fprintf(stderr, "ERROR: -c: cannot start the command: %s\n", strerror(errno));
        return -1;
    }
    close(s->child_go_fd);
    s->child_go_fd = -1;
    s->child_released = 1;
    return 0;
}

/* A -x pid that does not exist is an error (tap.c says so before compiling;
 * this is for one that exited since): a session waiting on it would never end. */
int session_watch_target(struct session *s)
{
    if (!s->target_pid)
        return 0;
    s->target_pidfd = pidfd_open(s->target_pid);
    if (s->target_pidfd < 0) {
        if (errno == ESRCH && !s->child_pid) {
            fprintf(stderr, "ERROR: -x %d: no such process\n", (int)s->target_pid);
            return -1;
        }
        fprintf(stderr, "ERROR: cannot watch process %d: %s\n", (int)s->target_pid,
                strerror(errno));
        return -1;
    }
    return 0;
}

static void reap_child(struct session *s, int options)
{
    int status;

    if (!s->child_pid || s->child_reaped)
        return;
    if (waitpid(s->child_pid, &status, options) == s->child_pid) {
        s->child_status = status;
        s->child_reaped = 1;
    }
}

void session_target_exited(struct session *s)
{
    reap_child(s, WNOHANG);
    if (s->end == SESSION_RUNNING)
        s->end = SESSION_END_TARGET;
}

/* A child still running when the session ends was started by tap: stop it
 * (SIGTERM, then SIGKILL after 100 ms) rather than leave it holding the
 * terminal or the caller's pipes. Returns 1 when the command failed. */
static int report_child_status(int status)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fprintf(stderr, "WARNING: Child process exited with status %d\n", WEXITSTATUS(status));
        return 1;
    }
    if (WIFSIGNALED(status)) {
        const char *name = sigabbrev_np(WTERMSIG(status));
        fprintf(stderr, "WARNING: Child process was killed by signal SIG%s\n",
                name ? name : "UNKNOWN");
        return 1;
    }
    return 0;
}

int session_finish_child(struct session *s)
{
    int failed = 0;

    if (!s->child_pid)
        return 0;
    if (s->child_go_fd >= 0) {
        close(s->child_go_fd);   /* never released: it exits without exec */
        s->child_go_fd = -1;
    }
    reap_child(s, WNOHANG);
    if (!s->child_reaped && s->child_released) {
        struct pollfd p = { .fd = s->target_pidfd, .events = POLLIN };
        kill(s->child_pid, SIGTERM);
        if (s->target_pidfd < 0 || poll(&p, 1, 100) <= 0)
            kill(s->child_pid, SIGKILL);
        reap_child(s, 0);
    } else {
        reap_child(s, 0);
        if (s->child_released)
            failed = report_child_status(s->child_status);
    }
    s->child_pid = 0;
    return failed;
}
