/* The text of a pretty form ($v$, $v$$, $$parms$ ...) as an expression:
 * literal text and values gather into one __tap_format call (bpf_snprintf
 * in codegen) of up to 12 values, BPF's limit; a string-valued call (a
 * quoted string or char) goes between them; the pieces are joined by `.`.
 * A struct's text is then a few format calls, where a call and an append
 * per value and per literal made programs of thousands of instructions.
 * target_pretty.c (DWARF) and tracepoint_args.c (BTF) both build with it. */
#include <string.h>

#include "sema/sema_internal.h"

void pretty_text_init(struct pretty_text *t, struct sema *s, struct span span)
{
    memset(t, 0, sizeof(*t));
    t->s = s;
    t->span = span;
    strbuf_init(&t->format);
}

static void append(struct pretty_text *t, struct expr *piece)
{
    piece->type = TYPE_STRING;
    if (!t->result) {
        t->result = piece;
        return;
    }
    struct expr *concat = sema_concat_expr(t->s, t->span, t->result, piece);
    concat->type = TYPE_STRING;
    t->result = concat;
}

static void flush(struct pretty_text *t)
{
    if (!t->format.len)
        return;
    struct expr *call = ast_expr(t->s->arena, EXPR_CALL, t->span);
    call->call.name = "__tap_format";
    call->call.args = sema_string_expr(t->s, t->span, arena_strdup(t->s->arena, t->format.data));
    struct expr **tail = &call->call.args->next;
    for (int i = 0; i < t->count; i++) {
        *tail = t->values[i];
        tail = &t->values[i]->next;
    }
    *tail = NULL;
    call->call.arg_count = t->count + 1;
    append(t, call);
    strbuf_reset(&t->format);
    t->count = 0;
}

void pretty_text_literal(struct pretty_text *t, const char *text)
{
    for (; *text; text++) {
        if (*text == '%')
            strbuf_putc(&t->format, '%');
        strbuf_putc(&t->format, *text);
    }
}

void pretty_text_value(struct pretty_text *t, const char *conversion, struct expr *value)
{
    if (t->count == PRETTY_TEXT_VALUES)
        flush(t);
    strbuf_puts(&t->format, conversion);
    t->values[t->count++] = value;
}

void pretty_text_string(struct pretty_text *t, struct expr *string)
{
    flush(t);
    append(t, string);
}

struct expr *pretty_text_finish(struct pretty_text *t)
{
    flush(t);
    strbuf_free(&t->format);
    return t->result ? t->result : sema_string_expr(t->s, t->span, "");
}

void pretty_text_discard(struct pretty_text *t)
{
    strbuf_free(&t->format);
}
