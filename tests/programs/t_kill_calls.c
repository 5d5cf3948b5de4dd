/* Signals by each system call, for the signal.sys* goldens: SIGUSR2 (12),
 * handled, to itself by kill, tkill and tgkill; then tkill and tgkill of
 * SIGUSR2 to thread id 0x7ffffff0 (no such thread: -ESRCH), and kill of
 * signal 99 (-EINVAL). */
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_usr2(int sig)
{
    handled += sig == SIGUSR2;
}

int main(void)
{
    signal(SIGUSR2, on_usr2);
    pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);
    kill(pid, SIGUSR2);
    syscall(SYS_tkill, tid, SIGUSR2);
    syscall(SYS_tgkill, pid, tid, SIGUSR2);
    syscall(SYS_tkill, 0x7ffffff0, SIGUSR2);
    syscall(SYS_tgkill, pid, 0x7ffffff0, SIGUSR2);
    kill(pid, 99);
    return handled != 3;
}
