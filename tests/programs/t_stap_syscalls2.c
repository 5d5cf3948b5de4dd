/* More known system calls with known arguments, for the golden of
 * SystemTap's decoded syscall variables (syscall_stap_vars_2). As in
 * t_stap_syscalls.c, memory is a page at 0x10000000: "/tmp" at +0, a
 * sigset at +0x100, a struct rlimit at +0x200, "/nonexistent/z" at +0x300,
 * buffers at +0x400. Calls fail harmlessly (fd -1, bad addresses) or have no
 * lasting effect; each is made with syscall(2) so libc adds none. */
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fixed_page.h"


int main(void)
{
    char *p = map_fixed_page();
    if (!p)
        return 1;
    strcpy(p, "/tmp");
    strcpy(p + 0x300, "/nonexistent/z");
    /* SIGINT, SIGUSR2 and SIGPIPE: SystemTap lists SIGPIPE first */
    *(unsigned long *)(p + 0x100) = (1UL << 1) | (1UL << 11) | (1UL << 12);
    ((long *)(p + 0x200))[0] = 1024;
    ((long *)(p + 0x200))[1] = -1;

    syscall(SYS_socket, AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 17);
    syscall(SYS_socket, 45, 0x7 | SOCK_CLOEXEC, 3);
    syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, p + 0x400);
    syscall(SYS_shutdown, -1, 2);
    syscall(SYS_setsockopt, -1, 1, 2, p + 0x400, 4);
    syscall(SYS_getsockopt, -1, 6, 99, p + 0x400, p + 0x408);
    syscall(SYS_sendto, -1, p, 4, 0x4040 | 0x80000000U, 0, 0);
    syscall(SYS_recvfrom, -1, p + 0x400, 16, 0x102, 0, 0);
    syscall(SYS_sendmsg, -1, p + 0x400, 0);
    syscall(SYS_accept4, -1, 0, 0, SOCK_CLOEXEC | 0x10);
    syscall(SYS_fcntl, -1, F_DUPFD_CLOEXEC, 3);
    syscall(SYS_fcntl, -1, 36, p);
    syscall(SYS_epoll_ctl, -1, 3, -1, p + 0x400);
    syscall(SYS_dup2, -100, -1);
    syscall(SYS_dup3, -1, -1, O_CLOEXEC | 0x1);
    syscall(SYS_pipe2, p + 0x400, O_NONBLOCK | O_DIRECT);
    syscall(SYS_eventfd2, 0, 0x800 | 1);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, p + 0x100, 0, 8);
    syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, p + 0x100, 0, 8);
    syscall(SYS_rt_sigprocmask, 7, 0, 0, 8);
    syscall(SYS_madvise, p + 0x1000, 4096, MADV_DONTNEED);
    syscall(SYS_madvise, p + 0x1000, 4096, 21);
    syscall(SYS_msync, p, 4096, MS_ASYNC | MS_INVALIDATE);
    syscall(SYS_mlockall, 0x10);
    syscall(SYS_mlock2, p + 0x1000, 4096, 3);
    syscall(SYS_mremap, p + 0x1000, 4096, 8192, 1 | 4, 0);
    syscall(SYS_fadvise64, -1, 100, 200, 4);
    syscall(SYS_sched_get_priority_max, 0x40000000 | 2);
    syscall(SYS_sched_get_priority_min, 0);
    syscall(SYS_prlimit64, 0x7ffffff0, RLIMIT_NOFILE, p + 0x200, 0);
    syscall(SYS_setrlimit, 99, 0);
    syscall(SYS_getrusage, -1, p + 0x400);
    syscall(SYS_setpriority, 2, 0x7ffffff0, 5);
    syscall(SYS_wait4, 0x7ffffff0, p + 0x400, 1 | 0x40000000, 0);
    syscall(SYS_waitid, 1, 0x7ffffff0, 0, 4 | 0x1000000, 0);
    syscall(SYS_clock_gettime, 7, p + 0x400);
    syscall(SYS_clock_getres, -6, p + 0x400);
    syscall(SYS_timerfd_create, 1, 0x80000 | 0x800);
    syscall(SYS_unlinkat, -100, p + 0x300, 0x200);
    /* both refused (EINVAL): CLONE_THREAD without CLONE_SIGHAND, CLONE_PIDFD */
    syscall(SYS_clone, CLONE_THREAD | CLONE_NEWUSER | 0x1000 | SIGUSR1, 0, 0, 0, 0);
    syscall(SYS_unshare, 0x2000000 | 0x1000);
    syscall(SYS_inotify_add_watch, -1, p, 0x2 | 0x100 | 0x40000000 | 0x10000000);
    syscall(SYS_tgkill, 0x7ffffff0, 0x7ffffff0, 16);
    syscall(SYS_flock, -1, LOCK_EX | LOCK_NB);
    syscall(SYS_mprotect, p + 0x1000, 4096, PROT_READ | PROT_EXEC);
    syscall(SYS_ioctl, -1, 0x5401, p);
    syscall(SYS_exit_group, 0);
    return 0;
}
