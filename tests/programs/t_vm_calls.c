/* Kernel work for the kernel-function tapset aliases (golden
 * kernel_tapset_kprobe_aliases, run where kprobes or fentry exist): a child
 * by fork (kprocess.start) that waits in pause(), stopped by PTRACE_INTERRUPT
 * and let go by PTRACE_DETACH (signal.wakeup), until the parent sends it
 * SIGUSR2 (signal.checkperm), the heap grown by 1 MiB with sbrk
 * (vm.brk), 2 anonymous pages moved onto 2 others with mremap (vm.munmap of 2
 * pages), then about 200 ms of spinning (scheduler.tick). */
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_usr2(int sig)
{
    handled += sig == SIGUSR2;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(void)
{
    signal(SIGUSR2, on_usr2);
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(handled != 1);
    }
    usleep(100000);
    int status = 1;
    /* PTRACE_INTERRUPT and PTRACE_DETACH wake it through ptrace.c's calls of
     * signal_wake_up_state (signal.c's own are inlined) */
    if (ptrace(PTRACE_SEIZE, child, 0, 0) == 0 && ptrace(PTRACE_INTERRUPT, child, 0, 0) == 0) {
        waitpid(child, &status, __WALL);
        ptrace(PTRACE_DETACH, child, 0, 0);
    }
    kill(child, SIGUSR2);
    waitpid(child, &status, 0);
    if (sbrk(1 << 20) == (void *)-1)
        return 1;
    char *from = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *to = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (from == MAP_FAILED || to == MAP_FAILED || mremap(from, 2 * 4096, 2 * 4096, MREMAP_MAYMOVE | MREMAP_FIXED, to) != to)
        return 1;
    volatile unsigned long spins = 0;
    for (long long start = now_ns(); now_ns() - start < 200000000LL;)
        spins++;
    return status != 0;
}
