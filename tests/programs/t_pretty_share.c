/* Traced by uprobe_pretty_shared: two functions taking the same struct
 * pointers and one taking the struct by value, called with different
 * values. Their pretty printers are shared functions (sema/pretty_share.c):
 * each call must print its own probe's struct. */
#define NOIPA __attribute__((noipa))

struct point {
    int x;
    int y;
    const char *name;
};

struct pair {
    long a;
    char tag;
};

volatile long sink;

NOIPA int first(struct point *p, struct pair *q)
{
    return p->x + (int)q->a;
}

NOIPA int second(struct point *p, struct pair *q)
{
    return p->y + q->tag;
}

NOIPA int by_value(struct point p)
{
    return p.x;
}

int main(void)
{
    struct point a = {1, 2, "a"}, b = {3, -4, "b"};
    struct pair pa = {10, 'x'}, pb = {-20, 'y'};
    sink = first(&a, &pa);
    sink += second(&b, &pb);
    sink += first(&b, &pb);
    sink += by_value(a);
    sink += by_value(b);
    return 0;
}
