/* Semantic analysis without the kernel: scripts parsed from strings and
 * analysed with the source tree's tapsets; what sema decided is read back
 * as -p2 prints it (sema_print), and its diagnostics as the user sees
 * them. Type inference runs to a fixpoint, so types that only a later use
 * or a caller decides are pinned here, as are the positions of errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "base/strbuf.h"
#include "check.h"
#include "parser/parse.h"
#include "sema/dwarf.h"
#include "sema/sema.h"

struct analysis {
    char *printed;       /* sema_print's text; NULL when sema failed */
    char *messages;      /* every diagnostic, rendered, one after another */
    struct script *script;
};

/* Analyses src with -u when keep_unused; the arena outlives the result. */
static struct analysis analyze(struct arena *arena, const char *src, int keep_unused)
{
    struct analysis out = {0};
    struct diags diags;
    diags_init(&diags);
    const char *tapsets[] = {TAP_SOURCE_TAPSETS};
    struct source_file *file = source_from_string(arena, "t.tp", src, strlen(src));
    struct parse_options parse_options = {.kernel_version = "6.1.0", .arch = "x86_64",
                                          .macro_dirs = tapsets, .macro_dir_count = 1};
    struct ast *ast = parse_source(arena, &diags, file, &parse_options);
    struct dwarf_modules modules = {.arena = arena};
    struct sema_options options = {.tapset_dirs = tapsets, .tapset_dir_count = 1, .keep_unused = keep_unused,
                                   .string_size = 512, .hist_elision = 2, .modules = &modules};
    if (ast && diags.error_count == 0)
        out.script = sema_analyze(arena, &diags, ast, &options);
    if (out.script) {
        size_t size = 0;
        FILE *printed = open_memstream(&out.printed, &size);
        sema_print(printed, out.script);
        fclose(printed);
    }
    struct strbuf messages;
    strbuf_init(&messages);
    for (const struct diag *d = diags.head; d; d = d->next)
        diag_render(d, &messages);
    out.messages = strdup(messages.len ? messages.data : "");
    strbuf_free(&messages);
    diags_free(&diags);
    dwarf_modules_close(&modules);
    return out;
}

static void analysis_free(struct analysis *a)
{
    free(a->printed);
    free(a->messages);
}

/* The first line of a rendered diagnostic (the source excerpt follows it). */
static char *first_line(const char *messages)
{
    size_t n = strcspn(messages, "\n");
    char *line = malloc(n + 1);
    memcpy(line, messages, n);
    line[n] = 0;
    return line;
}

/* Array keys, stats, a function typed only by its callers, foreach variables. */
static void test_inference_reaches_a_fixpoint(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena,
                                "global names, total\n"
                                "function describe(v) { return sprintf(\"<%d>\", v) }\n"
                                "probe begin { names[describe(1), 2] = \"x\"; total <<< 3 }\n"
                                "probe end { foreach ([k, n] in names) printf(\"%s %d\\n\", k, n) }\n",
                                0);
    CHECK_STR(a.printed, "# globals\n"
                         "names:string[string, long]\n"
                         "total:stats\n"
                         "# functions\n"
                         "describe:string (v:long)\n"
                         "# probes\n"
                         "begin /* begin */\n"
                         "end /* end */ locals: k:string, n:long\n");
    CHECK_STR(a.messages, "");
    analysis_free(&a);
    arena_free(&arena);
}

/* A parameter's type comes from a call written after the function; a local's
 * from the function's result. */
static void test_types_flow_backwards_from_callers(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena, "function f(x) { return x }\n"
                                        "probe begin { y = f(\"a\") . \"b\"; println(y) }\n", 0);
    CHECK_STR(a.printed, "# globals\n"
                         "# functions\n"
                         "f:string (x:string)\n"
                         "# probes\n"
                         "begin /* begin */ locals: y:string\n");
    analysis_free(&a);
    arena_free(&arena);
}

/* Locals are per probe: the same name may be a long in one and a string in another. */
static void test_locals_are_per_probe(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena, "probe begin { a = 1; println(a) } probe end { a = \"s\"; println(a) }\n", 0);
    CHECK_STR(a.printed, "# globals\n# functions\n# probes\n"
                         "begin /* begin */ locals: a:long\n"
                         "end /* end */ locals: a:string\n");
    CHECK_STR(a.messages, "");
    analysis_free(&a);
    arena_free(&arena);
}

/* A mismatch names the later use, with its line and column. */
static void test_type_mismatch_has_its_position(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena, "probe begin {\n  x = 1\n  x = \"a\"\n  println(x)\n}\n", 0);
    CHECK(a.script == NULL && a.printed == NULL);
    char *line = first_line(a.messages);
    CHECK_STR(line, "semantic error: type mismatch (long vs string): identifier 'x' at t.tp:3:3");
    free(line);
    analysis_free(&a);
    arena_free(&arena);
}

/* An unknown function is an error at the call, not a silent 0. */
static void test_unresolved_function_has_its_position(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena, "probe begin { x = no_such_function(1) }\n", 0);
    CHECK(a.script == NULL);
    char *line = first_line(a.messages);
    CHECK(strstr(line, "semantic error: unresolved function") == line);
    CHECK(strstr(line, "at t.tp:1:19") != NULL);
    free(line);
    analysis_free(&a);
    arena_free(&arena);
}

/* SystemTap's rule for globals printed at the end: written, never read, the script's own. */
static void test_written_unread_globals_print_at_end(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena, "global hits, seen\n"
                                        "probe begin { hits++; seen = 1 }\n"
                                        "probe end { if (seen) println(1) }\n", 0);
    CHECK(a.script && a.script->global_count == 2);
    for (int i = 0; a.script && i < a.script->global_count; i++) {
        const struct symbol *g = a.script->globals[i];
        CHECK(sema_prints_at_end(g) == (strcmp(g->name, "hits") == 0));
    }
    analysis_free(&a);
    arena_free(&arena);
}

/* Unused functions are dropped with a warning, and kept with -u. */
static void test_unused_functions_are_elided_unless_kept(void)
{
    const char *src = "function unused(x) { return x + 1 } probe begin { }\n";
    struct arena arena;
    arena_init(&arena);
    struct analysis dropped = analyze(&arena, src, 0);
    CHECK_STR(dropped.printed, "# globals\n# functions\n# probes\nbegin /* begin */\n");
    char *line = first_line(dropped.messages);
    CHECK_STR(line, "WARNING: eliding unused function 'unused': identifier 'unused' at t.tp:1:10");
    free(line);
    struct analysis kept = analyze(&arena, src, 1);
    CHECK_STR(kept.printed, "# globals\n# functions\nunused:long (x:long)\n# probes\nbegin /* begin */\n");
    CHECK_STR(kept.messages, "");
    analysis_free(&dropped);
    analysis_free(&kept);
    arena_free(&arena);
}

/* A tapset function the script calls is pulled in with what it calls. */
static void test_tapset_functions_are_pulled_in(void)
{
    struct arena arena;
    arena_init(&arena);
    struct analysis a = analyze(&arena, "probe begin { println(errno_str(2)) }\n", 0);
    CHECK(a.printed && strstr(a.printed, "errno_str:string (") != NULL);
    CHECK_STR(a.messages, "");
    analysis_free(&a);
    arena_free(&arena);
}

/* timer .randomize(M): the handler's interval and randomization in ns, the
 * event ticking every M/8 but no finer than 1 ms (N/4 for a shorter N) nor
 * the kernel's 10 us; without randomize, or randomize(0), one event per N. */
static void test_timer_randomize_ticks_finer(void)
{
    static const struct { const char *point; uint64_t tick, interval, randomize; } cases[] = {
        {"timer.ms(40).randomize(15)", 1875000, 40000000, 15000000},
        {"timer.ms(40).randomize(0)", 40000000, 0, 0},
        {"timer.ms(40)", 40000000, 0, 0},
        {"timer.ms(40).randomize(2)", 1000000, 40000000, 2000000},
        {"timer.ms(2).randomize(1)", 500000, 2000000, 1000000},
        {"timer.s(10).randomize(1)", 125000000, 10000000000, 1000000000},
        {"timer.jiffies(10).randomize(2)", 1000000, 40000000, 8000000},
        {"timer.us(20).randomize(20)", 10000, 20000, 20000},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct arena arena;
        arena_init(&arena);
        char src[128];
        snprintf(src, sizeof(src), "probe %s { exit() }\n", cases[i].point);
        struct analysis a = analyze(&arena, src, 0);
        CHECK(a.script && a.script->probe_count == 1);
        if (a.script && a.script->probe_count == 1) {
            const struct perf_probe *perf = &a.script->probes[0]->perf;
            CHECK(perf->period_ns == cases[i].tick);
            CHECK(perf->interval_ns == cases[i].interval && perf->randomize_ns == cases[i].randomize);
        }
        analysis_free(&a);
        arena_free(&arena);
    }
}

int main(void)
{
    test_inference_reaches_a_fixpoint();
    test_types_flow_backwards_from_callers();
    test_locals_are_per_probe();
    test_type_mismatch_has_its_position();
    test_unresolved_function_has_its_position();
    test_written_unread_globals_print_at_end();
    test_unused_functions_are_elided_unless_kept();
    test_tapset_functions_are_pulled_in();
    test_timer_randomize_ticks_finer();
    return check_summary();
}
