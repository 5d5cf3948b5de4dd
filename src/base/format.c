/* printf formatting as SystemTap's runtime does it: the format parser follows
 * the translator (staptree.cxx string_to_components), the conversions follow
 * runtime/vsprintf.c (number, _stp_vsprint_char, _stp_vsprint_memory,
 * _stp_vsprint_binary) as driven by the translator's compiled printfs. */
#include "base/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

/* stap clamps widths and precisions to what is left of its print buffer
 * (STP_BUFFER_SIZE); a fixed bound keeps a stray `%*d` from allocating gigabytes. */
#define FORMAT_MAX_FIELD 8192

static const char format_conversions[] = "diuoxXpcsbmM";
static const char format_flags[] = "-+ #0";

static int format_flag_bit(char c)
{
    switch (c) {
    case '-': return FORMAT_FLAG_MINUS;
    case '+': return FORMAT_FLAG_PLUS;
    case ' ': return FORMAT_FLAG_SPACE;
    case '#': return FORMAT_FLAG_HASH;
    case '0': return FORMAT_FLAG_ZERO;
    }
    return 0;
}

/* Digits into a field, saturating so "%99999999999d" cannot overflow. */
static int format_parse_number(const char **p)
{
    int n = 0;
    while (**p >= '0' && **p <= '9') {
        n = n * 10 + (**p - '0');
        if (n > FORMAT_MAX_FIELD)
            n = FORMAT_MAX_FIELD;
        (*p)++;
    }
    return n;
}

static void format_error(char *error, size_t error_size, const char *what,
                         const char *start, const char *end, const char *why)
{
    char text[48];
    size_t n = 0;
    for (const char *c = start; c < end && n + 5 < sizeof text; c++) {
        unsigned char u = (unsigned char)*c;
        if (u >= 0x20 && u < 0x7f)
            text[n++] = (char)u;
        else
            n += (size_t)snprintf(text + n, sizeof text - n, "\\x%02x", u);
    }
    text[n] = 0;
    if (error && error_size)
        snprintf(error, error_size, "%s '%s'%s", what, text, why);
}

/* Parses the directive after '%' at *p: `[flag][width|*][.prec|.*][l|ll|h]conv`.
 * Like stap, one flag at most, and a '.' followed by neither digits nor '*'
 * leaves the precision unspecified. Returns 0, or -1 with the message set. */
static int format_parse_directive(const char *percent, const char **p,
                                  struct format_piece *piece,
                                  char *error, size_t error_size)
{
    const char *q = percent + 1;

    piece->flags = format_flag_bit(*q);
    if (piece->flags)
        q++;

    piece->width = -1;
    piece->width_star = 0;
    if (*q == '*') {
        piece->width_star = 1;
        q++;
    } else if (*q >= '0' && *q <= '9') {
        piece->width = format_parse_number(&q);
    }

    piece->precision = -1;
    piece->precision_star = 0;
    if (*q == '.') {
        q++;
        if (*q == '*') {
            piece->precision_star = 1;
            q++;
        } else if (*q >= '0' && *q <= '9') {
            piece->precision = format_parse_number(&q);
        }
    }

    /* Length modifiers mean nothing: every integer is 64-bit. */
    if (q[0] == 'l' && q[1] == 'l')
        q += 2;
    else if (q[0] == 'l' || q[0] == 'h')
        q++;

    if (*q == 0) {
        format_error(error, error_size, "incomplete conversion", percent, q,
                     " at the end of the format");
        return -1;
    }
    if (!strchr(format_conversions, *q)) {
        format_error(error, error_size, "invalid conversion", percent, q + 1,
                     strchr(format_flags, *q) ? ": one flag at most" : "");
        return -1;
    }
    piece->conv = *q;
    *p = q + 1;
    return 0;
}

int format_compile(const char *format, struct compiled_format *out,
                   char *error, size_t error_size, size_t *error_offset)
{
    size_t percents = 0;
    for (const char *c = format; *c; c++)
        percents += *c == '%';

    memset(out, 0, sizeof *out);
    /* Each '%' starts at most one piece and three arguments; one more piece
     * for trailing text. */
    out->pieces = calloc(percents + 1, sizeof *out->pieces);
    out->arg_types = calloc(3 * percents + 1, sizeof *out->arg_types);
    if (!out->pieces || !out->arg_types) {
        format_free(out);
        if (error && error_size)
            snprintf(error, error_size, "out of memory");
        if (error_offset)
            *error_offset = 0;
        return -1;
    }

    const char *lit = format, *p = format;
    while (*p) {
        if (*p != '%') {
            p++;
            continue;
        }
        struct format_piece *piece = &out->pieces[out->piece_count];
        piece->literal = lit;
        if (p[1] == '%') {
            /* The literal run ends with the first '%'; the second is skipped. */
            piece->literal_len = (size_t)(p + 1 - lit);
            piece->conv = 0;
            out->piece_count++;
            p += 2;
            lit = p;
            continue;
        }
        piece->literal_len = (size_t)(p - lit);
        if (format_parse_directive(p, &p, piece, error, error_size) < 0) {
            if (error_offset)
                *error_offset = (size_t)(piece->literal + piece->literal_len - format);
            format_free(out);
            return -1;
        }
        if (piece->width_star)
            out->arg_types[out->arg_count++] = FORMAT_VALUE_LONG;
        if (piece->precision_star)
            out->arg_types[out->arg_count++] = FORMAT_VALUE_LONG;
        /* %m and %M take an address; the runtime passes the bytes read there. */
        out->arg_types[out->arg_count++] =
            piece->conv == 's' ? FORMAT_VALUE_STRING : FORMAT_VALUE_LONG;
        out->piece_count++;
        lit = p;
    }
    if (p > lit) {
        struct format_piece *piece = &out->pieces[out->piece_count++];
        piece->literal = lit;
        piece->literal_len = (size_t)(p - lit);
        piece->conv = 0;
    }
    return 0;
}

void format_free(struct compiled_format *compiled)
{
    free(compiled->pieces);
    free(compiled->arg_types);
    memset(compiled, 0, sizeof *compiled);
}

static void format_pad(struct strbuf *out, char c, int n)
{
    if (n > 0)
        strbuf_repeat(out, c, (size_t)n);
}

/* stap's number(): sign, then the '#' prefix (0x/0X/0, also for zero), then
 * zeros up to the precision. The '0' flag pads between prefix and digits,
 * even with a precision (unlike C); '-' cancels it. */
static void format_number(struct strbuf *out, uint64_t num, char conv, int flags,
                          int width, int precision)
{
    const char *digits = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;
    int size = width;
    char sign = 0;

    if (flags & FORMAT_FLAG_MINUS)
        flags &= ~FORMAT_FLAG_ZERO;
    if (conv == 'd' || conv == 'i') {
        if ((int64_t)num < 0) {
            sign = '-';
            num = 0 - num;      /* well defined for INT64_MIN too */
        } else if (flags & FORMAT_FLAG_PLUS) {
            sign = '+';
        } else if (flags & FORMAT_FLAG_SPACE) {
            sign = ' ';
        }
        if (sign)
            size--;
    }
    const char *prefix = "";
    if (flags & FORMAT_FLAG_HASH) {
        if (base == 16)
            prefix = conv == 'X' ? "0X" : "0x";
        else if (base == 8)
            prefix = "0";
    }
    size -= (int)strlen(prefix);

    char tmp[64];
    int n = 0;
    do {
        tmp[n++] = digits[num % base];
        num /= base;
    } while (num);
    if (precision < n)
        precision = n;
    size -= precision;

    if (!(flags & (FORMAT_FLAG_ZERO | FORMAT_FLAG_MINUS))) {
        format_pad(out, ' ', size);
        size = 0;
    }
    if (sign)
        strbuf_putc(out, sign);
    strbuf_puts(out, prefix);
    if (!(flags & FORMAT_FLAG_MINUS)) {
        format_pad(out, '0', size);
        size = 0;
    }
    format_pad(out, '0', precision - n);
    char rev[64];
    for (int i = 0; i < n; i++)
        rev[i] = tmp[n - 1 - i];
    strbuf_append(out, rev, (size_t)n);
    format_pad(out, ' ', size);
}

/* %c; with '#' non-printable characters, quote and backslash are escaped. */
static void format_char(struct strbuf *out, unsigned char c, int flags, int width)
{
    char text[4];
    int size = 0;
    if ((flags & FORMAT_FLAG_HASH) && (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\')) {
        static const char from[] = "\a\b\f\n\r\t\v'\\", to[] = "abfnrtv'\\";
        const char *hit = c ? strchr(from, c) : NULL;
        text[size++] = '\\';
        if (hit) {
            text[size++] = to[hit - from];
        } else {
            text[size++] = (char)('0' + ((c >> 6) & 3));
            text[size++] = (char)('0' + ((c >> 3) & 7));
            text[size++] = (char)('0' + (c & 7));
        }
    } else {
        text[size++] = (char)c;
    }
    if (!(flags & FORMAT_FLAG_MINUS))
        format_pad(out, ' ', width - size);
    strbuf_append(out, text, (size_t)size);
    if (flags & FORMAT_FLAG_MINUS)
        format_pad(out, ' ', width - size);
}

/* %s, %m and %M, as stap's _stp_vsprint_memory: %s stops at a NUL and at the
 * precision; %m/%M write precision bytes (1 without one, or with .0), %M as
 * hex. Padding is always spaces; the '0' flag appends a NUL byte instead. */
static void format_memory(struct strbuf *out, const struct format_value *value,
                          char conv, int flags, int width, int precision)
{
    size_t len;
    if (conv == 's') {
        const char *nul = value->string ? memchr(value->string, 0, value->string_len) : NULL;
        len = nul ? (size_t)(nul - value->string) : value->string_len;
        if (precision >= 0 && (size_t)precision < len)
            len = (size_t)precision;
    } else {
        len = precision > 0 ? (size_t)precision : 1;
        if (len > value->string_len)
            len = value->string_len;
    }
    int shown = (int)(conv == 'M' ? 2 * len : len);

    if (!(flags & FORMAT_FLAG_MINUS))
        format_pad(out, ' ', width - shown);
    if (conv == 'M') {
        static const char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < len; i++) {
            unsigned char b = (unsigned char)value->string[i];
            char pair[2] = { hex[b >> 4], hex[b & 15] };
            strbuf_append(out, pair, 2);
        }
    } else if (len) {
        strbuf_append(out, value->string, len);
    }
    if (flags & FORMAT_FLAG_MINUS)
        format_pad(out, ' ', width - shown);
    if (flags & FORMAT_FLAG_ZERO)
        strbuf_putc(out, 0);
}

static int format_binary_size(int n)
{
    return n == 1 || n == 2 || n == 4 || n == 8 ? n : -1;
}

/* %b writes the value's low `size` bytes, little-endian, where size is the
 * precision (1, 2, 4 or 8), else the width if it is one of those, else 8;
 * the rest of the width is NUL bytes. */
static void format_binary(struct strbuf *out, uint64_t num, int flags, int width,
                          int precision)
{
    int size = format_binary_size(precision);
    if (width < 0) {
        if (size < 0)
            size = 8;
        width = size;
    } else if (size < 0) {
        size = format_binary_size(width);
        if (size < 0)
            size = 8;
    }
    char bytes[8];
    for (int i = 0; i < size; i++)
        bytes[i] = (char)(num >> (8 * i));
    if (!(flags & FORMAT_FLAG_MINUS))
        format_pad(out, 0, width - size);
    strbuf_append(out, bytes, (size_t)size);
    if (flags & FORMAT_FLAG_MINUS)
        format_pad(out, 0, width - size);
}

static int format_clamp(int64_t v)
{
    return v < 0 ? 0 : v > FORMAT_MAX_FIELD ? FORMAT_MAX_FIELD : (int)v;
}

void format_render(struct strbuf *out, const struct compiled_format *compiled,
                   const struct format_value *values)
{
    int arg = 0;
    for (int i = 0; i < compiled->piece_count; i++) {
        const struct format_piece *piece = &compiled->pieces[i];
        if (piece->literal_len)
            strbuf_append(out, piece->literal, piece->literal_len);
        if (!piece->conv)
            continue;

        /* As stap's compiled printf: a negative '*' is clamped to 0 (not
         * turned into '-'), and so is a negative '.*'. */
        int width = piece->width, precision = piece->precision;
        if (piece->width_star)
            width = format_clamp(values[arg++].number);
        if (piece->precision_star)
            precision = format_clamp(values[arg++].number);
        const struct format_value *value = &values[arg++];

        switch (piece->conv) {
        case 'p':
            format_number(out, (uint64_t)value->number, 'p',
                          piece->flags | FORMAT_FLAG_HASH, width, precision);
            break;
        case 'c':
            format_char(out, (unsigned char)value->number, piece->flags, width);
            break;
        case 's':
        case 'm':
        case 'M':
            format_memory(out, value, piece->conv, piece->flags, width, precision);
            break;
        case 'b':
            format_binary(out, (uint64_t)value->number, piece->flags, width, precision);
            break;
        default:
            format_number(out, (uint64_t)value->number, piece->conv, piece->flags,
                          width, precision);
            break;
        }
    }
}
