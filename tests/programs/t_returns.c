/* Traced by the users_returnval_* golden tests as t_returns_nodebug, its
 * DWARF stripped: known arguments in, known values out. noipa keeps the
 * calls and the ABI registers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOIPA __attribute__((noipa))

volatile size_t sink;

NOIPA size_t twice(size_t n)
{
    return 2 * n;
}

NOIPA long fail(long code)
{
    return -code;
}

NOIPA size_t measure(const char *s)
{
    return strlen(s);
}

int main(int argc, char **argv)
{
    sink = twice(21) + twice(3000000000u);
    sink += (size_t)fail(2) + (size_t)fail(5000) + (size_t)fail(-255) + (size_t)fail(41);
    sink += measure("hello, entry") + measure("");
    char *p = malloc(4242);
    if (argc > 1)   /* users_returnval_malloc compares it with returnval() */
        printf("%s: malloc(4242) = %p\n", argv[1], (void *)p);
    free(p);
    return 0;
}
