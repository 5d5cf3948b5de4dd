/* printf formatting: what SystemTap prints, byte for byte. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "check.h"
#include "base/format.h"

#define L(n) ((struct format_value){ .number = (int64_t)(n) })
#define S(s) ((struct format_value){ .string = (s), .string_len = strlen(s) })
#define MEM(s, n) ((struct format_value){ .string = (s), .string_len = (n) })

static void print_escaped(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            fputc(c, stderr);
        else
            fprintf(stderr, "\\x%02x", c);
    }
}

/* Compiles fmt, renders it with values and compares, NUL bytes included. */
static void check_format(int line, const char *expected, size_t expected_len,
                         const char *fmt, const struct format_value *values)
{
    struct compiled_format cf;
    char error[128];
    size_t offset;
    if (format_compile(fmt, &cf, error, sizeof error, &offset) != 0) {
        check_failed++;
        fprintf(stderr, "test_format.c:%d: \"%s\" did not compile: %s\n", line, fmt, error);
        return;
    }
    struct strbuf sb;
    strbuf_init(&sb);
    format_render(&sb, &cf, values);
    if (sb.len == expected_len && memcmp(sb.data ? sb.data : "", expected, expected_len) == 0) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "test_format.c:%d: \"%s\"\n  expected: [", line, fmt);
        print_escaped(expected, expected_len);
        fprintf(stderr, "]\n  got:      [");
        print_escaped(sb.data ? sb.data : "", sb.len);
        fprintf(stderr, "]\n");
    }
    strbuf_free(&sb);
    format_free(&cf);
}

#define CHECK_FMT(expected, fmt, ...) \
    check_format(__LINE__, expected, sizeof(expected) - 1, fmt, \
                 (struct format_value[]){ __VA_ARGS__ })

static void check_error(int line, const char *fmt, const char *message, size_t at)
{
    struct compiled_format cf;
    char error[128] = "";
    size_t offset = 12345;
    int rc = format_compile(fmt, &cf, error, sizeof error, &offset);
    if (rc == -1 && strcmp(error, message) == 0 && offset == at) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "test_format.c:%d: \"%s\": expected error \"%s\" at %zu, got rc %d \"%s\" at %zu\n",
                line, fmt, message, at, rc, error, offset);
        if (rc == 0)
            format_free(&cf);
    }
}

#define CHECK_ERROR(fmt, message, at) check_error(__LINE__, fmt, message, at)

static void test_spec_example(void)
{
    CHECK_FMT("[   42][42   ][00042][ff][FF][0xff][10][A][str][     right][left      ][tr][0x1000][%]",
              "[%5d][%-5d][%05d][%x][%X][%#x][%o][%c][%s][%10s][%-10s][%.2s][%p][%%]",
              L(42), L(42), L(42), L(255), L(255), L(255), L(8), L(65), S("str"),
              S("right"), S("left"), S("trunc"), L(4096));
}

static void test_integers(void)
{
    CHECK_FMT("-9223372036854775808", "%d", L(INT64_MIN));
    CHECK_FMT("9223372036854775807", "%i", L(INT64_MAX));
    CHECK_FMT("9223372036854775808", "%u", L(INT64_MIN));
    CHECK_FMT("18446744073709551615", "%u", L(-1));
    CHECK_FMT("ffffffffffffffff", "%x", L(-1));
    CHECK_FMT("FFFFFFFFFFFFFFFF", "%X", L(-1));
    CHECK_FMT("1777777777777777777777", "%o", L(-1));
    CHECK_FMT("8000000000000000", "%x", L(INT64_MIN));
    CHECK_FMT("0", "%d", L(0));
    CHECK_FMT("ABC", "%X", L(0xabc));
    CHECK_FMT("-42", "%d", L(-42));

    /* '#' adds its prefix for zero too, unlike C; it does nothing in base 10. */
    CHECK_FMT("0x0", "%#x", L(0));
    CHECK_FMT("00", "%#o", L(0));
    CHECK_FMT("010", "%#o", L(8));
    CHECK_FMT("0XFF", "%#X", L(255));
    CHECK_FMT("5", "%#d", L(5));
    CHECK_FMT("0xffffffffffffffff", "%#x", L(-1));

    /* Signs only for %d and %i. */
    CHECK_FMT("+5", "%+d", L(5));
    CHECK_FMT("-5", "%+d", L(-5));
    CHECK_FMT("+0", "%+d", L(0));
    CHECK_FMT(" 5", "% d", L(5));
    CHECK_FMT("-5", "% d", L(-5));
    CHECK_FMT("   42", "% 5d", L(42));
    CHECK_FMT("5", "%+u", L(5));
    CHECK_FMT("ff", "%+x", L(255));
    CHECK_FMT("ff", "% x", L(255));

    /* Width and the '0' and '-' flags. */
    CHECK_FMT("-0042", "%05d", L(-42));
    CHECK_FMT("  -42", "%5d", L(-42));
    CHECK_FMT("-42  ", "%-5d", L(-42));
    CHECK_FMT("000000ff", "%08x", L(255));
    CHECK_FMT("ff      ", "%-8x", L(255));
    CHECK_FMT("    0xff", "%#8x", L(255));
    CHECK_FMT("42", "%1d", L(42));
    CHECK_FMT("42", "%0d", L(42));
    CHECK_FMT("-9223372036854775808", "%5d", L(INT64_MIN));
    CHECK_FMT("-09223372036854775808", "%021d", L(INT64_MIN));
    CHECK_FMT("0xff", "%#0x", L(255));                 /* '#' then width 0 */

    /* One flag only: after it, "05" is just the width. */
    CHECK_FMT("42   ", "%-05d", L(42));
    CHECK_FMT("  +42", "%+05d", L(42));

    /* Precision is a minimum digit count; '0' still pads (stap's number()). */
    CHECK_FMT("00042", "%.5d", L(42));
    CHECK_FMT("   00042", "%8.5d", L(42));
    CHECK_FMT("00042   ", "%-8.5d", L(42));
    CHECK_FMT("00000042", "%08.5d", L(42));
    CHECK_FMT("-005", "%.3d", L(-5));
    CHECK_FMT("0x00ff", "%#.4x", L(255));
    CHECK_FMT("0", "%.0d", L(0));
    CHECK_FMT("12345", "%.2d", L(12345));

    /* Length modifiers are accepted and ignored. */
    CHECK_FMT("5 6 7 8", "%ld %lld %hd %lu", L(5), L(6), L(7), L(8));
    CHECK_FMT("ffffffffffffffff", "%llx", L(-1));
}

static void test_pointer(void)
{
    CHECK_FMT("0x1000", "%p", L(4096));
    CHECK_FMT("0x0", "%p", L(0));
    CHECK_FMT("    0x1000", "%10p", L(4096));
    CHECK_FMT("0x1000    ", "%-10p", L(4096));
    CHECK_FMT("0x00001000", "%010p", L(4096));
    CHECK_FMT("0x1000", "%#p", L(4096));
    CHECK_FMT("0xffffffffffffffff", "%p", L(-1));
}

static void test_stars(void)
{
    CHECK_FMT("   42", "%*d", L(5), L(42));
    CHECK_FMT("42   ", "%-*d", L(5), L(42));
    CHECK_FMT("00042", "%0*d", L(5), L(42));
    CHECK_FMT("  00042", "%*.*d", L(7), L(5), L(42));
    CHECK_FMT("tr", "%.*s", L(2), S("trunc"));
    CHECK_FMT("ab    |", "%-*s|", L(6), S("ab"));
    CHECK_FMT("    ab", "%*.*s", L(6), L(2), S("abc"));
    /* stap's compiled printf clamps a negative star to 0. */
    CHECK_FMT("42", "%*d", L(-5), L(42));
    CHECK_FMT("", "%.*s", L(-1), S("abc"));
}

static void test_chars(void)
{
    CHECK_FMT("A", "%c", L(65));
    CHECK_FMT("  A", "%3c", L(65));
    CHECK_FMT("A  |", "%-3c|", L(65));
    CHECK_FMT("  A", "%03c", L(65));
    CHECK_FMT("A", "%c", L(0x141));
    CHECK_FMT("\n", "%c", L('\n'));
    CHECK_FMT("\\n", "%#c", L('\n'));
    CHECK_FMT("\\001", "%#c", L(1));
    CHECK_FMT("\\000", "%#c", L(0));
    CHECK_FMT("\\'", "%#c", L('\''));
    CHECK_FMT("\\\\", "%#c", L('\\'));
    CHECK_FMT("\\310", "%#c", L(200));
    CHECK_FMT("x", "%#c", L('x'));
}

static void test_strings(void)
{
    CHECK_FMT("", "%s", S(""));
    CHECK_FMT("     ", "%5s", S(""));
    CHECK_FMT("abc", "%2s", S("abc"));
    CHECK_FMT("", "%.0s", S("abc"));
    CHECK_FMT("abc", "%.s", S("abc"));        /* a bare '.' leaves the precision unset, as in stap */
    CHECK_FMT("abc", "%.10s", S("abc"));
    CHECK_FMT("  ab", "%4.2s", S("abc"));
    CHECK_FMT("ab  |", "%-4.2s|", S("abc"));
    CHECK_FMT("abc", "%s", MEM("abcdef", 3));
    CHECK_FMT("ab", "%s", MEM("ab\0cd", 5));
    CHECK_FMT("  ab", "%+4s", S("ab"));
    /* stap: '0' does not zero-pad a string; it appends a NUL byte. */
    CHECK_FMT("   ab\0", "%05s", S("ab"));
    CHECK_FMT("a b", "%s %s", S("a"), S("b"));
}

static void test_memory(void)
{
    CHECK_FMT("h", "%m", MEM("hello", 5));
    CHECK_FMT("h", "%.0m", MEM("hello", 5));
    CHECK_FMT("hel", "%.3m", MEM("hello", 5));
    CHECK_FMT("  hel", "%5.3m", MEM("hello", 5));
    CHECK_FMT("a\0b", "%.3m", MEM("a\0b", 3));
    CHECK_FMT("01abff", "%.3M", MEM("\x01\xab\xff", 3));
    CHECK_FMT("    01ab", "%8.2M", MEM("\x01\xab\xff", 3));
    CHECK_FMT("01ab    |", "%-8.2M|", MEM("\x01\xab\xff", 3));
    CHECK_FMT("68", "%M", MEM("hello", 5));
    CHECK_FMT("he", "%.*m", L(2), MEM("hello", 5));
}

static void test_binary(void)
{
    CHECK_FMT("\x02\x01\0\0\0\0\0\0", "%b", L(0x0102));
    CHECK_FMT("\xff\xff\xff\xff\xff\xff\xff\xff", "%b", L(-1));
    CHECK_FMT("A", "%1b", L(0x41));
    CHECK_FMT("BA", "%2b", L(0x4142));
    CHECK_FMT("DCBA", "%4b", L(0x41424344));
    CHECK_FMT("BA", "%.2b", L(0x4142));
    CHECK_FMT("\0\0BA", "%4.2b", L(0x4142));
    CHECK_FMT("BA\0\0", "%-4.2b", L(0x4142));
    CHECK_FMT("A\0\0\0\0\0\0\0", "%3b", L(0x41));           /* 3 is no size: 8 bytes */
    CHECK_FMT("\0\0A\0\0\0\0\0\0\0", "%10b", L(0x41));      /* 10: 8 bytes, 2 NULs first */
    CHECK_FMT("A\0\0\0\0\0\0\0", "%.3b", L(0x41));
}

static void test_literals(void)
{
    CHECK_FMT("", "", L(0));
    CHECK_FMT("plain text", "plain text", L(0));
    CHECK_FMT("%", "%%", L(0));
    CHECK_FMT("100% done", "100%% done", L(0));
    CHECK_FMT("%5", "%%%d", L(5));
    CHECK_FMT("a%", "a%%", L(0));
    CHECK_FMT("%%", "%%%%", L(0));
    CHECK_FMT("12", "%d%d", L(1), L(2));
    CHECK_FMT("<1>\n", "<%d>\n", L(1));
}

static void test_compile(void)
{
    struct compiled_format cf;
    char error[128];
    size_t offset;
    CHECK(format_compile("a%*.*sb%mc%dd%%e", &cf, error, sizeof error, &offset) == 0);
    CHECK(cf.arg_count == 5);
    CHECK(cf.arg_types[0] == FORMAT_VALUE_LONG);
    CHECK(cf.arg_types[1] == FORMAT_VALUE_LONG);
    CHECK(cf.arg_types[2] == FORMAT_VALUE_STRING);
    CHECK(cf.arg_types[3] == FORMAT_VALUE_LONG);    /* %m: an address */
    CHECK(cf.arg_types[4] == FORMAT_VALUE_LONG);
    CHECK(cf.piece_count == 5);
    CHECK(cf.pieces[0].conv == 's' && cf.pieces[0].width_star && cf.pieces[0].precision_star);
    CHECK(cf.pieces[0].literal_len == 1 && cf.pieces[0].literal[0] == 'a');
    CHECK(cf.pieces[1].conv == 'm' && cf.pieces[1].literal_len == 1);
    CHECK(cf.pieces[2].conv == 'd' && cf.pieces[2].literal[0] == 'c');
    CHECK(cf.pieces[3].conv == 0 && cf.pieces[3].literal_len == 2);  /* "d%" */
    CHECK(cf.pieces[4].conv == 0 && cf.pieces[4].literal_len == 1);  /* "e" */
    format_free(&cf);

    CHECK(format_compile("%-#x", &cf, error, sizeof error, &offset) == -1);
    CHECK(format_compile("x%-12.3lu", &cf, error, sizeof error, &offset) == 0);
    CHECK(cf.piece_count == 1 && cf.pieces[0].flags == FORMAT_FLAG_MINUS);
    CHECK(cf.pieces[0].width == 12 && cf.pieces[0].precision == 3 && cf.pieces[0].conv == 'u');
    CHECK(!cf.pieces[0].width_star && !cf.pieces[0].precision_star);
    format_free(&cf);

    CHECK(format_compile("%d", &cf, error, sizeof error, &offset) == 0);
    CHECK(cf.pieces[0].width == -1 && cf.pieces[0].precision == -1 && cf.pieces[0].flags == 0);
    format_free(&cf);

    CHECK(format_compile("", &cf, error, sizeof error, &offset) == 0);
    CHECK(cf.piece_count == 0 && cf.arg_count == 0);
    format_free(&cf);
}

static void test_errors(void)
{
    CHECK_ERROR("%", "incomplete conversion '%' at the end of the format", 0);
    CHECK_ERROR("ab%5", "incomplete conversion '%5' at the end of the format", 2);
    CHECK_ERROR("%-", "incomplete conversion '%-' at the end of the format", 0);
    CHECK_ERROR("%.*", "incomplete conversion '%.*' at the end of the format", 0);
    CHECK_ERROR("%l", "incomplete conversion '%l' at the end of the format", 0);
    CHECK_ERROR("%q", "invalid conversion '%q'", 0);
    CHECK_ERROR("%d %5.2q", "invalid conversion '%5.2q'", 3);
    CHECK_ERROR("%f", "invalid conversion '%f'", 0);
    CHECK_ERROR("%n", "invalid conversion '%n'", 0);
    CHECK_ERROR("%lq", "invalid conversion '%lq'", 0);
    CHECK_ERROR("%5*d", "invalid conversion '%5*'", 0);
    CHECK_ERROR("x %-+d", "invalid conversion '%-+': one flag at most", 2);
    CHECK_ERROR("%0-5d", "invalid conversion '%0-': one flag at most", 0);
    CHECK_ERROR("%\n", "invalid conversion '%\\x0a'", 0);
    CHECK_ERROR("%%%", "incomplete conversion '%' at the end of the format", 2);
}

int main(void)
{
    test_spec_example();
    test_integers();
    test_pointer();
    test_stars();
    test_chars();
    test_strings();
    test_memory();
    test_binary();
    test_literals();
    test_compile();
    test_errors();
    return check_summary();
}
