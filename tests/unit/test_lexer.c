/* The lexer: token kinds, spans, numbers, escapes, operators, comments. */
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "base/strbuf.h"
#include "check.h"
#include "lexer/token.h"
#include "parser.h"

static struct arena arena;

static struct token_array lex(const char *text, struct diags *diags)
{
    struct source_file *file = source_from_string(&arena, "t.tp", text, strlen(text));
    struct token_array tokens = {0};
    lexer_tokenize(&arena, diags, file, &tokens);
    return tokens;
}

static struct token_array lex_ok(const char *text)
{
    struct diags diags;
    diags_init(&diags);
    struct token_array tokens = lex(text, &diags);
    CHECK(diags.error_count == 0);
    diags_free(&diags);
    return tokens;
}

/* The first diagnostic, rendered. */
static char *lex_error(const char *text)
{
    struct diags diags;
    diags_init(&diags);
    lex(text, &diags);
    struct strbuf sb;
    strbuf_init(&sb);
    if (diags.head)
        diag_render(diags.head, &sb);
    char *s = arena_strdup(&arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    diags_free(&diags);
    return s;
}

static void test_simple_probe(void)
{
    struct token_array t = lex_ok("probe begin {\n  x = 1\n}\n");
    int kinds[] = { KW_PROBE, IDENT, '{', IDENT, '=', NUMBER, '}', YYEOF };
    CHECK(t.count == 8);
    for (int i = 0; i < 8 && i < t.count; i++)
        CHECK(t.items[i].kind == kinds[i]);
    CHECK(t.items[0].span.line == 1 && t.items[0].span.col == 1 && t.items[0].span.len == 5);
    CHECK(t.items[0].span.token_class == TOKEN_CLASS_KEYWORD);
    CHECK(t.items[1].span.col == 7 && t.items[1].span.token_class == TOKEN_CLASS_IDENTIFIER);
    CHECK_STR(t.items[1].text, "begin");
    CHECK(t.items[3].span.line == 2 && t.items[3].span.col == 3);
    CHECK(t.items[4].span.token_class == TOKEN_CLASS_OPERATOR);
    CHECK(t.items[5].value == 1 && t.items[5].span.token_class == TOKEN_CLASS_NUMBER);
    CHECK(t.items[6].span.line == 3 && t.items[6].span.col == 1);
    CHECK(t.items[7].span.token_class == TOKEN_CLASS_EOF);
    CHECK(t.items[7].span.line == 3 && t.items[7].span.col == 2);
}

static void test_keywords(void)
{
    const char *words = "probe global private function if else for foreach in limit return delete "
                        "while break continue next string long try catch";
    int kinds[] = { KW_PROBE, KW_GLOBAL, KW_PRIVATE, KW_FUNCTION, KW_IF, KW_ELSE, KW_FOR, KW_FOREACH,
                    KW_IN, KW_LIMIT, KW_RETURN, KW_DELETE, KW_WHILE, KW_BREAK, KW_CONTINUE, KW_NEXT,
                    KW_STRING, KW_LONG, KW_TRY, KW_CATCH };
    struct token_array t = lex_ok(words);
    CHECK(t.count == 21);
    for (int i = 0; i < 20 && i < t.count; i++)
        CHECK(t.items[i].kind == kinds[i]);
    t = lex_ok("probes _x x9 Global");
    for (int i = 0; i < 4; i++)
        CHECK(t.items[i].kind == IDENT);
}

static void test_numbers(void)
{
    struct token_array t = lex_ok("0 42 0x1F 0XfF 0777 9223372036854775807 9223372036854775808 "
                                  "18446744073709551615 0xffffffffffffffff 010");
    int64_t values[] = { 0, 42, 31, 255, 511, INT64_MAX, INT64_MIN, -1, -1, 8 };
    CHECK(t.count == 11);
    for (int i = 0; i < 10 && i < t.count; i++) {
        CHECK(t.items[i].kind == NUMBER);
        CHECK(t.items[i].value == values[i]);
    }
    CHECK_STR(lex_error("x = 09"),
              "parse error: malformed number\n"
              "        saw: number '09' at t.tp:1:5\n"
              "     source: x = 09\n"
              "                 ^\n");
    CHECK_STR(lex_error("x = 12ab"),
              "parse error: malformed number\n"
              "        saw: number '12ab' at t.tp:1:5\n"
              "     source: x = 12ab\n"
              "                 ^\n");
    CHECK(strstr(lex_error("18446744073709551616"), "number too large") != NULL);
    CHECK(strstr(lex_error("0x"), "malformed number") != NULL);
}

static void test_strings(void)
{
    struct token_array t = lex_ok("\"a\\a\\b\\t\\n\\v\\f\\r\\\\\\\"\\101\\x41\\0z\" \"\"");
    CHECK(t.count == 3);
    CHECK(t.items[0].kind == STRING);
    const char expected[] = "a\a\b\t\n\v\f\r\\\"AA\0z";
    CHECK(t.items[0].len == (int)sizeof(expected) - 1);
    CHECK(memcmp(t.items[0].text, expected, sizeof(expected) - 1) == 0);
    CHECK(t.items[0].span.col == 1 && t.items[0].span.len == 32);
    CHECK(t.items[0].span.token_class == TOKEN_CLASS_STRING);
    CHECK(t.items[1].kind == STRING && t.items[1].len == 0);
    t = lex_ok("\"\\x4a\\x4\\1234\"");
    CHECK(t.items[0].len == 4 && memcmp(t.items[0].text, "J\004S4", 4) == 0);

    CHECK_STR(lex_error("s = \"abc\nx"),
              "parse error: unterminated string literal\n"
              "        saw: string '\"abc' at t.tp:1:5\n"
              "     source: s = \"abc\n"
              "                 ^\n");
    CHECK_STR(lex_error("s = \"a\\qb\""),
              "parse error: bad escape sequence '\\q' in string\n"
              "        saw: string '\\q' at t.tp:1:7\n"
              "     source: s = \"a\\qb\"\n"
              "                   ^\n");
    CHECK(strstr(lex_error("\"\\xg\""), "bad escape sequence '\\x'") != NULL);
}

static void test_operators(void)
{
    struct token_array t = lex_ok("<<< <<= >>= == != <= >= =~ !~ += -= *= /= %= &= ^= |= .= && || ++ -- -> << >>");
    int kinds[] = { AGGREGATE, SHL_ASSIGN, SHR_ASSIGN, EQ, NE, LE, GE, REGEX_MATCH, REGEX_NOMATCH,
                    ADD_ASSIGN, SUB_ASSIGN, MUL_ASSIGN, DIV_ASSIGN, MOD_ASSIGN, AND_ASSIGN, XOR_ASSIGN,
                    OR_ASSIGN, CONCAT_ASSIGN, ANDAND, OROR, INC, DEC, ARROW, SHL, SHR };
    CHECK(t.count == 26);
    for (int i = 0; i < 25 && i < t.count; i++) {
        CHECK(t.items[i].kind == kinds[i]);
        CHECK(t.items[i].span.token_class == TOKEN_CLASS_OPERATOR);
    }
    /* Longest match, without spaces. */
    t = lex_ok("a<<<b--->c<<=d<=e!~f!g");
    int run[] = { IDENT, AGGREGATE, IDENT, DEC, ARROW, IDENT, SHL_ASSIGN, IDENT, LE, IDENT,
                  REGEX_NOMATCH, IDENT, '!', IDENT, YYEOF };
    CHECK(t.count == 15);
    for (int i = 0; i < 15 && i < t.count; i++)
        CHECK(t.items[i].kind == run[i]);
    const char *singles = "+-*/%<>=!~&|^.,;:?()[]{}";
    struct strbuf spaced;
    strbuf_init(&spaced);
    for (const char *c = singles; *c; c++)
        strbuf_printf(&spaced, "%c ", *c);
    t = lex_ok(spaced.data);
    strbuf_free(&spaced);
    CHECK(t.count == 25);
    for (int i = 0; i < 24 && i < t.count; i++)
        CHECK(t.items[i].kind == singles[i]);
    CHECK_STR(lex_error("x = 1 `"),
              "parse error: unexpected character\n"
              "        saw: operator '`' at t.tp:1:7\n"
              "     source: x = 1 `\n"
              "                   ^\n");
}

static void test_comments(void)
{
    struct token_array t = lex_ok("# hash\na // slash\n/* block\n * still */ b #!x\n/**/c/***/d");
    CHECK(t.count == 5);
    CHECK_STR(t.items[0].text, "a");
    CHECK(t.items[0].span.line == 2);
    CHECK_STR(t.items[1].text, "b");
    CHECK(t.items[1].span.line == 4 && t.items[1].span.col == 13);
    CHECK_STR(t.items[2].text, "c");
    CHECK(t.items[2].span.line == 5 && t.items[2].span.col == 5);
    CHECK_STR(t.items[3].text, "d");
    CHECK(strstr(lex_error("a /* never closed"), "unterminated comment") != NULL);
}

static void test_target_and_at(void)
{
    struct token_array t = lex_ok("$x $$vars $$parms $v$ $v$$ $$return$ $1 @2 $# @# @cast @foo @count @hist_linear @define");
    struct { int kind; const char *text; int64_t value; } want[] = {
        { TARGET, "$x", 0 }, { TARGET, "$$vars", 0 }, { TARGET, "$$parms", 0 },
        { TARGET, "$v", 0 }, { PRETTY, "$", 1 }, { TARGET, "$v", 0 }, { PRETTY, "$$", 2 },
        { TARGET, "$$return", 0 }, { PRETTY, "$", 1 }, { ARG, "$1", 1 }, { ARGSTR, "@2", 2 },
        { ARGCOUNT, "$#", 0 }, { ARGSTRCOUNT, "@#", 0 }, { AT_CAST, "@cast", 0 },
        { AT_MACRO, "@foo", 0 }, { AT_STAT, "@count", 0 }, { AT_STAT, "@hist_linear", 7 },
        { AT_DEFINE, "@define", 0 },
    };
    int n = (int)(sizeof(want) / sizeof(want[0]));
    CHECK(t.count == n + 1);
    for (int i = 0; i < n && i < t.count; i++) {
        CHECK(t.items[i].kind == want[i].kind);
        CHECK_STR(t.items[i].text, want[i].text);
        CHECK(t.items[i].value == want[i].value);
    }
    CHECK(t.items[0].span.token_class == TOKEN_CLASS_IDENTIFIER);
}

static void test_embedded_and_pp(void)
{
    struct token_array t = lex_ok("%{ int x = 5 % 2;\n%} %( %? %: %) %x");
    CHECK(t.count == 8);
    CHECK(t.items[0].kind == EMBEDDED);
    CHECK_STR(t.items[0].text, " int x = 5 % 2;\n");
    CHECK(t.items[0].span.len == 17 && t.items[0].span.token_class == TOKEN_CLASS_EMBEDDED);
    CHECK(t.items[1].kind == PP_IF && t.items[1].span.line == 2 && t.items[1].span.col == 4);
    CHECK(t.items[2].kind == PP_THEN);
    CHECK(t.items[3].kind == PP_ELSE);
    CHECK(t.items[4].kind == PP_END);
    CHECK(t.items[5].kind == '%' && t.items[6].kind == IDENT);
    CHECK(strstr(lex_error("%{ never closed"), "unterminated embedded code") != NULL);
}

static void test_eof_position(void)
{
    struct token_array t = lex_ok("");
    CHECK(t.count == 1 && t.items[0].kind == YYEOF && t.items[0].span.line == 1 && t.items[0].span.col == 1);
    t = lex_ok("ab\n\n");
    CHECK(t.items[1].span.line == 2 && t.items[1].span.col == 1);
    t = lex_ok("ab");
    CHECK(t.items[1].span.line == 1 && t.items[1].span.col == 3);
}

int main(void)
{
    arena_init(&arena);
    test_simple_probe();
    test_keywords();
    test_numbers();
    test_strings();
    test_operators();
    test_comments();
    test_target_and_at();
    test_embedded_and_pp();
    test_eof_position();
    arena_free(&arena);
    return check_summary();
}
