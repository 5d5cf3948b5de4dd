/* t_recurse N: prints fib(N), computed by naive recursion (fib(N) calls
 * itself 2 * fib(N + 1) - 1 times in all). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) long fib(long n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10;
    printf("fib(%ld)=%ld\n", n, fib(n));
    return 0;
}
