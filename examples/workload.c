/* workload: a small program for tap to trace (uprobes come in a later milestone).
 * Twenty rounds, each calling a few functions of different shapes, then a 10 ms
 * pause: about 0.2 s in all, with the same calls and the same output every run.
 *   tap -c build/examples/workload -e 'probe process("build/examples/workload").function("compute") { ... }'
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#define ROUNDS 20

struct point {
    int x, y;
};

/* Busy work that grows with n, so each call's latency differs. */
__attribute__((noinline)) long compute(int n)
{
    volatile long acc = 0;
    for (long i = 0; i < (long)n * 20000; i++)
        acc += i ^ n;
    return acc;
}

__attribute__((noinline)) int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) size_t greet(const char *name, char *out, size_t size)
{
    snprintf(out, size, "hello, %s", name);
    return strlen(out);
}

__attribute__((noinline)) void reverse(char *s)
{
    for (size_t i = 0, j = strlen(s); i + 1 < j; i++, j--) {
        char c = s[i];
        s[i] = s[j - 1];
        s[j - 1] = c;
    }
}

__attribute__((noinline)) long distance2(const struct point *a, const struct point *b)
{
    long dx = a->x - b->x, dy = a->y - b->y;
    return dx * dx + dy * dy;
}

int main(void)
{
    static const char *const names[] = {"ada", "linus", "grace", "ken"};
    const struct timespec pause = {0, 10 * 1000 * 1000};
    struct point origin = {0, 0};
    char buf[64];
    long checksum = 0;

    for (int round = 0; round < ROUNDS; round++) {
        struct point p = {round, 2 * round - 7};
        checksum += compute(round % 8) % 1000;
        checksum += fib(round % 12);
        checksum += (long)greet(names[round % 4], buf, sizeof(buf));
        reverse(buf);
        checksum += buf[0];
        checksum += distance2(&p, &origin);
        nanosleep(&pause, NULL);
    }
    printf("workload: %d rounds, checksum %ld\n", ROUNDS, checksum);
    return 0;
}
