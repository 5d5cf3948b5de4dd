/* Strings with bytes that need escaping, for user_string_quoted and the
 * quoted strings of $v$ (uprobe_string_quoted): newline, tab, quote,
 * backslash, a high byte; and plain strings just under and just over what
 * fits in MAXSTRINGLEN (512) once quoted. Also the types of the @cast
 * golden tests (uprobe_cast_*). */
#include <string.h>

#define NOIPA __attribute__((noipa))

struct labeled {
    const char *label;
    char tag[8];
    struct labeled *next;
};

typedef struct labeled labeled_t;   /* for @cast(p, "labeled_t") */

NOIPA int show(const char *text, struct labeled *l)
{
    return text[0] + l->tag[0];
}

NOIPA int show_long(const char *fits, const char *over)
{
    return fits[0] + over[0];
}

int main(void)
{
    static char fits[510], over[511];
    labeled_t first = {.label = "first", .tag = "one"};
    struct labeled l = {.label = "say \"hi\"\n", .tag = "t\tg\\", .next = &first};
    memset(fits, 'x', sizeof(fits) - 1);
    memset(over, 'y', sizeof(over) - 1);
    over[505] = '\n';     /* the "... would cut its escape in half */
    return show("a\nb\tc\"d\\e\351f", &l) + show_long(fits, over) == 0;
}
