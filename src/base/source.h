/* Source files and spans: every AST node and token points back here, so any
 * pass can print `file:line:col`, the source line and a caret. */
#ifndef TAP_BASE_SOURCE_H
#define TAP_BASE_SOURCE_H

#include <stddef.h>

struct arena;
struct strbuf;

struct source_file {
    const char *name;        /* as shown in messages: path, or "<input>" for -e */
    const char *text;        /* NUL-terminated contents */
    size_t size;
    int *line_starts;        /* offsets of each line's first byte, then size + 1 */
    int line_count;
    int is_tapset;           /* from a tapset directory, not the user's script */
};

/* What kind of token a span covers; messages say "identifier 'x'". */
enum token_class {
    TOKEN_CLASS_NONE,        /* no token: messages omit the "near ..." part */
    TOKEN_CLASS_IDENTIFIER,
    TOKEN_CLASS_KEYWORD,
    TOKEN_CLASS_OPERATOR,
    TOKEN_CLASS_NUMBER,
    TOKEN_CLASS_STRING,
    TOKEN_CLASS_EMBEDDED,    /* %{ ... %} */
    TOKEN_CLASS_EOF,
};

struct span {
    const struct source_file *file;
    int line, col;           /* 1-based position of the token's first byte */
    int len;                 /* bytes the token covers on that line */
    unsigned char token_class;
    /* a macro body's token: the macro use it was expanded at (whose own
     * expanded_from says where that use came from); NULL elsewhere */
    const struct span *expanded_from;
};

struct source_file *source_from_string(struct arena *arena, const char *name,
                                       const char *text, size_t size);
/* Returns NULL and leaves errno set when the file cannot be read. */
struct source_file *source_from_path(struct arena *arena, const char *path);

/* The text of line `line` (1-based) without its newline; *len gets its length. */
const char *source_line(const struct source_file *file, int line, size_t *len);

/* Appends "identifier 'x' at file:line:col" (or just "file:line:col"). */
void span_describe(struct strbuf *out, struct span span);
/* Appends "file:line:col". */
void span_position(struct strbuf *out, struct span span);
const char *token_class_name(enum token_class token_class);

#endif
