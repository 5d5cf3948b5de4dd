/* Signals inside probed functions (issue 20): work(n) raises SIGUSR1,
 * whose handler calls in_handler() (probed too) on work's stack; then
 * faulting_leaf(NULL) (a leaf: its .return is a uretprobe) faults, and
 * the SIGSEGV handler siglongjmps out of it, twice, before a call that
 * returns. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t handled;
static sigjmp_buf escape;

__attribute__((noipa)) long in_handler(long sig)
{
    return sig * 2;
}

static void on_usr1(int sig)
{
    handled += in_handler(sig) > 0;
}

static void on_segv(int sig)
{
    (void)sig;
    siglongjmp(escape, 1);
}

__attribute__((noipa)) long work(long n)
{
    long before = n * 2;
    raise(SIGUSR1);
    return before + handled;
}

__attribute__((noipa)) long faulting_leaf(long *p)
{
    return *p + 1;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    long sum = 0, ok = 41;
    for (long n = 1; n <= 3; n++)
        sum += work(n);
    volatile int escaped = 0;
    for (volatile int i = 0; i < 2; i++) {
        if (sigsetjmp(escape, 1)) {
            escaped++;
            continue;
        }
        sum += faulting_leaf(NULL);
    }
    sum += faulting_leaf(&ok);
    printf("sum=%ld handled=%d escaped=%d\n", sum, (int)handled, escaped);
    return escaped == 2 ? 0 : 1;
}
