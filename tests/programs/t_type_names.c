/* Types whose spelling a cache could get wrong: a recursive struct,
 * anonymous structs and unions, qualifiers stacked on pointers, typedefs
 * of function pointers, arrays of pointers (test_dwarf's type-name check). */
#define NOIPA __attribute__((noipa))

struct node {
    struct node *next;
    const struct node *const *back;
    int (*visit)(struct node *, const char *);
};

typedef struct {
    volatile unsigned long count;
    union {
        int i;
        float f;
    } value;
} anon_t;

typedef int (*visitor)(struct node *, const char *);

NOIPA int visit_one(struct node *n, const char *tag)
{
    return n != 0 && tag[0];
}

NOIPA long walk(struct node *head, anon_t *anon, const volatile int *flag, char *const names[2],
                visitor v, const int *point)
{
    long total = *flag + point[0];
    for (struct node *n = head; n; n = n->next)
        total += v(n, names[0]) + (long)anon->count;
    return total;
}

int main(void)
{
    struct node b = {0, 0, visit_one}, a = {&b, 0, visit_one};
    anon_t anon = {.count = 2};
    const volatile int flag = 1;
    char one[] = "one";
    char *const names[2] = {one, one};
    struct { int x, y; } point = {3, 4};
    return walk(&a, &anon, &flag, names, visit_one, &point.x) == 0;
}
