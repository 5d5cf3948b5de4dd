/* Tokens: the lexer turns a whole source file into an array of these before
 * anything else runs; the preprocessor rewrites the array and the parser
 * pulls from it. Kinds are the parser's token numbers (gen/parser.h). */
#ifndef TAP_LEXER_TOKEN_H
#define TAP_LEXER_TOKEN_H

#include <stdint.h>

#include "base/source.h"

struct arena;
struct diags;

struct token {
    int kind;                /* bison token kind; 0 (YYEOF) ends the array */
    struct span span;
    const char *text;        /* identifier/keyword/operator text; decoded string value;
                                embedded code between %{ and %}; target name with its '$'s */
    int len;                 /* bytes of `text` (strings may hold NULs) */
    int64_t value;           /* NUMBER; $N/@N index; PRETTY 1 or 2; AT_STAT enum stat_op */
};

struct token_array {
    struct token *items;
    int count, cap;
};

void token_array_push(struct arena *arena, struct token_array *array, const struct token *token);

/* Tokenizes all of `file`; the array always ends with an EOF token. Lexical
 * errors go to `diags` (returns the number reported). */
int lexer_tokenize(struct arena *arena, struct diags *diags, const struct source_file *file,
                   struct token_array *out);

/* The same for a string pasted from the command line ($1): every token gets
 * the span `site`. */
int lexer_tokenize_text(struct arena *arena, struct diags *diags, const char *text,
                        struct span site, struct token_array *out);

/* "identifier", "'<<<'", "'probe'": how messages name a token kind. */
const char *token_kind_name(int kind);

#endif
