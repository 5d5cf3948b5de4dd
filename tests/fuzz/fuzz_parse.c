/* libFuzzer harness: the front end (lexer, preprocessor, parser) on arbitrary
 * bytes, then the -p1 printer and the diagnostics printer. */
#include <stddef.h>
#include <stdint.h>

#include "base/source.h"
#include "fuzz_common.h"
#include "parser/parse.h"

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
        ast_print(fuzz_null_output(), ast);
    diags_print(&diags, fuzz_null_output());
    diags_free(&diags);
    arena_free(&arena);
    return 0;
}
