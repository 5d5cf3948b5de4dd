/* The *at calls, mount, the chown calls, link, symlink, chroot, statfs,
 * the flag words of memfd_create ... fallocate and System V IPC with known
 * arguments, for the golden of SystemTap's decoded
 * syscall variables (syscall_stap_vars_3). Memory is a page at 0x10000000
 * as in t_stap_syscalls2.c: "/nonexistent/a" at +0, "/nonexistent/b" at
 * +0x100, "abc" at +0x200, "size=1m" at +0x300, timespecs at +0x400,
 * buffers at +0x800. Every call fails: paths under /nonexistent, fd and
 * ids -1, unknown flag bits the kernel refuses, IPC keys that do not exist
 * without IPC_CREAT, or IPC_CREAT with a size or count the kernel refuses
 * before it creates anything; chroot and statfs of a path that does not
 * exist. Each is made with syscall(2). */
#include <fcntl.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fixed_page.h"

#define KEY 0x7a7a0001   /* 2054815745 */

int main(void)
{
    char *p = map_fixed_page();
    if (!p)
        return 1;
    strcpy(p, "/nonexistent/a");
    strcpy(p + 0x100, "/nonexistent/b");
    strcpy(p + 0x200, "abc");
    strcpy(p + 0x300, "size=1m");
    struct timespec *ts = (struct timespec *)(p + 0x400);
    ts[0].tv_sec = 1;
    ts[0].tv_nsec = 5;
    ts[1].tv_sec = 0;
    ts[1].tv_nsec = UTIME_OMIT;
    char *a = p, *b = p + 0x100, *buf = p + 0x800;

    syscall(SYS_renameat, AT_FDCWD, a, -1, b);
    syscall(SYS_renameat2, AT_FDCWD, a, 5, b, 1 | 4 | 0x10);
    syscall(SYS_linkat, AT_FDCWD, a, AT_FDCWD, b, AT_SYMLINK_FOLLOW | AT_EMPTY_PATH | 0x8000);
    syscall(SYS_symlinkat, p + 0x200, -1, b);
    syscall(SYS_fchownat, AT_FDCWD, a, -1, 1000, AT_SYMLINK_NOFOLLOW | 0x1);
    syscall(SYS_fchmodat, 7, a, 0640);
    syscall(SYS_mknod, b, S_IFIFO | 0644, 0);
    syscall(SYS_mknod, b, S_IFDIR | 0755, 0);
    syscall(SYS_mknodat, AT_FDCWD, b, S_IFCHR | 0600, 259);
    syscall(SYS_faccessat2, AT_FDCWD, a, R_OK | X_OK, 0x100 | 0x200 | 0x8000);
    syscall(SYS_utimensat, AT_FDCWD, a, ts, AT_SYMLINK_NOFOLLOW);
    /* the second timespec runs past the page: SystemTap's address */
    syscall(SYS_utimensat, 3, a, p + 8192 - 16, 0x2);
    syscall(SYS_statx, AT_FDCWD, a, AT_SYMLINK_NOFOLLOW | 0x2000, 0x7ff, buf);
    syscall(SYS_statx, -1, a, 0, 0x2000, buf);
    syscall(SYS_mount, p + 0x200, b, p + 0x200, 1UL | 2 | 0x100 | 0x1000 | 0x4000 | 0x100000000UL, p + 0x300);
    syscall(SYS_umount2, b, 2 | 8 | 0x20);
    syscall(SYS_memfd_create, p + 0x200, 1 | 2 | 0x100);
    syscall(SYS_getrandom, p + 0x200, 16, 1 | 8);
    syscall(SYS_userfaultfd, O_NONBLOCK | O_CLOEXEC | 0x4);
    syscall(SYS_splice, -1, buf, -1, 0, 100, 1 | 4 | 0x20);
    syscall(SYS_tee, -1, -1, 10, 3);
    syscall(SYS_vmsplice, -1, buf, 1, 2 | 8);
    syscall(SYS_sync_file_range, -1, 4096, 8192, 1 | 4 | 0x10);
    syscall(SYS_fallocate, -1, 1 | 2 | 0x40, 4096, 100);
    syscall(SYS_fallocate, -1, 0, 0, 1);
    syscall(SYS_chown, a, -1, -1);
    syscall(SYS_lchown, a, 1000, -1);
    syscall(SYS_fchown, -1, -1, 5);
    syscall(SYS_link, a, b);
    syscall(SYS_symlink, p + 0x200, b);
    syscall(SYS_chroot, a);
    syscall(SYS_statfs, a, buf);

    /* argv {"abc", NULL} and envp {NULL} at +0x1a00, an xattr value
     * "hi\n\x80\"" and its NUL at +0x1b00, the name "user.t" at +0x1c00;
     * +0x1800 stays zero (bpf's attr) */
    char **argv = (char **)(p + 0x1a00);
    argv[0] = p + 0x200;
    char *val = p + 0x1b00, *xname = p + 0x1c00;
    memcpy(val, "hi\n\x80\"", 6);
    strcpy(xname, "user.t");
    syscall(SYS_fanotify_init, 0x4 | 0x1 | 0x10 | 0x80000000U, O_RDWR | O_CLOEXEC);
    syscall(SYS_fanotify_init, 0xc, 0);
    syscall(SYS_fanotify_mark, -1, 0x1 | 0x80 | 0x100, 0x40000020UL | (1UL << 40), AT_FDCWD, a);
    syscall(SYS_seccomp, 1, 0x80, p + 0x200);
    syscall(SYS_seccomp, 7, 1, 0);
    syscall(SYS_bpf, 3, p + 0x1800, 8);
    syscall(SYS_bpf, -2, p + 0x1800, 8);
    syscall(SYS_membarrier, 1, -1, 0);
    syscall(SYS_membarrier, 3, 0, 0);
    syscall(SYS_kcmp, -1, -1, 0, 3, 4);
    syscall(SYS_kcmp, -1, -1, 7, 0, 0);
    syscall(SYS_kcmp, -1, -1, 8, 0, 0);
    syscall(SYS_name_to_handle_at, AT_FDCWD, a, p + 0x1800, p + 0x1900, AT_EMPTY_PATH | AT_SYMLINK_FOLLOW | 0x1);
    syscall(SYS_open_by_handle_at, -1, p + 0x1800, O_RDONLY | O_PATH);
    syscall(SYS_preadv, -1, p + 0x1800, 2, 4096, 0);
    syscall(SYS_pwritev2, -1, p + 0x1800, 1, 0x10, 0, 0x1 | 0x8);
    syscall(SYS_execveat, AT_FDCWD, a, argv, argv + 1, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
    syscall(SYS_setxattr, a, xname, val, 6, 0x1 | 0x4);
    syscall(SYS_lsetxattr, a, xname, p + 0x200, 4, 0x2);
    /* the value runs past the page: SystemTap's address */
    syscall(SYS_fsetxattr, -1, xname, p + 8192 - 8, 16, 0);
    syscall(SYS_getxattr, a, xname, buf, 64);
    syscall(SYS_fgetxattr, -1, xname, 0, 0);
    syscall(SYS_listxattr, a, buf, 64);
    syscall(SYS_flistxattr, -1, 0, 0);
    syscall(SYS_lremovexattr, a, xname);
    syscall(SYS_fremovexattr, -1, xname);

    /* a timespec nanosleep refuses (tv_nsec 1e9) at +0x440 */
    ts[4].tv_sec = 0;
    ts[4].tv_nsec = 1000000000;
    syscall(SYS_getresuid, buf, buf + 8, buf + 16);
    syscall(SYS_getcpu, buf, buf + 8, 0);
    syscall(SYS_getgroups, -1, buf);
    syscall(SYS_setgroups, -1, buf);
    syscall(SYS_getpeername, -1, buf, buf + 64);
    syscall(SYS_get_robust_list, -1, buf, buf + 8);
    syscall(SYS_set_robust_list, buf, 1);
    syscall(SYS_sched_getaffinity, -1, 8, buf);
    syscall(SYS_sched_getparam, -1, buf);
    syscall(SYS_sched_rr_get_interval, -1, buf);
    syscall(SYS_rt_sigpending, buf, 8);
    syscall(SYS_semop, -1, buf, 1);
    syscall(SYS_semtimedop, -1, buf, 1, p + 0x440);
    syscall(SYS_syslog, 99, buf, 8);
    syscall(SYS_time, 0);
    syscall(SYS_timer_delete, -1);
    syscall(SYS_timer_gettime, -1, buf);
    syscall(SYS_timerfd_gettime, -1, buf);
    syscall(SYS_mq_notify, -1, 0);
    syscall(SYS_mq_timedreceive, -1, buf, 8, buf + 8, 0);
    syscall(SYS_mq_timedsend, -1, p + 0x200, 3, 7, 0);
    syscall(SYS_mq_unlink, a);
    syscall(SYS_process_vm_readv, 0, buf, 1, buf + 16, 1, 1);
    syscall(SYS_capget, 0, 0);
    syscall(SYS_mincore, p + 1, 4096, buf);
    syscall(SYS_io_setup, 0, buf);
    syscall(SYS_setfsuid, -1);
    syscall(SYS_personality, 0xffffffff);
    syscall(SYS_copy_file_range, -1, buf, -1, 0, 10, 3);
    syscall(SYS_nanosleep, p + 0x440, 0);
    syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, p + 0x440, buf);
    syscall(SYS_memfd_secret, 0x80000 | 1);
    syscall(SYS_swapon, a, 0x8000 | 0x10000 | 5);
    syscall(SYS_swapoff, a);
    syscall(SYS_pivot_root, a, b);
    syscall(SYS_setns, -1, 0x40000000 | 0x04000000);
    syscall(SYS_pkey_alloc, 0, 1 | 2 | 4);

    /* key types ".x" at +0x1d00 (a type starting with a dot is refused
     * before any keyring is looked up) and a description at +0x1d10 */
    char *ktype = p + 0x1d00, *kdesc = p + 0x1d10;
    strcpy(ktype, ".x");
    strcpy(kdesc, "d");
    syscall(SYS_mbind, p + 0x1000, 4096, 0x8000 | 2, 0, 0, 1 | 0x10);
    syscall(SYS_set_mempolicy, 0xc000 | 9, 0, 0);
    syscall(SYS_get_mempolicy, buf, 0, 0, 0, 2 | 4);
    syscall(SYS_move_pages, 0, 1, buf, 0, buf + 8, 0x20);
    syscall(SYS_migrate_pages, -1, 0, 0, 0);
    syscall(SYS_ioprio_get, 9, 0);
    syscall(SYS_ioprio_set, 3, -1, (7 << 13) | 4);
    /* magic1 wrong: refused before the command is looked at */
    syscall(SYS_reboot, 0x1234, 672274793, 0x99, 0);
    syscall(SYS_perf_event_open, buf, -1, -1, -1, 8 | 0x10);
    syscall(SYS_add_key, ktype, kdesc, p + 0x200, 3, 0x7fffffff);
    syscall(SYS_request_key, ktype, kdesc, 0, 0);
    syscall(SYS_sethostname, p + 0x200, -1);
    syscall(SYS_setdomainname, p + 0x200, -1);

    syscall(SYS_msgget, KEY, IPC_EXCL | 0x10000 | 0640);
    syscall(SYS_msgctl, -1, 0x100 | IPC_STAT, buf);
    syscall(SYS_msgctl, -1, 99, 0);
    syscall(SYS_msgsnd, -1, buf, 8, IPC_NOWAIT | 010000);
    syscall(SYS_msgrcv, -1, buf, 8, -5L, 020000 | IPC_NOWAIT | 0x40000);
    syscall(SYS_semget, IPC_PRIVATE, -1, IPC_CREAT | 0600);
    syscall(SYS_semget, KEY + 1, 1, 0);
    syscall(SYS_semctl, -1, 0, 12, 0);
    syscall(SYS_semctl, -1, 2, 0x100 | 17, buf);
    syscall(SYS_semctl, -1, 0, 99, 0);
    syscall(SYS_shmget, KEY + 2, 0, IPC_CREAT | IPC_EXCL | 010000 | 0600);
    syscall(SYS_shmget, KEY + 2, 4096, 0);
    syscall(SYS_shmctl, -1, 0x100 | IPC_STAT, buf);
    syscall(SYS_shmctl, -1, 11, 0);
    syscall(SYS_shmat, -1, p + 0x1000, 010000 | 020000 | 0x10000);
    syscall(SYS_exit_group, 0);
    return 0;
}
