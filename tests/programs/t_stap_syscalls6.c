/* Syscalls whose SystemTap aliases decode a struct the call reads (the
 * golden syscall_stap_vars_6), each built on the page at 0x10000000
 * (fixed_page.h) and made with syscall(2) so that it fails or only reads:
 * siginfos of every shape SystemTap prints, queued to no process
 * (rt_sigqueueinfo, rt_tgsigqueueinfo) or waited for with a zero timeout
 * (rt_sigtimedwait); timexes passed to adjtimex with modes 0 (a read) or an
 * invalid tick, and to clock_adjtime of an invalid clock; sched_attrs
 * refused for their flags (sched_setattr) or read back over
 * (sched_getattr); quotactl commands on a device that does not exist;
 * epoll_create1 with and without flags; ptrace of this untraced process. NULL and structs running past the
 * end of the page (printed as their address) too. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <asm/prctl.h>
#include <sys/epoll.h>
#include <sys/ptrace.h>
#include <sys/quota.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include "fixed_page.h"

#define NO_PID 0x7ffffff0   /* above any pid_max */
#define SYS_SECCOMP 1          /* SIGSYS's si_code (asm-generic/siginfo.h) */
#define Q_XGETQSTAT 0x5805     /* linux/dqblk_xfs.h */
#define END(p, n) ((p) + 8192 - (n))   /* the last n bytes of the page */

/* struct sched_attr (linux/sched/types.h), which glibc 2.36 does not declare */
struct sched_attr {
    uint32_t size, sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime, sched_deadline, sched_period;
    uint32_t sched_util_min, sched_util_max;
};

static siginfo_t *siginfo(char *p, int signo, int code, int word4, int word5, long word6)
{
    siginfo_t *si = (siginfo_t *)p;
    int *w = (int *)p;
    memset(si, 0, sizeof *si);
    si->si_signo = signo;
    si->si_code = code;
    w[4] = word4;   /* si_pid, si_tid; the low half of si_addr, si_band */
    w[5] = word5;   /* si_uid, si_overrun */
    *(long *)(p + 24) = word6;   /* si_status */
    return si;
}

static void signals(char *p)
{
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGUSR1, siginfo(p, SIGUSR1, SI_QUEUE, 1234, 1000, 0));
    syscall(SYS_rt_sigqueueinfo, -1, SIGALRM, siginfo(p, SIGALRM, SI_TIMER, 42, 3, 0));
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGUSR2, siginfo(p, SIGUSR2, -100, -1, 7, 0));
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGSEGV, siginfo(p, SIGSEGV, SEGV_MAPERR, 0xdeadbeef, 0, 0));
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGCHLD, siginfo(p, SIGCHLD, CLD_EXITED, 99, 0, 3));
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGCHLD, siginfo(p, SIGCHLD, CLD_KILLED, 99, 0, SIGKILL));
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGIO, siginfo(p, SIGIO, POLL_IN, 17, 0, 0));
    syscall(SYS_rt_sigqueueinfo, NO_PID, SIGIO, siginfo(p, SIGIO, POLL_ERR, 17, 0, 0));
    syscall(SYS_rt_tgsigqueueinfo, NO_PID, NO_PID, SIGTRAP, siginfo(p, SIGTRAP, 99, 5, 0, 0));
    syscall(SYS_rt_tgsigqueueinfo, NO_PID, -1, SIGSYS, siginfo(p, SIGSYS, SYS_SECCOMP, 0x400000, 0, 0));
    syscall(SYS_rt_tgsigqueueinfo, NO_PID, NO_PID, 100, siginfo(p, 100, 5, 0, 0, 0));
    syscall(SYS_rt_tgsigqueueinfo, NO_PID, NO_PID, SIGUSR1, NULL);
    sigset_t *set = (sigset_t *)(p + 0x100);
    sigemptyset(set);
    sigaddset(set, SIGUSR2);
    struct timespec *zero = (struct timespec *)(p + 0x180);
    zero->tv_sec = zero->tv_nsec = 0;
    syscall(SYS_rt_sigtimedwait, set, siginfo(p, SIGALRM, SI_KERNEL, 0, 0, 0), zero, 8);   /* EAGAIN */
    syscall(SYS_rt_sigtimedwait, set, END(p, 64), zero, 8);
}

static struct timex *timex(char *p, unsigned modes, long tick)
{
    struct timex *tx = (struct timex *)p;
    memset(tx, 0, sizeof *tx);
    tx->modes = modes;
    tx->offset = 1;
    tx->freq = -65536;
    tx->maxerror = 3;
    tx->esterror = 4;
    tx->status = -5;
    tx->constant = 6;
    tx->precision = 7;
    tx->tolerance = 8;
    tx->tick = tick;
    return tx;
}

static void clocks(char *p)
{
    syscall(SYS_adjtimex, timex(p, 0, 10000));   /* modes 0: only reads */
    /* a tick of 1 is refused (EINVAL) before anything is set */
    syscall(SYS_adjtimex, timex(p, ADJ_OFFSET | ADJ_FREQUENCY | ADJ_TICK | ADJ_NANO, 1));
    syscall(SYS_adjtimex, NULL);
    syscall(SYS_adjtimex, END(p, 100));
    syscall(SYS_clock_adjtime, 100, timex(p, ADJ_OFFSET_SINGLESHOT, 0));   /* no clock 100: EINVAL */
    syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, timex(p, ADJ_STATUS | ADJ_TICK, 1));   /* not adjustable */
}

static struct sched_attr *attr(char *p, int nice)
{
    struct sched_attr *a = (struct sched_attr *)p;
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->sched_policy = 0;
    a->sched_flags = 0x20;
    a->sched_nice = nice;
    a->sched_runtime = 10000000000ULL;
    a->sched_deadline = 2;
    a->sched_period = 3;
    return a;
}

static void scheduling(char *p)
{
    syscall(SYS_sched_setattr, 0, attr(p, -5), 1);   /* flags must be 0: EINVAL */
    syscall(SYS_sched_setattr, -1, attr(p, 0), 0);   /* EINVAL */
    syscall(SYS_sched_setattr, 0, NULL, 0);
    syscall(SYS_sched_getattr, 0, attr(p, 19), sizeof(struct sched_attr), 0);   /* reads this thread's */
    syscall(SYS_sched_getattr, 0, END(p, 40), 56, 0);
}

static void quotas(char *p)
{
    const char *dev = strcpy(p + 0x200, "/tap-no-such-device");
    uint64_t *dqblk = (uint64_t *)(p + 0x300);
    for (int i = 0; i < 9; i++)
        dqblk[i] = i + 1;
    uint64_t *dqinfo = (uint64_t *)(p + 0x400);
    dqinfo[0] = 604800;
    dqinfo[1] = 86400;
    dqinfo[2] = 0x0000003f00000001;   /* dqi_flags 1, dqi_valid 0x3f */
    const char *file = strcpy(p + 0x500, "/tap-no-such-file");
    syscall(SYS_quotactl, QCMD(Q_GETQUOTA, USRQUOTA), dev, 1000, dqblk);
    syscall(SYS_quotactl, QCMD(Q_SETINFO, GRPQUOTA), dev, 0, dqinfo);
    syscall(SYS_quotactl, QCMD(Q_QUOTAON, USRQUOTA), dev, QFMT_VFS_V0, file);
    syscall(SYS_quotactl, QCMD(Q_GETFMT, PRJQUOTA), dev, 7, p + 0x600);
    syscall(SYS_quotactl, QCMD(Q_SYNC, USRQUOTA), dev, 0, NULL);
    syscall(SYS_quotactl, QCMD(Q_XGETQSTAT, USRQUOTA), dev, -1, p + 0x600);
    syscall(SYS_quotactl, QCMD(0x123456, 5), dev, 0, NULL);   /* type 5: EINVAL */
    syscall(SYS_quotactl, QCMD(Q_GETINFO, USRQUOTA), (char *)1, 0, END(p, 8));   /* EFAULT */
}

/* ptrace of this process, which no one traces: ESRCH; SystemTap's return
 * reads what PTRACE_GETEVENTMSG and PTRACE_ARCH_PRCTL would have stored */
static void tracing(char *p)
{
    long *word = (long *)(p + 0x700);
    word[0] = 0x1234;
    word[1] = 0x7f0000001000;
    pid_t self = getpid();
    syscall(SYS_ptrace, PTRACE_GETEVENTMSG, self, 0, &word[0]);
    syscall(SYS_ptrace, PTRACE_ARCH_PRCTL, self, &word[1], ARCH_GET_FS);
    syscall(SYS_ptrace, PTRACE_ARCH_PRCTL, self, &word[1], ARCH_SET_FS);   /* not read */
    syscall(SYS_ptrace, PTRACE_GETEVENTMSG, self, 0, END(p, 4));          /* unreadable: 0 */
}

int main(void)
{
    syscall(SYS_close_range, 3, ~0U, 0);   /* fds from 3 on, whatever the runner left open */
    char *p = map_fixed_page();
    if (!p)
        return 1;
    signals(p);
    clocks(p);
    scheduling(p);
    quotas(p);
    tracing(p);
    syscall(SYS_epoll_create1, EPOLL_CLOEXEC);       /* 3 */
    syscall(SYS_epoll_create1, EPOLL_CLOEXEC | 1);   /* EINVAL */
    syscall(SYS_epoll_create1, 0);                   /* 4 */
    return 0;
}
