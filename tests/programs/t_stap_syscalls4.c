/* Socket addresses, buffers, pipe's fds and the structs SystemTap's
 * syscall aliases decode (timevals, timespecs, itimers, sigaction, sysinfo,
 * tms, stack_t), with known contents, for the goldens syscall_stap_vars_4a
 * and 4b. The page at 0x10000000 (fixed_page.h) holds the arguments; +0x1ffc
 * is 4 bytes before its end, where a longer struct cannot be read. The calls
 * fail (fd -1, a bad flag, size or value the kernel refuses before it acts),
 * but for pipe, sysinfo and times, whose arguments are read at the entry,
 * before the kernel writes them. Each is made with syscall(2). */
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fixed_page.h"

/* The kernel's struct sigaction on x86_64 (glibc's differs). */
struct k_sigaction {
    unsigned long handler, flags, restorer, mask;
};

int main(void)
{
    char *p = map_fixed_page();
    if (!p)
        return 1;
    char *end = p + 8192 - 4;

    /* socket addresses at +0x100 ... +0x600 */
    struct sockaddr_in *in4 = (struct sockaddr_in *)(p + 0x100);
    in4->sin_family = AF_INET;
    in4->sin_port = htons(8080);
    in4->sin_addr.s_addr = htonl(0x7f000001);
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)(p + 0x200);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(443);
    in6->sin6_flowinfo = 0x01020304;
    in6->sin6_scope_id = 7;
    static const unsigned char a6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xab, 0x01};
    memcpy(&in6->sin6_addr, a6, 16);
    struct sockaddr_un *un = (struct sockaddr_un *)(p + 0x300);
    un->sun_family = AF_UNIX;
    strcpy(un->sun_path, "/tmp/t.sock");
    struct sockaddr_un *abs = (struct sockaddr_un *)(p + 0x400);
    abs->sun_family = AF_UNIX;
    memcpy(abs->sun_path, "\0ab\0c\"", 6);
    struct sockaddr_nl *nl = (struct sockaddr_nl *)(p + 0x500);
    nl->nl_family = AF_NETLINK;
    nl->nl_pid = 1234;
    nl->nl_groups = 0x5a;
    struct sockaddr_ll *ll = (struct sockaddr_ll *)(p + 0x580);
    ll->sll_family = AF_PACKET;
    ll->sll_protocol = htons(0x0800);
    ll->sll_ifindex = 3;
    ll->sll_hatype = 1;
    ll->sll_pkttype = 4;
    ll->sll_halen = 6;
    static const unsigned char mac[8] = {0x02, 0x42, 0xac, 0x11, 0x00, 0x02, 0, 0};
    memcpy(ll->sll_addr, mac, 8);
    *(unsigned short *)(p + 0x600) = 99;   /* a family no decoder knows */

    syscall(SYS_bind, -1, in4, sizeof(*in4));
    syscall(SYS_connect, -1, in6, sizeof(*in6));
    syscall(SYS_connect, -1, un, sizeof(*un));
    syscall(SYS_bind, -1, un, 2 + 11);
    syscall(SYS_connect, -1, abs, 2 + 6);
    syscall(SYS_bind, -1, nl, sizeof(*nl));
    syscall(SYS_bind, -1, ll, sizeof(*ll));
    syscall(SYS_connect, -1, p + 0x600, 16);
    syscall(SYS_connect, -1, in4, 8);   /* AF_INET, but not its length */
    syscall(SYS_connect, -1, in4, 1);
    syscall(SYS_bind, -1, 0, 16);
    syscall(SYS_bind, -1, end, 16);     /* runs past the page */
    syscall(SYS_connect, -1, in6, -1);  /* 128 bytes: not AF_INET6's 28 */

    /* buffers: "hi\tthere\"" at +0x800, 60 bytes of letters at +0x880 */
    char *msg = p + 0x800, *longmsg = p + 0x880;
    strcpy(msg, "hi\tthere\"");
    for (int i = 0; i < 60; i++)
        longmsg[i] = 'a' + i % 26;
    syscall(SYS_sendto, -1, msg, 9, MSG_DONTWAIT | MSG_MORE, in4, sizeof(*in4));
    syscall(SYS_sendto, -1, msg, 2, 0, 0, 0);
    syscall(SYS_write, -1, msg, 9);
    syscall(SYS_write, -1, longmsg, 60);
    syscall(SYS_pwrite64, -1, msg, 3, 4096);

    /* pipe's array at +0x900 holds 7 and 9 before the call; pipe2 with a
     * flag it refuses */
    int *fds = (int *)(p + 0x900);
    fds[0] = 7;
    fds[1] = 9;
    syscall(SYS_pipe2, fds, O_CLOEXEC | 0x1);
    syscall(SYS_pipe, 0);

    /* times at +0xa00: timevals, a timezone, itimers, timespecs */
    long *t = (long *)(p + 0xa00);
    t[0] = 5;         /* timeval [5.000042]: usec past 999999 so settimeofday refuses it */
    t[1] = 1000042;
    t[2] = 3;
    t[3] = 250;
    int *tz = (int *)(p + 0xa40);
    tz[0] = -60;
    tz[1] = 1;
    long *itv = (long *)(p + 0xa80);   /* interval 1.5 s, value 2.000250 s */
    itv[0] = 1;
    itv[1] = 500000;
    itv[2] = 2;
    itv[3] = 250;
    long *ts = (long *)(p + 0xb00);    /* an invalid timespec (nsec 1e9), then 1.5 s */
    ts[0] = 0;
    ts[1] = 1000000000;
    ts[2] = 1;
    ts[3] = 500000000;
    /* select and pselect6 write the time left back: copies of their own */
    long *sel_tv = (long *)(p + 0xa60), *sel_ts = (long *)(p + 0xb40);
    sel_tv[0] = t[0];
    sel_tv[1] = t[1];
    sel_ts[0] = ts[2];
    sel_ts[1] = ts[3];
    syscall(SYS_settimeofday, t, tz);
    syscall(SYS_settimeofday, 0, end);
    syscall(SYS_setitimer, 99, itv, p + 0xc00);
    syscall(SYS_setitimer, ITIMER_PROF, end, 0);
    syscall(SYS_select, -1, 0, 0, 0, sel_tv);
    syscall(SYS_select, -1, p + 0xc00, 0, 0, 0);
    syscall(SYS_pselect6, -1, 0, 0, 0, sel_ts, p + 0xc00);
    syscall(SYS_ppoll, 0, 0, ts, p + 0xc00, 8);
    syscall(SYS_recvmmsg, -1, p + 0xc00, 2, MSG_DONTWAIT, ts + 2);
    syscall(SYS_clock_settime, CLOCK_MONOTONIC, ts);
    syscall(SYS_io_getevents, 0, 1, 2, p + 0xc00, ts + 2);
    syscall(SYS_utimes, "/nonexistent/a", t);
    syscall(SYS_futimesat, AT_FDCWD, "/nonexistent/a", end);
    /* a utimbuf: 1 day and 2 days after the epoch */
    long *ub = (long *)(p + 0xac0);
    ub[0] = 86400;
    ub[1] = 172800;
    syscall(SYS_utime, "/nonexistent/a", ub);
    syscall(SYS_utime, "/nonexistent/a", end);
    syscall(SYS_timer_settime, -1, 1, itv, p + 0xc00);
    syscall(SYS_timerfd_settime, -1, 1, itv, 0);

    /* signals: a sigset (SIGINT, SIGTERM) at +0xd00, sigactions at +0xd40 */
    *(unsigned long *)(p + 0xd00) = (1UL << (SIGINT - 1)) | (1UL << (SIGTERM - 1));
    struct k_sigaction *act = (struct k_sigaction *)(p + 0xd40);
    act[0].handler = 0x401234;
    act[0].flags = SA_RESTART | SA_SIGINFO | 0x100;
    act[0].restorer = 0x405678;
    act[0].mask = *(unsigned long *)(p + 0xd00);
    act[1].handler = (unsigned long)SIG_IGN;
    /* sigsetsize 7: refused */
    syscall(SYS_rt_sigaction, SIGUSR1, &act[0], 0, 7);
    syscall(SYS_rt_sigaction, SIGKILL, &act[1], p + 0xc00, 8);
    syscall(SYS_rt_sigaction, 99, 0, 0, 8);
    syscall(SYS_rt_sigtimedwait, p + 0xd00, 0, ts + 2, 7);
    stack_t *ss = (stack_t *)(p + 0xe00);
    ss->ss_sp = p + 0x1000;
    ss->ss_flags = 0x10;
    ss->ss_size = 4096;
    syscall(SYS_sigaltstack, ss, 0);
    syscall(SYS_sigaltstack, 0, p + 0xc00);

    /* sysinfo and times write these: the entry sees what is here before */
    unsigned long *si = (unsigned long *)(p + 0xf00);
    for (int i = 0; i < 10; i++)
        si[i] = 100 + i;
    *(unsigned short *)(p + 0xf00 + 80) = 42;
    unsigned long *tms = (unsigned long *)(p + 0xf80);
    for (int i = 0; i < 4; i++)
        tms[i] = 10 * (i + 1);
    syscall(SYS_sysinfo, si);
    syscall(SYS_sysinfo, end);
    syscall(SYS_times, tms);
    syscall(SYS_times, 0);
    /* an unknown code, then ARCH_GET_FS into a scratch word */
    syscall(SYS_arch_prctl, 0x1999, -1L);
    syscall(SYS_arch_prctl, 0x1003, p + 0xc00);
    syscall(SYS_exit_group, 0);
    return 0;
}
