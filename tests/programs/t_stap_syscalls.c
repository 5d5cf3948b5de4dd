/* Known system calls with known arguments, for the goldens of SystemTap's
 * syscall alias names and variables (syscall_stap_*). Every buffer and
 * path is in a page mapped at 0x10000000, so the *_uaddr values are known:
 * "/tmp" at +0, "/nonexistent/x" at +0x10, "/nonexistent/y" at +0x20, a
 * zero timespec at +0x200, buffers at +0x400, +0x800, +0xc00 and +0x1000.
 * Each call is made with syscall(2), so libc picks no other syscall. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fixed_page.h"


int main(void)
{
    char *p = map_fixed_page();
    if (!p)
        return 1;
    strcpy(p, "/tmp");
    strcpy(p + 0x10, "/nonexistent/x");
    strcpy(p + 0x20, "/nonexistent/y");
    long fd = syscall(SYS_openat, AT_FDCWD, p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    syscall(SYS_open, p + 0x20, O_WRONLY | O_CREAT | O_TRUNC, 0640);
    syscall(SYS_stat, p, p + 0x400);
    syscall(SYS_lstat, p, p + 0x400);
    syscall(SYS_fstat, fd, p + 0x400);
    syscall(SYS_newfstatat, AT_FDCWD, p, p + 0x400, AT_SYMLINK_NOFOLLOW);
    syscall(SYS_pread64, fd, p + 0x800, 16, 5);
    syscall(SYS_pwrite64, -1, p, 4, 7);
    syscall(SYS_write, -1, p, 3);
    syscall(SYS_sendfile, -1, -1, p, 10);
    syscall(SYS_uname, p + 0x400);
    syscall(SYS_getdents64, fd, p + 0x1000, 0);
    syscall(SYS_getdents, fd, p + 0x1000, 0);
    syscall(SYS_pipe, p + 0xc00);
    syscall(SYS_pipe2, p + 0xc00, O_CLOEXEC);
    syscall(SYS_eventfd, 4);
    syscall(SYS_eventfd2, 3, O_CLOEXEC);
    syscall(SYS_epoll_create, 5);
    syscall(SYS_epoll_create1, 0);
    syscall(SYS_epoll_create1, O_CLOEXEC);
    syscall(SYS_inotify_init);
    syscall(SYS_inotify_init1, O_CLOEXEC);
    syscall(SYS_signalfd, -1, p + 0x400, 8);
    syscall(SYS_signalfd4, -1, p + 0x400, 8, 0);
    syscall(SYS_signalfd4, -1, p + 0x400, 8, O_CLOEXEC);
    syscall(SYS_access, p, R_OK | W_OK);
    syscall(SYS_faccessat, AT_FDCWD, p, F_OK);
    syscall(SYS_chdir, p);
    syscall(SYS_rename, p + 0x10, p + 0x20);
    syscall(SYS_kill, 0x7ffffff0, SIGUSR1);
    syscall(SYS_lseek, -1, 10, SEEK_END);
    syscall(SYS_nanosleep, p + 0x200, 0);
    syscall(SYS_mprotect, p + 0x1000, 4096, PROT_READ);
    syscall(SYS_munmap, p + 0x1000, 4096);
    syscall(SYS_exit_group, 3);
    return 0;
}
