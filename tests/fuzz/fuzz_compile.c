/* libFuzzer harness: the whole compile pipeline up to the BPF object, as
 * `tap -p4` runs it, without loading anything into the kernel. LLVM takes
 * milliseconds per input, so inputs are capped (run with -max_len too). */
#include <stddef.h>
#include <stdint.h>

#include "base/source.h"
#include "codegen/codegen.h"
#include "fuzz_common.h"
#include "parser/parse.h"
#include "program/program.h"
#include "sema/dwarf.h"
#include "sema/sema.h"

#define FUZZ_COMPILE_MAX_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_COMPILE_MAX_INPUT)
        return -1;   /* not added to the corpus */
    struct arena arena;
    struct diags diags;
    arena_init(&arena);
    struct dwarf_modules modules = {.arena = &arena};
    diags_init(&diags);
    const struct source_file *file = source_from_string(&arena, "fuzz.tp", (const char *)data, size);
    struct parse_options parse_options = {.args = fuzz_args, .arg_count = 2,
                                          .kernel_version = "6.8.0", .arch = "x86_64"};
    struct ast *ast = parse_source(&arena, &diags, file, &parse_options);
    if (ast && !diags.error_count) {
        const char *tapset_dirs[] = {TAP_SOURCE_TAPSETS};
        struct sema_options sema_options = {.tapset_dirs = tapset_dirs, .tapset_dir_count = 1,
                                            .string_size = 512, .modules = &modules};
        struct script *script = sema_analyze(&arena, &diags, ast, &sema_options);
        if (script && !diags.error_count) {
            struct codegen_options codegen_options = {.string_size = 512, .events_size = 8 << 20,
                                                      .max_action = 1 << 20, .max_nesting = 6};
            program_free(codegen_emit(&arena, &diags, script, &codegen_options));
        }
    }
    diags_print(&diags, fuzz_null_output());
    diags_free(&diags);
    dwarf_modules_close(&modules);   /* before the arena the modules live in */
    arena_free(&arena);
    return 0;
}
