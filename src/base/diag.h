/* Diagnostics are data: passes append them and go on; the driver stops after
 * a pass that reported errors and one printer renders them (spec/output.md). */
#ifndef TAP_BASE_DIAG_H
#define TAP_BASE_DIAG_H

#include <stdio.h>

#include "base/source.h"

enum diag_kind {
    DIAG_PARSE_ERROR,        /* "parse error: MSG\n        saw: TOKEN at POS" */
    DIAG_SEMANTIC_ERROR,     /* "semantic error: MSG: TOKEN at POS" */
    DIAG_WARNING,            /* "WARNING: MSG: TOKEN at POS" */
    DIAG_ERROR,              /* "ERROR: MSG" (no source position needed) */
};

struct diag {
    enum diag_kind kind;
    struct span span;        /* span.file == NULL: no position */
    char *message;
    struct diag *next;
};

struct diags {
    struct diag *head, *tail;
    int error_count, warning_count;
    int warnings_off;        /* -w */
    int warnings_are_errors; /* -W */
};

void diags_init(struct diags *diags);
void diags_free(struct diags *diags);

void diag_parse_error(struct diags *diags, struct span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_error(struct diags *diags, struct span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_warning(struct diags *diags, struct span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A warning whose text was not given before, at any place: SystemTap says
 * each warning text once (its print_warning). */
void diag_warning_once(struct diags *diags, struct span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error with no source position (missing file, bad option). */
void diag_plain_error(struct diags *diags, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Renders every diagnostic in order, in the shapes of spec/output.md. */
void diags_print(const struct diags *diags, FILE *out);
/* Renders one; exposed for runtime errors and tests. */
void diag_render(const struct diag *diag, struct strbuf *out);

#endif
