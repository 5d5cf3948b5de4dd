/* A growable byte buffer on the heap, for output assembled piece by piece
 * (printf records, listings, -p dumps). */
#ifndef TAP_BASE_STRBUF_H
#define TAP_BASE_STRBUF_H

#include <stddef.h>
#include <stdio.h>

struct strbuf {
    char *data;     /* always NUL-terminated once anything was appended */
    size_t len, cap;
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_append(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_putc(struct strbuf *sb, char c);
void strbuf_repeat(struct strbuf *sb, char c, size_t n);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends everything left in `f`; returns 0, or -1 on a read error. */
int strbuf_read_file(struct strbuf *sb, FILE *f);
/* Appends s as a double-quoted literal with C escapes. */
void strbuf_quote(struct strbuf *sb, const char *s, size_t n);

#endif
