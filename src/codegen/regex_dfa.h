/* Regular expressions for =~ and !~: a literal POSIX extended regex compiled
 * to a DFA over bytes (Thompson NFA, then subset construction). Pure C:
 * codegen puts the table in .rodata and runs it in BPF (regex.c), the unit
 * test runs it here. Supported: literals, `.`, bracket expressions with
 * ranges, negation and [:classes:], escapes (\d \w \s and quoted
 * characters), groups, `|`, `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`, `^` at the
 * start and `$` at the end. A match may start anywhere unless `^`. */
#ifndef TAP_CODEGEN_REGEX_DFA_H
#define TAP_CODEGEN_REGEX_DFA_H

#include <stdint.h>

#define REGEX_DEAD 255               /* no match can follow */

struct regex_dfa {
    uint8_t *table;                  /* count * 256: the next state per byte; state 0 starts */
    uint8_t *accept;                 /* count + 1 (the last is 0): a match once the string ends here */
    int count;
};

/* Returns NULL, or a message saying what is not supported or wrong. */
const char *regex_compile(const char *pattern, struct regex_dfa *out);
/* The DFA run over s, as BPF runs it: 1 when s matches. */
int regex_dfa_match(const struct regex_dfa *dfa, const char *s);
void regex_dfa_free(struct regex_dfa *dfa);

#endif
