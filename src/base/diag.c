#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

void diags_init(struct diags *diags)
{
    memset(diags, 0, sizeof(*diags));
}

void diags_free(struct diags *diags)
{
    struct diag *d = diags->head;
    while (d) {
        struct diag *next = d->next;
        free(d->message);
        free(d);
        d = next;
    }
    diags->head = diags->tail = NULL;
}

/* Whether the same message at the same place was given already: a macro
 * expanding its argument several times (@prints) checks it each time, and
 * SystemTap says each distinct error once (one without a place is
 * always said). Still counted, so passes that
 * watch the count see the error. */
static int already_said(const struct diags *diags, const struct diag *d)
{
    if (!d->span.file)
        return 0;   /* no place to tell two apart: say each */
    for (const struct diag *o = diags->head; o; o = o->next)
        if (o->span.line == d->span.line && o->span.col == d->span.col && o->span.file == d->span.file &&
            o->kind == d->kind && strcmp(o->message, d->message) == 0)
            return 1;
    return 0;
}

static void diag_add(struct diags *diags, enum diag_kind kind, struct span span,
                     const char *fmt, va_list ap)
{
    if (kind == DIAG_WARNING) {
        if (diags->warnings_off)
            return;
        if (diags->warnings_are_errors)
            kind = DIAG_SEMANTIC_ERROR;
    }
    struct diag *d = calloc(1, sizeof(*d));
    if (!d || vasprintf(&d->message, fmt, ap) < 0)
        abort();
    d->kind = kind;
    d->span = span;
    if (kind == DIAG_WARNING)
        diags->warning_count++;
    else
        diags->error_count++;
    if (already_said(diags, d)) {
        free(d->message);
        free(d);
        return;
    }
    if (diags->tail)
        diags->tail->next = d;
    else
        diags->head = d;
    diags->tail = d;
}

#define DIAG_DEFINE(fn, kind)                                                  \
    void fn(struct diags *diags, struct span span, const char *fmt, ...)       \
    {                                                                          \
        va_list ap;                                                            \
        va_start(ap, fmt);                                                     \
        diag_add(diags, kind, span, fmt, ap);                                  \
        va_end(ap);                                                            \
    }
DIAG_DEFINE(diag_parse_error, DIAG_PARSE_ERROR)
DIAG_DEFINE(diag_error, DIAG_SEMANTIC_ERROR)
DIAG_DEFINE(diag_warning, DIAG_WARNING)

void diag_warning_once(struct diags *diags, struct span span, const char *fmt, ...)
{
    char *message;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&message, fmt, ap) < 0)
        abort();
    va_end(ap);
    int said = 0;
    for (const struct diag *d = diags->head; d && !said; d = d->next)
        said = d->kind != DIAG_PARSE_ERROR && d->kind != DIAG_ERROR && strcmp(d->message, message) == 0;
    if (!said)
        diag_warning(diags, span, "%s", message);
    free(message);
}

void diag_plain_error(struct diags *diags, const char *fmt, ...)
{
    struct span none = {0};
    va_list ap;
    va_start(ap, fmt);
    diag_add(diags, DIAG_ERROR, none, fmt, ap);
    va_end(ap);
}

/* "<label> <source line>\n<caret under col>"; label is right-aligned. */
static void render_source(struct strbuf *out, struct span span, const char *label)
{
    size_t len;
    const char *line = source_line(span.file, span.line, &len);
    size_t prefix = strlen(label) + 1;
    strbuf_printf(out, "%s %.*s\n", label, (int)len, line);
    strbuf_repeat(out, ' ', prefix + (size_t)(span.col > 0 ? span.col - 1 : 0));
    strbuf_puts(out, "^\n");
    /* SystemTap's chain of macro uses, innermost first */
    if (span.expanded_from) {
        strbuf_puts(out, "\tin expansion of macro: ");
        span_describe(out, *span.expanded_from);
        strbuf_putc(out, '\n');
        render_source(out, *span.expanded_from, label);
    }
}

void diag_render(const struct diag *d, struct strbuf *out)
{
    int has_pos = d->span.file != NULL;
    switch (d->kind) {
    case DIAG_PARSE_ERROR:
        strbuf_printf(out, "parse error: %s\n", d->message);
        if (has_pos) {
            strbuf_puts(out, "        saw: ");
            span_describe(out, d->span);
            strbuf_putc(out, '\n');
            render_source(out, d->span, "     source:");
        }
        return;
    case DIAG_SEMANTIC_ERROR:
    case DIAG_WARNING:
        strbuf_puts(out, d->kind == DIAG_WARNING ? "WARNING: " : "semantic error: ");
        strbuf_puts(out, d->message);
        if (has_pos) {
            strbuf_puts(out, ": ");
            span_describe(out, d->span);
            strbuf_putc(out, '\n');
            render_source(out, d->span, "        source:");
        } else {
            strbuf_putc(out, '\n');
        }
        return;
    case DIAG_ERROR:
        strbuf_printf(out, "ERROR: %s\n", d->message);
        return;
    }
}

void diags_print(const struct diags *diags, FILE *out)
{
    struct strbuf sb;
    strbuf_init(&sb);
    for (const struct diag *d = diags->head; d; d = d->next)
        diag_render(d, &sb);
    if (sb.len)
        fwrite(sb.data, 1, sb.len, out);
    strbuf_free(&sb);
}
