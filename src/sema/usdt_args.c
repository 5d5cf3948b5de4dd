/* SDT argument specs: "SIZE@OPERAND", the operand in AT&T syntax as the
 * compiler chose it for sys/sdt.h's "nor" constraint (x86-64 only). A
 * negative size is a signed value. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sema/usdt.h"

/* AT&T register names: the DWARF number of the full register, and where
 * the named part sits in it (%ah: the second byte). */
static const struct { const char *name; int reg, shift; } registers[] = {
    {"rax", 0, 0}, {"eax", 0, 0}, {"ax", 0, 0}, {"al", 0, 0}, {"ah", 0, 8},
    {"rdx", 1, 0}, {"edx", 1, 0}, {"dx", 1, 0}, {"dl", 1, 0}, {"dh", 1, 8},
    {"rcx", 2, 0}, {"ecx", 2, 0}, {"cx", 2, 0}, {"cl", 2, 0}, {"ch", 2, 8},
    {"rbx", 3, 0}, {"ebx", 3, 0}, {"bx", 3, 0}, {"bl", 3, 0}, {"bh", 3, 8},
    {"rsi", 4, 0}, {"esi", 4, 0}, {"si", 4, 0}, {"sil", 4, 0},
    {"rdi", 5, 0}, {"edi", 5, 0}, {"di", 5, 0}, {"dil", 5, 0},
    {"rbp", 6, 0}, {"ebp", 6, 0}, {"bp", 6, 0}, {"bpl", 6, 0},
    {"rsp", 7, 0}, {"esp", 7, 0}, {"sp", 7, 0}, {"spl", 7, 0},
    {"rip", 16, 0},
};

/* "%rax", "%r10d" ...: the DWARF number, or -1. */
static int parse_register(const char **text, int *shift)
{
    const char *p = *text;
    if (*p != '%')
        return -1;
    p++;
    size_t len = 0;
    while (isalnum((unsigned char)p[len]))
        len++;
    *text = p + len;
    *shift = 0;
    for (size_t i = 0; i < sizeof(registers) / sizeof(registers[0]); i++)
        if (strlen(registers[i].name) == len && strncmp(registers[i].name, p, len) == 0) {
            *shift = registers[i].shift;
            return registers[i].reg;
        }
    /* %r8 .. %r15 with an optional d/w/b/l suffix */
    char *end;
    long n = p[0] == 'r' && isdigit((unsigned char)p[1]) ? strtol(p + 1, &end, 10) : -1;
    if (n < 8 || n > 15)
        return -1;
    size_t rest = len - (size_t)(end - p);
    if (rest > 1 || (rest == 1 && !strchr("dwbl", *end)))
        return -1;
    return (int)n;
}

static int parse_number(const char **text, int64_t *value)
{
    char *end;
    long long n = strtoll(*text, &end, 0);
    if (end == *text)
        return 0;
    *value = n;
    *text = end;
    return 1;
}

/* [disp][symbol[+-off]]([%base][,%index[,scale]]) */
static int parse_memory(struct arena *arena, const char *p, struct usdt_arg *out)
{
    out->kind = USDT_ARG_MEMORY;
    out->base = out->index = -1;
    out->scale = 1;
    if (isalpha((unsigned char)*p) || *p == '_' || *p == '.') {
        size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$");
        out->symbol = arena_strndup(arena, p, len);
        p += len;
    }
    if (*p == '+' || *p == '-' || isdigit((unsigned char)*p))
        if (!parse_number(&p, &out->disp))
            return 0;
    if (*p == '\0')
        return 1;       /* an absolute address */
    if (*p++ != '(')
        return 0;
    int shift;
    if (*p == '%' && (out->base = parse_register(&p, &shift)) < 0)
        return 0;
    if (*p == ',') {
        p++;
        if ((out->index = parse_register(&p, &shift)) < 0 || out->index == 16)
            return 0;
        if (*p == ',') {
            int64_t scale;
            p++;
            if (!parse_number(&p, &scale) || (scale != 1 && scale != 2 && scale != 4 && scale != 8))
                return 0;
            out->scale = (int)scale;
        }
    }
    return p[0] == ')' && p[1] == '\0';
}

int usdt_parse_arg(struct arena *arena, const char *text, struct usdt_arg *out)
{
    memset(out, 0, sizeof(*out));
    out->size = 8;
    const char *at = strchr(text, '@');
    if (at) {
        int size = atoi(text);
        out->is_signed = size < 0;
        out->size = abs(size);
        if (out->size != 1 && out->size != 2 && out->size != 4 && out->size != 8)
            return 0;
        text = at + 1;
    }
    if (*text == '$') {
        text++;
        out->kind = USDT_ARG_CONST;
        return parse_number(&text, &out->value) && *text == '\0';
    }
    if (*text == '%') {
        out->kind = USDT_ARG_REG;
        out->reg = parse_register(&text, &out->shift);
        return out->reg >= 0 && out->reg != 16 && *text == '\0';
    }
    return parse_memory(arena, text, out);
}
