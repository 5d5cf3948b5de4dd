/* Kernel work for the kernel-function tapset aliases (golden
 * kernel_tapset_kprobe_aliases, run where kprobes or fentry exist): a child
 * by fork (kprocess.start), the heap grown by 1 MiB with sbrk (vm.brk), 3
 * anonymous pages shrunk to 1 with mremap (vm.munmap of 2 pages), SIGUSR1 to
 * itself, handled (signal.checkperm, signal.wakeup), then about 200 ms of
 * spinning (scheduler.tick). */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
    handled += sig == SIGUSR1;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(void)
{
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    if (sbrk(1 << 20) == (void *)-1)
        return 1;
    char *pages = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mremap(pages, 3 * 4096, 4096, 0) != pages)
        return 1;
    signal(SIGUSR1, on_usr1);
    kill(getpid(), SIGUSR1);
    volatile unsigned long spins = 0;
    for (long long start = now_ns(); now_ns() - start < 200000000LL;)
        spins++;
    return handled != 1;
}
