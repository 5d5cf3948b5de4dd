/* The front end's entry point: source text to AST. Lexing, the %( %)
 * preprocessor, @define macros and $1/@1 argument pasting happen on the way. */
#ifndef TAP_PARSER_PARSE_H
#define TAP_PARSER_PARSE_H

#include <stdio.h>

#include "parser/ast.h"

struct arena;
struct diags;

struct parse_options {
    char **args;             /* command-line arguments: $1..$N, @1..@N */
    int arg_count;
    const char *kernel_version;  /* "6.18.44" for kernel_v/kernel_vr; NULL: from uname */
    const char *arch;            /* "x86_64" */
    /* the tapset directories: their NAME.stpm files' @define macros are
     * every file's (the user script's), as SystemTap's tapset/NAME.stpm */
    const char *const *macro_dirs;
    int macro_dir_count;
};

/* Parses one file (user script or tapset). Errors go to `diags`; the result is
 * NULL only when nothing could be parsed at all. */
struct ast *parse_source(struct arena *arena, struct diags *diags,
                         const struct source_file *file, const struct parse_options *options);

/* -p1: prints the tree back as script text that parses to the same tree. */
void ast_print(FILE *out, const struct ast *ast);

#endif
