/* Syscalls whose SystemTap return aliases need values from the call (the
 * golden syscall_stap_vars_5): pipe and pipe2 write two fds over an array
 * that holds -7 and -8 at the call; wait4 reaps a child that exits with 3,
 * one killed by SIGKILL, one stopped by SIGSTOP, with a NULL status, with
 * WNOHANG and none left; epoll_create1 and signalfd4 with and without
 * flags. Then mq_open and remap_file_pages with known flags, failing
 * (the name has no queue, the mapping is not shared). The arrays,
 * statuses and names are on the page at 0x10000000 (fixed_page.h). Each
 * is made with syscall(2). */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixed_page.h"

static int *fds_at(char *p, int offset)
{
    int *fds = (int *)(p + offset);
    fds[0] = -7;
    fds[1] = -8;
    return fds;
}

static pid_t child(int how)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (how == SIGSTOP)
            raise(SIGSTOP);
        else if (how == SIGKILL)
            pause();
        _exit(3);
    }
    return pid;
}

static void reap(char *p)
{
    int *status = (int *)(p + 0x100);
    pid_t exited = child(0);
    syscall(SYS_wait4, exited, status, 0, NULL);
    pid_t killed = child(SIGKILL);
    kill(killed, SIGKILL);
    syscall(SYS_wait4, killed, status, 0, NULL);
    pid_t stopped = child(SIGSTOP);
    syscall(SYS_wait4, stopped, status, WUNTRACED, NULL);
    kill(stopped, SIGKILL);
    syscall(SYS_wait4, stopped, NULL, 0, NULL);
    pid_t running = child(SIGKILL);
    syscall(SYS_wait4, running, status, WNOHANG, NULL);   /* 0: still running */
    kill(running, SIGKILL);
    syscall(SYS_wait4, running, status, 0, NULL);
    syscall(SYS_wait4, -1, status, 0, NULL);              /* ECHILD */
}

int main(void)
{
    syscall(SYS_close_range, 3, ~0U, 0);   /* fds from 3 on, whatever the runner left open */
    char *p = map_fixed_page();
    if (!p)
        return 1;
    syscall(SYS_pipe2, fds_at(p, 0x10), O_CLOEXEC | O_NONBLOCK);   /* 3, 4 */
    syscall(SYS_pipe, fds_at(p, 0x20));                          /* 5, 6 */
    syscall(SYS_pipe2, fds_at(p, 0x30), 0x4);                    /* EINVAL: -7, -8 stay */
    syscall(SYS_pipe2, NULL, 0);                                 /* EFAULT */
    reap(p);
    syscall(SYS_epoll_create1, EPOLL_CLOEXEC);
    syscall(SYS_epoll_create1, 0);
    syscall(SYS_epoll_create, 1);
    sigset_t *mask = (sigset_t *)(p + 0x200);
    sigemptyset(mask);
    sigaddset(mask, SIGUSR1);
    syscall(SYS_signalfd4, -1, mask, 8, SFD_NONBLOCK | SFD_CLOEXEC);
    syscall(SYS_signalfd4, -1, mask, 8, 0);
    syscall(SYS_signalfd, -1, mask, 8);
    char *queue = strcpy(p + 0x300, "/tap-no-such-queue");
    syscall(SYS_mq_open, queue, O_RDONLY | O_NONBLOCK, 0, NULL);   /* no such queue */
    syscall(SYS_mq_open, queue + 1, O_RDWR | O_CREAT | O_EXCL, 0640, p + 0x400);   /* EINVAL: mq_maxmsg 0 */
    syscall(SYS_remap_file_pages, p, 4096, 0, 1, MAP_NONBLOCK);    /* EINVAL: not shared */
    syscall(SYS_remap_file_pages, p + 4096, 8192, PROT_READ | PROT_WRITE, 0, 0);
    return 0;
}
