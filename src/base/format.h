/* printf-style formatting in user space, as SystemTap's runtime does it.
 * A format is compiled once (sema checks scripts with it; the runtime compiles
 * every format at startup) and rendered per record. */
#ifndef TAP_BASE_FORMAT_H
#define TAP_BASE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

enum format_flag {
    FORMAT_FLAG_MINUS = 1, FORMAT_FLAG_PLUS = 2, FORMAT_FLAG_SPACE = 4,
    FORMAT_FLAG_HASH = 8, FORMAT_FLAG_ZERO = 16,
};

/* What one argument of a format must be. */
enum format_value_type { FORMAT_VALUE_LONG, FORMAT_VALUE_STRING };

/* A literal run followed by at most one conversion. */
struct format_piece {
    const char *literal;     /* points into the format string */
    size_t literal_len;
    char conv;               /* 0: literal only; else one of d i u o x X p c s b m M */
    int flags;               /* enum format_flag */
    int width;               /* -1 when absent */
    int width_star;          /* width taken from an argument (long) */
    int precision;           /* -1 when absent */
    int precision_star;      /* precision taken from an argument (long) */
};

struct compiled_format {
    struct format_piece *pieces;
    int piece_count;
    enum format_value_type *arg_types;   /* in argument order, stars included */
    int arg_count;
};

/* Returns 0, or -1 with a message such as "invalid conversion '%q'" in error
 * and the byte offset of the bad directive in *error_offset. */
int format_compile(const char *format, struct compiled_format *out,
                   char *error, size_t error_size, size_t *error_offset);
void format_free(struct compiled_format *compiled);

struct format_value {
    int64_t number;          /* FORMAT_VALUE_LONG */
    const char *string;      /* FORMAT_VALUE_STRING; need not be NUL-terminated */
    size_t string_len;
};

/* Appends the formatted text; values must match compiled->arg_types. */
void format_render(struct strbuf *out, const struct compiled_format *compiled,
                   const struct format_value *values);

#endif
