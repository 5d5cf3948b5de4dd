/* Traced by the uprobe_pretty_* goldens: SystemTap's pretty printing
 * ($v$, $v$$, $$parms$, $$locals$$, $$return$) of structs with nested
 * structs, unions, anonymous members, arrays, char arrays, enums,
 * bitfields, pointers, floats and function pointers, with known values. */
#include <stddef.h>
#include <string.h>

#define NOIPA __attribute__((noipa))

enum shade { DARK = -1, LIGHT = 2 };

struct inner {
    int depth;
    struct inner *up;
};

struct middle {
    struct inner in;
    short tag;
};

struct record {
    int id;
    unsigned int count;
    char letter;
    char label[8];
    const char *name;
    int scores[3];
    enum shade shade;
    unsigned int flags : 3;
    int delta : 5;
    double ratio;
    struct middle mid;
    union {
        int as_int;
        unsigned char as_bytes[4];
    } u;
    union {
        long wide;
        short narrow;
    };
    int (*callback)(int);
    struct record *self;
};

volatile long sink;

NOIPA int twice(int v)
{
    return 2 * v;
}

NOIPA int inspect(struct record *r, int scale, const char *word, enum shade s, int *counter)
{
    return r->id * scale + word[0] + (int)s + *counter;
}

NOIPA struct record *pick(struct record *r, int which)
{
    return which ? r : NULL;
}

int main(void)
{
    struct inner root = {0, NULL};
    /* member by member over '/' bytes: the padding is not zero, so a char
     * array without a NUL (u.as_bytes) shows whether a read stops at its end */
    struct record rec;
    memset(&rec, '/', sizeof(rec));
    rec.id = 42, rec.count = 4000000000u, rec.letter = 'q', rec.name = "rec";
    memcpy(rec.label, "lbl", 4);
    rec.scores[0] = 7, rec.scores[1] = -8, rec.scores[2] = 9;
    rec.shade = DARK, rec.flags = 5, rec.delta = -3, rec.ratio = 1.5;
    rec.mid.in.depth = 1, rec.mid.in.up = &root, rec.mid.tag = -7;
    rec.u.as_int = 0x01020304, rec.wide = 99;
    rec.callback = twice, rec.self = NULL;
    int hits = 11;
    sink = inspect(&rec, 3, "word", LIGHT, &hits);
    sink += pick(&rec, 1)->id;
    sink += rec.callback(1);
    return 0;
}
