#include "parser/parse.h"

#include "base/arena.h"
#include "base/diag.h"
#include "lexer/token.h"
#include "parser/build.h"
#include "parser/preprocess.h"
#include "parser.h"

#define PARSE_MAX_RESTARTS 20

/* After a syntax error, parsing resumes at the next `probe`, `function`,
 * `global` or `private` that starts a line, so one run reports the errors of
 * several declarations without cascades inside the broken one. */
static int parse_resume_point(const struct parser_ctx *ctx, int after)
{
    for (int i = after + 1; i < ctx->count; i++) {
        const struct token *t = &ctx->tokens[i];
        if (t->span.col == 1 && (t->kind == KW_PROBE || t->kind == KW_FUNCTION ||
                                 t->kind == KW_GLOBAL || t->kind == KW_PRIVATE))
            return i;
    }
    return -1;
}

struct ast *parse_source(struct arena *arena, struct diags *diags,
                         const struct source_file *file, const struct parse_options *options)
{
    struct token_array tokens = {0};
    if (lexer_tokenize(arena, diags, file, &tokens))
        return NULL;
    struct token_array cooked = {0};
    if (preprocess(arena, diags, options, &tokens, &cooked))
        return NULL;

    struct ast *ast = ARENA_NEW(arena, struct ast);
    ast->file = file;
    struct parser_ctx ctx = { arena, diags, ast, cooked.items, cooked.count, 0, 0 };
    int start = 0;
    for (int restarts = 0; parser_run(&ctx) != 0 && restarts < PARSE_MAX_RESTARTS; restarts++) {
        /* The token that caused the error was consumed: it may itself start the next decl. */
        int next = parse_resume_point(&ctx, ctx.pos - 2 > start ? ctx.pos - 2 : start);
        if (next < 0)
            break;
        ctx.pos = start = next;
    }
    return ast;
}
