/* Signal calls for the signal.* kernel-function goldens, in order:
 * sigaction of SIGUSR1 (do_sigaction); SIGUSR1 blocked (sigprocmask),
 * raised, seen by sigpending, unblocked and handled; a POSIX timer's
 * SIGUSR2 (send_sigqueue), waited for with SIGUSR2 blocked; with
 * RLIMIT_SIGPENDING 0, sigqueue of SIGRTMIN (34), which the kernel
 * refuses (-EAGAIN: no room to queue its value); then SIGUSR1
 * again with SA_ONSTACK on an alternate stack that is not mapped: the
 * kernel cannot build the handler's frame and forces a SIGSEGV
 * (force_sigsegv), which kills the process. */
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
    handled += sig == SIGUSR1;
}

static void posix_timer_signal(void)
{
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    sigprocmask(SIG_BLOCK, &usr2, NULL);
    struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2};
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0) {
        perror("timer_create");
        return;
    }
    struct itimerspec once = {.it_value = {.tv_nsec = 1000000}};
    timer_settime(timer, 0, &once, NULL);
    siginfo_t info;
    sigwaitinfo(&usr2, &info);
    timer_delete(timer);
}

static void unmapped_altstack(void)
{
    size_t size = 1 << 16;
    void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t ss = {.ss_sp = stack, .ss_size = size};
    sigaltstack(&ss, NULL);
    munmap(stack, size);
    struct sigaction onstack = {.sa_handler = on_usr1, .sa_flags = SA_ONSTACK};
    sigaction(SIGUSR1, &onstack, NULL);
}

int main(void)
{
    struct sigaction act = {.sa_handler = on_usr1};
    sigaddset(&act.sa_mask, SIGUSR2);
    sigaction(SIGUSR1, &act, NULL);
    sigset_t usr1, pending;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    raise(SIGUSR1);
    sigpending(&pending);
    sigprocmask(SIG_UNBLOCK, &usr1, NULL);
    posix_timer_signal();
    struct rlimit no_pending = {0, 0};
    setrlimit(RLIMIT_SIGPENDING, &no_pending);
    sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 1});
    unmapped_altstack();
    raise(SIGUSR1);
    return handled != 1;
}
