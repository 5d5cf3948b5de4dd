/* The =~ regex compiler (codegen/regex_dfa.c): the DFA run in C as BPF runs
 * it, against what POSIX regexec (REG_EXTENDED | REG_NOSUB) says. */
#include <regex.h>
#include <stdlib.h>

#include "check.h"
#include "codegen/regex_dfa.h"

static int posix_match(const char *pattern, const char *s)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return -1;
    int matched = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return matched;
}

static void agrees(const char *pattern, const char *const *subjects)
{
    struct regex_dfa dfa;
    const char *error = regex_compile(pattern, &dfa);
    CHECK(error == NULL);
    if (error) {
        fprintf(stderr, "  pattern \"%s\": %s\n", pattern, error);
        return;
    }
    for (const char *const *s = subjects; *s; s++) {
        int ours = regex_dfa_match(&dfa, *s), posix = posix_match(pattern, *s);
        CHECK(ours == posix);
        if (ours != posix)
            fprintf(stderr, "  \"%s\" =~ \"%s\": tap %d, regexec %d\n", *s, pattern, ours, posix);
    }
    regex_dfa_free(&dfa);
}

static void test_against_posix(void)
{
    static const char *const subjects[] = {
        "", "a", "b", "ab", "ba", "abc", "aaa", "aab", "hello", "hello world", "foo.bar", "foobar",
        "x1", "1x", "123", "abc123", "A1_", "tap-data", "Tap", "  lead", "trail  ", "a|b", "(a)", "a+b",
        "aaaa", "abab", "xyz", "a-z", "]", "^", "$", NULL,
    };
    static const char *const patterns[] = {
        "a", "^a", "a$", "^a$", "ab", "a|b", "^(a|b)$", "a*", "^a*$", "a+", "^a+b$", "a?b", "^a?b+$",
        "(ab)+", "^(ab)+$", ".", "^.$", "^...$", "[abc]", "^[a-c]+$", "[^a]", "^[^a-z]+$", "[0-9]+",
        "^[[:alpha:]]+[[:digit:]]+$", "[[:space:]]", "^[[:upper:]][[:digit:]]_$", "o\\.b", "a\\|b",
        "\\(a\\)", "a\\+b", "^a{3}$", "^a{2,}$", "^a{1,2}$", "^(a|ab)(c|bcd)?$", "l+o", "^h.*d$",
        "^[a-z]+-(data|uprobe)$", "[]]", "x|y|z", "^$", "(a|)b", NULL,
    };
    for (const char *const *p = patterns; *p; p++)
        agrees(*p, subjects);
}

static void test_errors(void)
{
    struct regex_dfa dfa;
    CHECK(regex_compile("(ab", &dfa) != NULL);
    CHECK(regex_compile("ab)", &dfa) != NULL);
    CHECK(regex_compile("*a", &dfa) != NULL);
    CHECK(regex_compile("a**", &dfa) != NULL);
    CHECK(regex_compile("a^b", &dfa) != NULL);
    CHECK(regex_compile("[ab", &dfa) != NULL);
    CHECK(regex_compile("a{2,1}", &dfa) != NULL);
}

int main(void)
{
    test_against_posix();
    test_errors();
    return check_summary();
}
