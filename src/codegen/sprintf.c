/* sprintf, sprint and sprintln in BPF, into an output slot (string_output.h).
 * bpf_snprintf (helper 165) prints what the kernel prints as stap does
 * (flags `-+ 0`, literal widths, d i u x X c s; `%#x` and `%p` become a
 * literal 0x prefix and `%.Ns` truncates its argument first); the rest (%o,
 * %b, %m, %M, `*`, integer precision, prefixes with a width) is rendered
 * here, character by character, as stap's runtime does it. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/format.h"
#include "base/strbuf.h"
#include "codegen/codegen_internal.h"
#include "codegen/string_output.h"
#include "sema/builtins.h"

#define MAX_SNPRINTF_ARGS 12     /* bpf_snprintf's limit on its arguments */

/* What bpf_snprintf prints as stap does: flags, a literal width, %s with a
 * precision, d i u x X c s, and %#x/%p without a width (a literal 0x).
 * The rest is rendered here, as stap's runtime does it (number(),
 * _stp_vsprint_memory, _stp_vsprint_binary). */
static int kernel_formats(const struct format_piece *p)
{
    if (p->width_star || p->precision_star || strchr("obmM", p->conv))
        return 0;
    if (p->conv == 'c' && (p->flags & FORMAT_FLAG_HASH))
        return 0;
    if (p->precision >= 0 && p->conv != 's')
        return 0;
    int hash = (p->flags & FORMAT_FLAG_HASH) || p->conv == 'p';
    return !(strchr("xXp", p->conv) && hash && p->width >= 0);
}

/* The piece's literal text, then (when bpf_snprintf does it) its
 * conversion, in bpf_snprintf's words. */
static void translate_piece(const struct format_piece *p, struct strbuf *out, int *truncate_to)
{
    *truncate_to = -1;
    for (size_t i = 0; i < p->literal_len; i++) {
        if (p->literal[i] == '%')
            strbuf_putc(out, '%');
        strbuf_putc(out, p->literal[i]);
    }
    if (!p->conv || !kernel_formats(p))
        return;
    char conv = p->conv;
    if (conv == 'p' || (strchr("xX", conv) && (p->flags & FORMAT_FLAG_HASH)))
        strbuf_puts(out, conv == 'X' ? "0X" : "0x");
    strbuf_putc(out, '%');
    if (p->flags & FORMAT_FLAG_MINUS) strbuf_putc(out, '-');
    if (conv != 's' && conv != 'c') {
        if (p->flags & FORMAT_FLAG_PLUS) strbuf_putc(out, '+');
        if (p->flags & FORMAT_FLAG_SPACE) strbuf_putc(out, ' ');
        if (p->flags & FORMAT_FLAG_ZERO) strbuf_putc(out, '0');
    }
    if (p->width >= 0)
        strbuf_printf(out, "%d", p->width);
    switch (conv) {
    case 'd': case 'i': strbuf_puts(out, "lld"); break;
    case 'u': strbuf_puts(out, "llu"); break;
    case 'x': case 'p': strbuf_puts(out, "llx"); break;
    case 'X': strbuf_puts(out, "llX"); break;
    case 'c': strbuf_puts(out, "c"); break;
    case 's': strbuf_puts(out, "s"); *truncate_to = p->precision; break;
    }
}

struct digit_state {
    uint32_t slot, value, position;
    int base, upper;
};

#define DIGITS_END 80            /* digits are written backwards from here in their slot */

static void digit_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct digit_state *d = data;
    (void)index;
    LLVMValueRef value_ptr = cg_scratch_ptr(cg, d->value), position_ptr = cg_scratch_ptr(cg, d->position);
    LLVMValueRef value = cg_load(cg, value_ptr);
    LLVMValueRef digit = cg_binary(cg, LLVMURem, value, cg_const(cg, d->base), "");
    LLVMValueRef letter = cg_add(cg, digit, cg_const(cg, (d->upper ? 'A' : 'a') - 10));
    LLVMValueRef c = cg_select(cg, cg_compare(cg, LLVMIntULT, digit, 10), cg_add(cg, digit, cg_const(cg, '0')), letter);
    LLVMValueRef position = cg_sub(cg, cg_load(cg, position_ptr), cg_const(cg, 1));
    cg_put_char(cg, d->slot, position, c);
    cg_store(cg, position, position_ptr);
    LLVMValueRef rest = cg_udiv(cg, value, cg_const(cg, d->base));
    cg_store(cg, rest, value_ptr);
    LLVMBasicBlockRef done = cg_if_not(cg, cg_compare(cg, LLVMIntEQ, rest, 0), "more_digits", "digits_done");
    cg_callback_return(cg, 0);
    cg_position(cg, done);
    cg_callback_return(cg, 1);

}

/* The value's digits (unsigned, 64-bit) as a string pointer; their number
 * in *count. */
static LLVMValueRef render_digits(struct codegen *cg, struct span span, LLVMValueRef value, int base, int upper,
                                  LLVMValueRef *count)
{
    struct digit_state d = {.base = base, .upper = upper};
    d.slot = cg_alloc_string_slot(cg);
    d.value = cg_alloc_scratch(cg, 8);
    d.position = cg_alloc_scratch(cg, 8);
    cg_store(cg, value, cg_scratch_ptr(cg, d.value));
    cg_store(cg, cg_const(cg, DIGITS_END), cg_scratch_ptr(cg, d.position));
    cg_put_char(cg, d.slot, cg_const(cg, DIGITS_END), cg_const(cg, 0));
    cg_bounded_loop(cg, span, cg_const(cg, 64), digit_body, &d);
    LLVMValueRef position = cg_load(cg, cg_scratch_ptr(cg, d.position));
    *count = cg_sub(cg, cg_const(cg, DIGITS_END), position);
    return cg_string_char_ptr(cg, d.slot, position);
}

struct pad_state {
    struct output *out;
    int c;
};

static void pad_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct pad_state *pad = data;
    (void)index;
    cg_output_char(cg, pad->out, cg_const(cg, pad->c));
    cg_callback_return(cg, 0);
}

/* count copies of c (none when count <= 0). */
static void output_pad(struct codegen *cg, struct span span, struct output *o, int c, LLVMValueRef count)
{
    if (LLVMIsAConstantInt(count) && LLVMConstIntGetSExtValue(count) <= 0)
        return;
    struct pad_state pad = {o, c};
    cg_bounded_loop(cg, span, count, pad_body, &pad);
}

/* A conversion's width and precision: i64 values, -1 when absent; '*'
 * values below 0 count as 0, as stap's compiled printf does. */
struct field {
    LLVMValueRef width, precision;
    struct span span;
};

static void render_number(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef value,
                          struct field f)
{
    char conv = p->conv;
    int flags = p->flags & FORMAT_FLAG_MINUS ? p->flags & ~FORMAT_FLAG_ZERO : p->flags;
    int is_signed = conv == 'd' || conv == 'i';
    int base = conv == 'o' ? 8 : strchr("xXp", conv) ? 16 : 10;
    LLVMValueRef negative = is_signed ? cg_compare(cg, LLVMIntSLT, value, 0)
                                      : LLVMConstInt(cg->i1, 0, 0);
    int positive_sign = !is_signed ? 0 : flags & FORMAT_FLAG_PLUS ? '+' : flags & FORMAT_FLAG_SPACE ? ' ' : 0;
    LLVMValueRef sign = cg_select(cg, negative, cg_const(cg, '-'), cg_const(cg, positive_sign));
    LLVMValueRef has_sign = cg_compare(cg, LLVMIntNE, sign, 0);
    const char *prefix = "";
    if ((flags & FORMAT_FLAG_HASH) || conv == 'p')
        prefix = base == 16 ? (conv == 'X' ? "0X" : "0x") : base == 8 ? "0" : "";
    LLVMValueRef n;
    LLVMValueRef digits = render_digits(cg, f.span, cg_select(cg, negative, cg_neg(cg, value), value),
                                        base, conv == 'X', &n);
    LLVMValueRef precision = cg_select(cg, cg_compare_values(cg, LLVMIntSLT, f.precision, n), n, f.precision);
    LLVMValueRef size = cg_sub(cg, f.width, cg_widen(cg, has_sign));
    size = cg_sub(cg, size, cg_add(cg, cg_const(cg, (int64_t)strlen(prefix)), precision));
    if (!(flags & (FORMAT_FLAG_ZERO | FORMAT_FLAG_MINUS))) {
        output_pad(cg, f.span, o, ' ', size);
        size = cg_const(cg, 0);
    }
    LLVMBasicBlockRef after_sign = cg_if(cg, has_sign, "put_sign", "after_sign");
    cg_output_char(cg, o, sign);
    cg_end_if(cg, after_sign);
    for (const char *c = prefix; *c; c++)
        cg_output_char(cg, o, cg_const(cg, *c));
    if (!(flags & FORMAT_FLAG_MINUS)) {
        output_pad(cg, f.span, o, '0', size);
        size = cg_const(cg, 0);
    }
    output_pad(cg, f.span, o, '0', cg_sub(cg, precision, n));
    cg_output_cstring(cg, o, digits);
    output_pad(cg, f.span, o, ' ', size);
}

/* Text of a known length, padded to the width (flags '-' and, for %m/%M, '0'). */
static void render_padded(struct codegen *cg, struct output *o, const struct format_piece *p, struct field f,
                          LLVMValueRef shown, void (*body)(struct codegen *cg, struct output *o, void *data),
                          void *data)
{
    LLVMValueRef room = cg_sub(cg, f.width, shown);
    if (!(p->flags & FORMAT_FLAG_MINUS))
        output_pad(cg, f.span, o, ' ', room);
    body(cg, o, data);
    if (p->flags & FORMAT_FLAG_MINUS)
        output_pad(cg, f.span, o, ' ', room);
}

static void char_body(struct codegen *cg, struct output *o, void *data)
{
    cg_output_char(cg, o, *(LLVMValueRef *)data);
}

/* %#c: a quote, a backslash or a character that does not print is
 * escaped, by name (\n) or in octal (\001). */
struct escaped_char {
    LLVMValueRef c, name, octal;     /* name: the escape letter, or 0 */
};

static void escaped_body(struct codegen *cg, struct output *o, void *data)
{
    struct escaped_char *e = data;
    LLVMValueRef has_name = cg_compare(cg, LLVMIntNE, e->name, 0);
    struct cg_if_else escaped = cg_if_else(cg, cg_or(cg, has_name, e->octal), "char_escape", "char_plain", "char_done");
    cg_output_char(cg, o, cg_const(cg, '\\'));
    struct cg_if_else by_name = cg_if_else(cg, has_name, "char_named", "char_octal", "char_escaped");
    cg_output_char(cg, o, e->name);
    cg_else(cg, &by_name);
    for (int shift = 6; shift >= 0; shift -= 3) {
        LLVMValueRef digit = cg_and(cg, cg_lshr(cg, e->c, cg_const(cg, shift)), cg_const(cg, 7));
        cg_output_char(cg, o, cg_add(cg, digit, cg_const(cg, '0')));
    }
    cg_end_if_else(cg, &by_name);
    cg_else(cg, &escaped);
    cg_output_char(cg, o, e->c);
    cg_end_if_else(cg, &escaped);
}

static void render_escaped_char(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef c,
                                struct field f)
{
    static const char from[] = "\a\b\f\n\r\t\v'\\", to[] = "abfnrtv'\\";
    struct escaped_char e = {.c = c, .name = cg_const(cg, 0)};
    for (int i = 0; from[i]; i++)
        e.name = cg_select(cg, cg_compare(cg, LLVMIntEQ, c, from[i]), cg_const(cg, to[i]), e.name);
    e.octal = cg_and(cg, cg_compare(cg, LLVMIntEQ, e.name, 0), cg_or(cg, cg_compare(cg, LLVMIntULT, c, 0x20), cg_compare(cg, LLVMIntUGE, c, 0x7f)));
    LLVMValueRef shown = cg_select(cg, e.octal, cg_const(cg, 4), cg_select(cg, cg_compare(cg, LLVMIntNE, e.name, 0), cg_const(cg, 2), cg_const(cg, 1)));
    render_padded(cg, o, p, f, shown, escaped_body, &e);
}

static void string_body(struct codegen *cg, struct output *o, void *data)
{
    cg_output_cstring(cg, o, *(LLVMValueRef *)data);
}

/* %s with a '*' width or precision: s is a copy in a slot, cut at the precision. */
static void render_string(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef s,
                          struct field f)
{
    LLVMValueRef length = cg_string_length(cg, s);
    LLVMValueRef cut = cg_and(cg, cg_compare(cg, LLVMIntSGE, f.precision, 0), cg_compare_values(cg, LLVMIntSLT, f.precision, length));
    length = cg_select(cg, cut, f.precision, length);
    LLVMValueRef end = cg_string_mask(cg, length);
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_byte_ptr(cg, s, end));
    render_padded(cg, o, p, f, length, string_body, &s);
}

struct bytes_state {
    struct output *out;
    uint32_t value;              /* %b: the number; %m/%M: the slot read */
    int hex;
};

static void binary_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct bytes_state *s = data;
    LLVMValueRef shift = cg_mul(cg, index, cg_const(cg, 8));
    LLVMValueRef byte = cg_lshr(cg, cg_load(cg, cg_scratch_ptr(cg, s->value)), shift);
    cg_output_char(cg, s->out, cg_and(cg, byte, cg_const(cg, 0xff)));
    cg_callback_return(cg, 0);
}

static LLVMValueRef binary_size(struct codegen *cg, LLVMValueRef n, LLVMValueRef otherwise)
{
    LLVMValueRef ok = LLVMConstInt(cg->i1, 0, 0);
    for (int size = 1; size <= 8; size *= 2)
        ok = cg_or(cg, ok, cg_compare(cg, LLVMIntEQ, n, size));
    return cg_select(cg, ok, n, otherwise);
}

/* %b: the value's low bytes, little-endian: as many as the precision, else
 * the width, when 1, 2, 4 or 8, else 8; NULs pad to the width. */
static void render_binary(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef value,
                          struct field f)
{
    LLVMValueRef size = binary_size(cg, f.precision, binary_size(cg, f.width, cg_const(cg, 8)));
    LLVMValueRef width = cg_select(cg, cg_compare(cg, LLVMIntSLT, f.width, 0), size, f.width);
    LLVMValueRef room = cg_sub(cg, width, size);
    struct bytes_state s = {o, cg_alloc_scratch(cg, 8), 0};
    cg_store(cg, value, cg_scratch_ptr(cg, s.value));
    if (!(p->flags & FORMAT_FLAG_MINUS))
        output_pad(cg, f.span, o, 0, room);
    cg_bounded_loop(cg, f.span, size, binary_body, &s);
    if (p->flags & FORMAT_FLAG_MINUS)
        output_pad(cg, f.span, o, 0, room);
}

static void memory_byte(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct bytes_state *s = data;
    LLVMValueRef byte = cg_string_char_at(cg, s->value, index);
    if (!s->hex) {
        cg_output_char(cg, s->out, byte);
        cg_callback_return(cg, 0);
        return;
    }
    for (int shift = 4; shift >= 0; shift -= 4) {
        LLVMValueRef digit = cg_and(cg, cg_lshr(cg, byte, cg_const(cg, shift)), cg_const(cg, 15));
        LLVMValueRef c = cg_select(cg, cg_compare(cg, LLVMIntULT, digit, 10), cg_add(cg, digit, cg_const(cg, '0')), cg_add(cg, digit, cg_const(cg, 'a' - 10)));
        cg_output_char(cg, s->out, c);
    }
    cg_callback_return(cg, 0);
}

struct memory_body {
    struct bytes_state bytes;
    LLVMValueRef count;
    struct span span;
};

static void memory_body(struct codegen *cg, struct output *o, void *data)
{
    struct memory_body *m = data;
    (void)o;
    cg_bounded_loop(cg, m->span, m->count, memory_byte, &m->bytes);
}

/* %m copies the bytes at a user address, %M writes them in hex: as many as
 * the precision (1 without one); the '0' flag adds a NUL. */
static void render_memory(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef address,
                          struct field f)
{
    struct memory_body m = {.bytes = {o, 0, p->conv == 'M'}, .span = f.span};
    m.count = cg_select(cg, cg_compare(cg, LLVMIntSGT, f.precision, 0), f.precision, cg_const(cg, 1));
    m.bytes.value = cg_alloc_string_slot(cg);
    cg_user_bytes(cg, f.span, address, m.count, m.bytes.value);
    LLVMValueRef shown = p->conv == 'M' ? cg_mul(cg, m.count, cg_const(cg, 2)) : m.count;
    render_padded(cg, o, p, f, shown, memory_body, &m);
    if (p->flags & FORMAT_FLAG_ZERO)
        cg_output_char(cg, o, cg_const(cg, 0));
}

static void render_piece(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef value,
                         struct field f)
{
    switch (p->conv) {
    case 'c':
        value = cg_and(cg, value, cg_const(cg, 0xff));
        if (p->flags & FORMAT_FLAG_HASH)
            render_escaped_char(cg, o, p, value, f);
        else
            render_padded(cg, o, p, f, cg_const(cg, 1), char_body, &value);
        break;
    case 's': render_string(cg, o, p, value, f); break;
    case 'b': render_binary(cg, o, p, value, f); break;
    case 'm': case 'M': render_memory(cg, o, p, value, f); break;
    default: render_number(cg, o, p, value, f); break;
    }
}

/* A '*' value below 0 counts as 0 (stap's compiled printf); more than a
 * string holds pads or cuts no further. */
static LLVMValueRef star_value(struct codegen *cg, LLVMValueRef v)
{
    return cg_select(cg, cg_compare(cg, LLVMIntSLT, v, 0), cg_const(cg, 0), v);
}

/* One bpf_snprintf call for a run of pieces, appended to out. */
static void format_segment(struct codegen *cg, struct output *out, struct strbuf *text, uint32_t data, int count)
{
    if (!text->len)
        return;
    const char *translated = text->data;
    LLVMValueRef fmt = cg_string_literal(cg, translated, (int)strlen(translated) + 1);
    uint32_t piece = cg_string_new_slot(cg);
    LLVMValueRef call_args[5] = {cg_scratch_ptr(cg, piece), LLVMConstInt(cg->i32, cg->string_size, 0), fmt,
                                 count ? cg_scratch_ptr(cg, data) : LLVMConstNull(cg->ptr),
                                 LLVMConstInt(cg->i32, 8 * (uint64_t)count, 0)};
    cg_helper(cg, BPF_FUNC_snprintf, cg->i64, call_args, 5);
    cg_output_string(cg, out, piece);
    strbuf_reset(text);
}

/* The values of a format's arguments, in order, as the script wrote them;
 * strings copied into slots (sprintf may cut them). */
static int format_values(struct codegen *cg, struct expr *args, LLVMValueRef *values, int max)
{
    int count = 0;
    for (struct expr *arg = args; arg && count < max; arg = arg->next) {
        LLVMValueRef value = cg_operand(cg, arg);
        if (arg->type == TYPE_STRING)
            value = cg_scratch_ptr(cg, cg_string_copy_to_slot(cg, value, NULL));
        values[count++] = value;
    }
    return count;
}

/* A literal width or precision, or the next value for a '*'. */
static LLVMValueRef field_value(struct codegen *cg, int star, int literal, LLVMValueRef *values, int *next, int count)
{
    if (!star)
        return cg_const(cg, literal);
    return *next < count ? star_value(cg, values[(*next)++]) : cg_const(cg, -1);
}

/* The kernel copies every %s of one bpf_snprintf call into a 512-byte
 * buffer and fails when they do not fit, so each %s gets a call of its own;
 * runs of numbers share one. */
static LLVMValueRef format_string(struct codegen *cg, struct expr *call, struct expr *format_expr, const char *format,
                                  struct expr *args)
{
    struct compiled_format compiled;
    char error[128];
    size_t offset;
    struct output out;
    cg_output_start(cg, &out);
    if (format_compile(format, &compiled, error, sizeof(error), &offset) != 0) {
        diag_error(cg->diags, call->span, "invalid format: %s", error);
        return cg_output_finish(cg, &out);
    }
    if (format_expr && cg_check_memory_sizes(cg, format_expr, &compiled) < 0) {
        format_free(&compiled);
        return cg_output_finish(cg, &out);
    }
    LLVMValueRef values[64];
    int value_count = format_values(cg, args, values, 64);
    cg_set_location(cg, call->span);
    struct strbuf text;
    strbuf_init(&text);
    uint32_t data = cg_alloc_scratch(cg, 8 * MAX_SNPRINTF_ARGS);
    int count = 0, next = 0;
    for (int i = 0; i < compiled.piece_count; i++) {
        const struct format_piece *p = &compiled.pieces[i];
        int in_kernel = p->conv && kernel_formats(p);
        int alone = p->conv && (!in_kernel || p->conv == 's');
        if ((alone || count == MAX_SNPRINTF_ARGS) && text.len) {
            format_segment(cg, &out, &text, data, count);
            count = 0;
        }
        int truncate_to;
        translate_piece(p, &text, &truncate_to);
        if (!p->conv)
            continue;
        if (!in_kernel) {
            format_segment(cg, &out, &text, data, count);
            count = 0;
            struct field f = {.span = format_expr ? format_expr->span : call->span};
            f.width = field_value(cg, p->width_star, p->width, values, &next, value_count);
            f.precision = field_value(cg, p->precision_star, p->precision, values, &next, value_count);
            if (next < value_count)
                render_piece(cg, &out, p, values[next++], f);
            continue;
        }
        if (next >= value_count)
            continue;
        LLVMValueRef value = values[next++];
        if (p->conv == 's') {
            if (truncate_to >= 0 && (uint32_t)truncate_to < cg->string_size) {
                LLVMValueRef index = cg_const(cg, truncate_to);
                cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_byte_ptr(cg, value, index));
            }
            value = cg_address(cg, value);
        }
        cg_store(cg, value, cg_scratch_ptr(cg, data + 8 * (uint32_t)count));
        count++;
        if (p->conv == 's') {
            format_segment(cg, &out, &text, data, count);
            count = 0;
        }
    }
    format_segment(cg, &out, &text, data, count);
    strbuf_free(&text);
    format_free(&compiled);
    return cg_output_finish(cg, &out);
}

static LLVMValueRef sprint(struct codegen *cg, struct expr *call, int newline)
{
    struct strbuf format;
    strbuf_init(&format);
    for (struct expr *a = call->call.args; a; a = a->next) {
        if (a->type == TYPE_STATS) {
            diag_error(cg->diags, a->span, "a histogram makes a string alone: sprint(@hist_log(s)), with nothing else");
            strbuf_free(&format);
            return cg_string_literal(cg, "", 0);
        }
        strbuf_puts(&format, a->type == TYPE_STRING ? "%s" : "%d");
    }
    if (newline)
        strbuf_putc(&format, '\n');
    LLVMValueRef result = format_string(cg, call, NULL, format.data ? format.data : "", call->call.args);
    strbuf_free(&format);
    return result;
}

LLVMValueRef cg_sprintf_builtin(struct codegen *cg, struct expr *call, int builtin_id)
{
    struct expr *a = call->call.args;
    if (builtin_id != BUILTIN_SPRINTF)
        return sprint(cg, call, builtin_id == BUILTIN_SPRINTLN);
    if (!a || a->kind != EXPR_STRING) {
        diag_error(cg->diags, call->span, "sprintf needs a literal format");
        return cg_string_literal(cg, "", 0);
    }
    return format_string(cg, call, a, a->string.value, a->next);
}
