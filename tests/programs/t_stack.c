/* Backtrace tests: main -> outer -> middle -> inner, built with frame
 * pointers (as PIE by default, and as t_stack_nopie without). inner() is
 * where the probe fires; hot() and cold() give timer.profile a clear winner. */
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) long inner(long x) { return x * 3; }
__attribute__((noinline)) long middle(long x) { return inner(x + 1) + 1; }
__attribute__((noinline)) long outer(long x) { return middle(x + 1) + 1; }

__attribute__((noinline)) void hot(long n)
{
    for (long i = 0; i < n; i++)
        sink += i;
}

__attribute__((noinline)) void cold(long n)
{
    for (long i = 0; i < n; i++)
        sink -= i;
}

int main(int argc, char **argv)
{
    if (argc > 1) {   /* busy: about 9 parts hot() to 1 part cold() */
        long rounds = atol(argv[1]);
        for (long r = 0; r < rounds; r++) {
            hot(9000000);
            cold(1000000);
        }
        return 0;
    }
    sink = outer(1);
    return 0;
}
