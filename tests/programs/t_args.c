/* Traced by the uprobe_* golden tests: parameters of several integer widths,
 * a struct through a pointer, strings, recursion and a loop local. Built at
 * -O0 (t_args) and -O2 (t_args_o2); noipa keeps calls and signatures at -O2. */
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

struct point {
    int x;
    int y;
    const char *name;
    struct point *next;
};

enum color { RED, GREEN = 5, BLUE };

long counter = 7;
volatile long sink;

NOIPA int add(int a, int b)
{
    return a + b;
}

NOIPA long scale(long v, int factor)
{
    long r = v * factor;
    return r + 1;
}

NOIPA int mixed(signed char c, unsigned short s, long l, unsigned int u, short neg)
{
    return c + s + (int)l + (int)u + neg;
}

NOIPA int use_point(struct point *p)
{
    return p->x + p->next->y;
}

NOIPA int greet(const char *who)
{
    return who[0];
}

NOIPA int paint(enum color c)
{
    return (int)c;
}

NOIPA int fact(int n)
{
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    struct point tail = {30, 40, "tail", NULL};
    struct point head = {10, 20, "head", &tail};
    long total = 0;
    for (int i = 0; i < n; i++) {
        total += scale(i + 1, n);
        total += add(i, 2 * i);
    }
    total += mixed(-3, 65535, -100000, 4000000000u, -2);
    total += use_point(&head);
    total += greet("world");
    total += paint(BLUE);
    total += fact(4);
    total += counter;
    sink = total;
    return 0;
}
