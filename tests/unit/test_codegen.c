/* Code generation without the kernel: scripts parsed and analysed from
 * strings, compiled to a BPF object, and the object and its metadata (struct
 * program, the contract with the runtime) checked as the runtime reads them.
 * libbpf opens the object (ELF, BTF, maps, programs) but loads nothing, so
 * this runs as any user. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "check.h"
#include "codegen/codegen.h"
#include "kinds/probe_kind.h"
#include "parser/parse.h"
#include "program/program.h"
#include "sema/dwarf.h"
#include "sema/sema.h"

/* The program of src (NULL after printing the diagnostics), at BPF ISA isa. */
static struct program *compile(const char *src, int isa, int64_t max_map_entries)
{
    struct arena arena;
    arena_init(&arena);
    struct diags diags;
    diags_init(&diags);
    const char *tapsets[] = {TAP_SOURCE_TAPSETS};
    struct source_file *file = source_from_string(&arena, "t.tp", src, strlen(src));
    struct parse_options parse_options = {.kernel_version = "6.1.0", .arch = "x86_64",
                                          .macro_dirs = tapsets, .macro_dir_count = 1};
    struct ast *ast = parse_source(&arena, &diags, file, &parse_options);
    struct dwarf_modules modules = {.arena = &arena};
    struct sema_options sema_options = {.tapset_dirs = tapsets, .tapset_dir_count = 1, .string_size = 512,
                                        .hist_elision = 2, .max_map_entries = max_map_entries,
                                        .modules = &modules};
    struct script *script = ast && !diags.error_count ? sema_analyze(&arena, &diags, ast, &sema_options) : NULL;
    struct codegen_options options = {.string_size = 512, .events_size = 1 << 20, .max_action = 1 << 20,
                                      .max_nesting = 6, .max_map_entries = max_map_entries,
                                      .hist_elision = 2, .bpf_isa = isa};
    struct program *program = script ? codegen_emit(&arena, &diags, script, &options) : NULL;
    diags_print(&diags, stderr);
    diags_free(&diags);
    dwarf_modules_close(&modules);
    arena_free(&arena);
    return program;
}

static struct bpf_object *open_object(const struct program *program)
{
    LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "t");
    struct bpf_object *object = bpf_object__open_mem(program->object, program->object_size, &opts);
    return libbpf_get_error(object) ? NULL : object;
}

static const struct program_map *map_named(const struct program *program, const char *name)
{
    for (int i = 0; i < program->map_count; i++)
        if (strcmp(program->maps[i].name, name) == 0)
            return &program->maps[i];
    return NULL;
}

/* Each probe is a program of its kind's BPF type; printf's format is in the
 * metadata with its argument's place; the object opens as the runtime opens it. */
static void test_probes_formats_and_object(void)
{
    struct program *p = compile("probe begin { printf(\"%d %s\\n\", 7, \"x\") }\n"
                                "probe timer.ms(100) { exit() }\n", 4, 0);
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK(p->probe_count == 2);
    CHECK(p->probes[0].kind == PROBE_BEGIN && p->probes[1].kind == PROBE_TIMER);
    CHECK(p->format_count == 1);
    if (p->format_count == 1) {
        CHECK_STR(p->formats[0].format, "%d %s\n");
        CHECK(p->formats[0].arg_count == 2);
        CHECK(p->formats[0].args[0].kind == FORMAT_ARG_LONG && p->formats[0].args[1].kind == FORMAT_ARG_STRING);
    }
    CHECK(p->bpf_isa == 4 && p->string_size == 512);
    struct bpf_object *object = open_object(p);
    CHECK(object != NULL);
    for (int i = 0; object && i < p->probe_count; i++) {
        struct bpf_program *prog = bpf_object__find_program_by_name(object, p->probes[i].prog_name);
        CHECK(prog != NULL);
        if (prog)
            CHECK(bpf_program__type(prog) ==
                  (p->probes[i].kind == PROBE_TIMER ? BPF_PROG_TYPE_PERF_EVENT : BPF_PROG_TYPE_RAW_TRACEPOINT));
    }
    bpf_object__close(object);
    program_free(p);
}

/* Arrays and statistics become maps of the declared size (else MAXMAPENTRIES),
 * with the key layout the runtime reads. */
static void test_global_maps(void)
{
    struct program *p = compile("global sized[100], names, s\n"
                                "probe begin { sized[1] = 2; names[\"a\", 3] = \"b\"; s <<< 4; exit() }\n", 4, 300);
    CHECK(p != NULL);
    if (!p)
        return;
    const struct program_map *sized = map_named(p, "sized"), *names = map_named(p, "names"), *s = map_named(p, "s");
    CHECK(sized && sized->kind == PROGRAM_MAP_LONG && sized->key_count == 1);
    CHECK(names && names->kind == PROGRAM_MAP_STRING && names->key_count == 2);
    if (names && names->key_count == 2)
        CHECK(names->key_kinds[0] == FORMAT_ARG_STRING && names->key_kinds[1] == FORMAT_ARG_LONG);
    CHECK(s && s->kind == PROGRAM_MAP_STATS && s->is_scalar);
    struct bpf_object *object = open_object(p);
    CHECK(object != NULL);
    struct bpf_map *sized_map = object && sized ? bpf_object__find_map_by_name(object, sized->map_name) : NULL;
    struct bpf_map *names_map = object && names ? bpf_object__find_map_by_name(object, names->map_name) : NULL;
    CHECK(sized_map && bpf_map__max_entries(sized_map) == 100);
    CHECK(names_map && bpf_map__max_entries(names_map) == 300);
    CHECK(names_map && names && bpf_map__key_size(names_map) == names->key_size);
    bpf_object__close(object);
    program_free(p);
}

/* A timer with randomize(M > 0) keeps its deadline in tap_deadlines, one
 * u64 per probe; without, or with randomize(0), there is no such map (and
 * no guard reading it). */
static void test_timer_randomize_deadlines(void)
{
    struct program *with = compile("probe timer.ms(40).randomize(15) { exit() }\n", 4, 0);
    struct program *without = compile("probe timer.ms(40).randomize(0), timer.ms(40) { exit() }\n", 4, 0);
    CHECK(with && without);
    struct bpf_object *a = with ? open_object(with) : NULL, *b = without ? open_object(without) : NULL;
    CHECK(a && b);
    struct bpf_map *deadlines = a ? bpf_object__find_map_by_name(a, "tap_deadlines") : NULL;
    CHECK(deadlines && bpf_map__type(deadlines) == BPF_MAP_TYPE_ARRAY && bpf_map__value_size(deadlines) == 8);
    CHECK(b && bpf_object__find_map_by_name(b, "tap_deadlines") == NULL);
    bpf_object__close(a);
    bpf_object__close(b);
    program_free(with);
    program_free(without);
}

/* The same script compiles to the same bytes: -p4 objects and the compile
 * cache depend on it. The ISA is the one asked for. */
static void test_objects_are_reproducible(void)
{
    const char *src = "global n probe timer.profile { n++ } probe end { printf(\"%d\\n\", n > 0) }\n";
    struct program *a = compile(src, 4, 0), *b = compile(src, 4, 0), *v3 = compile(src, 3, 0);
    CHECK(a && b && v3);
    if (a && b && v3) {
        CHECK(a->object_size == b->object_size && memcmp(a->object, b->object, a->object_size) == 0);
        CHECK(v3->bpf_isa == 3);
        CHECK(v3->object_size != a->object_size || memcmp(v3->object, a->object, a->object_size) != 0);
    }
    program_free(a);
    program_free(b);
    program_free(v3);
}

int main(void)
{
    libbpf_set_print(NULL);
    test_probes_formats_and_object();
    test_global_maps();
    test_timer_randomize_deadlines();
    test_objects_are_reproducible();
    return check_summary();
}
