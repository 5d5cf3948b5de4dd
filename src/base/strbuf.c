#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(struct strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void strbuf_free(struct strbuf *sb)
{
    free(sb->data);
    strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = 0;
}

static void strbuf_reserve(struct strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap * 2 : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *data = realloc(sb->data, cap);
    if (!data) {
        fprintf(stderr, "tap: out of memory\n");
        abort();
    }
    sb->data = data;
    sb->cap = cap;
}

void strbuf_append(struct strbuf *sb, const char *s, size_t n)
{
    strbuf_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
    strbuf_append(sb, s, strlen(s));
}

void strbuf_putc(struct strbuf *sb, char c)
{
    strbuf_append(sb, &c, 1);
}

void strbuf_repeat(struct strbuf *sb, char c, size_t n)
{
    strbuf_reserve(sb, n);
    memset(sb->data + sb->len, c, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    strbuf_reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

int strbuf_read_file(struct strbuf *sb, FILE *f)
{
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        strbuf_append(sb, chunk, n);
    if (!sb->data)
        strbuf_append(sb, "", 0);
    return ferror(f) ? -1 : 0;
}

void strbuf_quote(struct strbuf *sb, const char *s, size_t n)
{
    strbuf_putc(sb, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': strbuf_puts(sb, "\\\""); break;
        case '\\': strbuf_puts(sb, "\\\\"); break;
        case '\n': strbuf_puts(sb, "\\n"); break;
        case '\t': strbuf_puts(sb, "\\t"); break;
        case '\r': strbuf_puts(sb, "\\r"); break;
        default:
            if (c < 0x20 || c >= 0x7f)
                strbuf_printf(sb, "\\%03o", c);
            else
                strbuf_putc(sb, (char)c);
        }
    }
    strbuf_putc(sb, '"');
}
