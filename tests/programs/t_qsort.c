/* Stacks without frame pointers: built -O2 -fomit-frame-pointer, so rbp
 * holds data; libc's qsort (Debian builds libc without frame pointers) calls
 * compare(), which calls leaf(), where the probe fires. Only DWARF CFI
 * finds the frames between leaf() and main. */
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) long leaf(long a, long b)
{
    sink += a - b;
    return a < b ? -1 : a > b;
}

__attribute__((noinline)) static int compare(const void *a, const void *b)
{
    return (int)leaf(*(const long *)a, *(const long *)b);
}

/* not a tail call: gdb would show the frame it no longer has (DWARF call sites) */
__attribute__((noinline)) long sort_numbers(long *numbers, size_t count)
{
    qsort(numbers, count, sizeof(*numbers), compare);
    return sink;
}

int main(void)
{
    long numbers[] = {3, 1, 2};
    sink = sort_numbers(numbers, 3);
    return (int)numbers[0] - 1;
}
