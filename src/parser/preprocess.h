/* The preprocessor: a pass over the token array between the lexer and the
 * parser. It evaluates %( COND %? A %: B %), defines and expands @define
 * macros, pastes command-line arguments ($1, @1, $#, @#), joins adjacent
 * string literals, and cooks probe point headers (see preprocess.c). */
#ifndef TAP_PARSER_PREPROCESS_H
#define TAP_PARSER_PREPROCESS_H

#include "lexer/token.h"

struct arena;
struct diags;
struct parse_options;

/* Returns the number of errors reported; `out` always ends with EOF. */
int preprocess(struct arena *arena, struct diags *diags, const struct parse_options *options,
               const struct token_array *in, struct token_array *out);

/* Version-aware comparison used by %( kernel_v >= "5.10" %? ... %). */
int pp_version_compare(const char *a, const char *b);

#endif
