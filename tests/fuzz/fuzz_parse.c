/* libFuzzer harness: the front end (lexer, preprocessor, parser) on arbitrary
 * bytes, then the diagnostics printer. What parses is also put through the
 * -p1 round trip: when the printed tree parses again, it must print the same
 * (parse.h's promise for ast_print). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "fuzz_common.h"
#include "parser/parse.h"

static char *printed(const struct ast *ast, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    ast_print(out, ast);
    fclose(out);
    return text;
}

static void check_round_trip(const struct ast *ast, const struct parse_options *options)
{
    size_t len1, len2;
    char *text1 = printed(ast, &len1);
    struct arena arena;
    struct diags diags;
    arena_init(&arena);
    diags_init(&diags);
    const struct source_file *file = source_from_string(&arena, "printed.tp", text1, len1);
    struct ast *again = parse_source(&arena, &diags, file, options);
    if (!again || diags.error_count) {
        /* Probe-point components are glued from adjacent tokens, so garbage
         * such as `probe$#egin` prints as `probe 2egin`, which no longer lexes
         * as one component: only the trees that do parse again are compared. */
        free(text1);
        diags_free(&diags);
        arena_free(&arena);
        return;
    }
    char *text2 = printed(again, &len2);
    if (len1 != len2 || memcmp(text1, text2, len1) != 0) {
        fprintf(stderr, "-p1 output changes when parsed again:\n%s\n---- then:\n%s\n", text1, text2);
        abort();
    }
    free(text1);
    free(text2);
    diags_free(&diags);
    arena_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct arena arena;
    struct diags diags;
    arena_init(&arena);
    diags_init(&diags);
    const struct source_file *file = source_from_string(&arena, "fuzz.tp", (const char *)data, size);
    struct parse_options options = {.args = fuzz_args, .arg_count = 2,
                                    .kernel_version = "6.8.0", .arch = "x86_64"};
    struct ast *ast = parse_source(&arena, &diags, file, &options);
    if (ast && !diags.error_count)
        check_round_trip(ast, &options);
    diags_print(&diags, fuzz_null_output());
    diags_free(&diags);
    arena_free(&arena);
    return 0;
}
