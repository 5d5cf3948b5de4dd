#include "base/source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/strbuf.h"

/* The line index lives in the arena with the text, so it goes with it. */
static void source_index_lines(struct arena *arena, struct source_file *file)
{
    int count = 1;
    for (size_t i = 0; i < file->size; i++)
        count += file->text[i] == '\n';
    file->line_starts = ARENA_ARRAY(arena, int, count + 1);
    int line = 0;
    file->line_starts[line++] = 0;
    for (size_t i = 0; i < file->size; i++)
        if (file->text[i] == '\n')
            file->line_starts[line++] = (int)i + 1;
    file->line_starts[line] = (int)file->size + 1;
    file->line_count = count;
}

struct source_file *source_from_string(struct arena *arena, const char *name,
                                       const char *text, size_t size)
{
    struct source_file *file = ARENA_NEW(arena, struct source_file);
    file->name = arena_strdup(arena, name);
    file->text = arena_strndup(arena, text, size);
    file->size = size;
    source_index_lines(arena, file);
    return file;
}

struct source_file *source_from_path(struct arena *arena, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    errno = 0;
    struct strbuf sb;
    strbuf_init(&sb);
    int failed = strbuf_read_file(&sb, f), read_errno = errno;
    if (f != stdin)
        fclose(f);
    if (failed) {
        strbuf_free(&sb);
        errno = read_errno ? read_errno : EIO;   /* EISDIR for a directory */
        return NULL;
    }
    struct source_file *file = source_from_string(
        arena, strcmp(path, "-") == 0 ? "<input>" : path, sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return file;
}

const char *source_line(const struct source_file *file, int line, size_t *len)
{
    if (line < 1 || line > file->line_count) {
        *len = 0;
        return "";
    }
    int start = file->line_starts[line - 1];
    int end = file->line_starts[line] - 1;   /* position of the '\n' or size */
    if (end > (int)file->size)
        end = (int)file->size;
    *len = (size_t)(end - start);
    return file->text + start;
}

const char *token_class_name(enum token_class token_class)
{
    switch (token_class) {
    case TOKEN_CLASS_IDENTIFIER: return "identifier";
    case TOKEN_CLASS_KEYWORD: return "keyword";
    case TOKEN_CLASS_OPERATOR: return "operator";
    case TOKEN_CLASS_NUMBER: return "number";
    case TOKEN_CLASS_STRING: return "string";
    case TOKEN_CLASS_EMBEDDED: return "embedded-code";
    case TOKEN_CLASS_EOF: return "end of input";
    case TOKEN_CLASS_NONE: break;
    }
    return "";
}

void span_position(struct strbuf *out, struct span span)
{
    strbuf_printf(out, "%s:%d:%d", span.file ? span.file->name : "<unknown>", span.line, span.col);
}

void span_describe(struct strbuf *out, struct span span)
{
    if (span.token_class == TOKEN_CLASS_EOF) {
        strbuf_puts(out, "end of input at ");
    } else if (span.token_class != TOKEN_CLASS_NONE && span.file) {
        size_t line_len;
        const char *line = source_line(span.file, span.line, &line_len);
        size_t start = (size_t)(span.col - 1);
        size_t len = (size_t)span.len;
        if (start > line_len)
            start = line_len;
        if (start + len > line_len)
            len = line_len - start;
        strbuf_printf(out, "%s '", token_class_name(span.token_class));
        for (size_t i = start; i < start + len; i++) {
            unsigned char c = (unsigned char)line[i];
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                strbuf_printf(out, "\\%03o", c);   /* a stray control byte, made visible */
            else
                strbuf_putc(out, (char)c);
        }
        strbuf_puts(out, "' at ");
    }
    span_position(out, span);
}
