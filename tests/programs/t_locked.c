/* t_locked N: calls bump(&count) N times and prints the count. bump's
 * first instruction is `lock incl (%rdi)`, which the kernel's uprobes
 * refuse: a probe on bump sits on its calls instead. */
#include <stdio.h>
#include <stdlib.h>

/* naked: the lock prefix is the very first instruction, whatever -O */
__attribute__((naked, noinline)) static void bump(int *count)
{
    __asm__("lock incl (%rdi)\n\tret");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1, count = 0;
    for (int i = 0; i < n; i++)
        bump(&count);
    printf("count=%d\n", count);
    return 0;
}
