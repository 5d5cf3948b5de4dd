/* longjmp out of probed functions (issue 20): jumper(n) calls deep(n),
 * which longjmps back to main for even n: both frames are left without
 * returning; the next call reuses their stack addresses. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf back;
static volatile long sink;

__attribute__((noipa)) long deep(long n)
{
    if (n % 2 == 0)
        longjmp(back, (int)n);
    return n * 3;
}

__attribute__((noipa)) long jumper(long n)
{
    long r = deep(n);
    sink += r;
    return r + 1;
}

int main(void)
{
    long sum = 0, jumps = 0;
    for (volatile long n = 1; n <= 6; n++) {
        if (setjmp(back)) {
            jumps++;
            continue;
        }
        sum += jumper(n);
    }
    printf("sum=%ld jumps=%ld\n", sum, jumps);
    return jumps == 3 ? 0 : 1;
}
