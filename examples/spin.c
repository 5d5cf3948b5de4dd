/* spin: a CPU-bound program for the profiling example. hot() does three
 * times the work of warm(), so a profile shows about 3:1 between them
 * (examples/profile.tp by function, examples/flame.tp by stack).
 *   spin [MILLISECONDS]   runs for about that long (default 300)
 */
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static long work(long n)
{
    volatile long acc = 0;
    for (long i = 0; i < n; i++)
        acc += i * i;
    return acc;
}

/* "+ 1" after the call keeps hot() and warm() on the stack (a tail call
 * would leave them out: no unwinder sees a frame that jumped away) */
__attribute__((noinline)) long hot(void) { return work(300000) + 1; }
__attribute__((noinline)) long warm(void) { return work(100000) + 1; }

int main(int argc, char **argv)
{
    double until = now_ms() + (argc > 1 ? atof(argv[1]) : 300);
    long sum = 0;
    while (now_ms() < until)
        sum += hot() + warm();
    return sum == 42;   /* keeps the work from being optimized away */
}
