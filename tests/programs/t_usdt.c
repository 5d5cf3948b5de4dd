/* USDT marks for the usdt_* golden tests: DTRACE_PROBEn and STAP_PROBEn with
 * arguments of every size and signedness, in registers, on the stack, as
 * immediates and in memory (globals, indexed arrays). Built at -O0 (PIE),
 * -O2 (t_usdt_o2) and -O0 without PIE (t_usdt_nopie). */
#include <stdlib.h>
#include <sys/sdt.h>

struct pair { long a; int b; };
long table[4] = {10, 20, 30, 40};
int global_counter = 7;

__attribute__((noinline)) static long work(long x, int i, struct pair *p)
{
    signed char c = (signed char)(-3 - i);
    unsigned char uc = (unsigned char)(250 + i);
    short s = (short)(-1234 * (i + 1));
    unsigned int u = 4000000000u + (unsigned int)i;
    long neg = -5 - x;
    DTRACE_PROBE2(tap_test, tick, x, i);
    STAP_PROBE5(tap_test, types, c, uc, s, u, neg);
    STAP_PROBE4(tap_test, memory, p->a, table[i & 3], global_counter, 42);
    STAP_PROBE(tap_test, noargs);
    return x + p->b + c + uc + s + (long)u + neg;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    struct pair p = {100, 2};
    long total = 0;
    for (int i = 0; i < n; i++)
        total += work(i * 11, i, &p);
    const char *greeting = argc > 2 ? argv[2] : "hello";
    STAP_PROBE2(tap_test, greet, greeting, n);
    DTRACE_PROBE1(other, done, total);
    return 0;
}
