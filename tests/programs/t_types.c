/* Types for target variables and listings: bitfields, arrays, char arrays,
 * unions, typedefs, bool, function pointers, floating point. */
#include <stddef.h>
#include <stdint.h>

#define NOIPA __attribute__((noipa))

struct flags {
    unsigned int ready : 1;
    int level : 4;
    unsigned int mode : 3;
    uint8_t small;
    char tag[8];
    int values[4];
};

union number {
    int i;
    unsigned char bytes[4];
};

typedef int (*callback)(int);

NOIPA int inc(int v)
{
    return v + 1;
}

NOIPA int inspect(struct flags *f, union number *n, size_t count, _Bool on, callback cb, double scale)
{
    return f->level + n->i + (int)count + on + cb(1) + (int)scale;
}

int main(void)
{
    struct flags f = {.ready = 1, .level = -3, .mode = 5, .small = 200, .tag = "flag", .values = {4, 5, 6, 7}};
    union number n = {.i = 0x01020304};
    return inspect(&f, &n, 42, 1, inc, 2.5) == 0;
}
