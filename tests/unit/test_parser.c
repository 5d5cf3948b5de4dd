/* The parser, preprocessor and -p1 printer: every construct of
 * spec/language.md, precedence, spans, round trips and exact messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "base/strbuf.h"
#include "check.h"
#include "parser/parse.h"

static struct arena arena;

struct parsed {
    struct ast *ast;
    const char *text;        /* ast_print output */
    const char *errors;      /* rendered diagnostics */
    int error_count;
};

static struct parsed parse_named(const char *name, const char *src, char **args, int arg_count)
{
    struct parsed r = {0};
    struct diags diags;
    diags_init(&diags);
    struct source_file *file = source_from_string(&arena, name, src, strlen(src));
    struct parse_options options = { args, arg_count, "5.10.0-19-amd64", "x86_64", NULL, 0 };
    r.ast = parse_source(&arena, &diags, file, &options);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (r.ast)
        ast_print(out, r.ast);
    fclose(out);
    r.text = arena_strdup(&arena, buf);
    free(buf);
    struct strbuf sb;
    strbuf_init(&sb);
    for (const struct diag *d = diags.head; d; d = d->next)
        diag_render(d, &sb);
    r.errors = arena_strdup(&arena, sb.data ? sb.data : "");
    r.error_count = diags.error_count;
    strbuf_free(&sb);
    diags_free(&diags);
    return r;
}

static struct parsed parse_args(const char *src, char **args, int arg_count)
{
    return parse_named("t.tp", src, args, arg_count);
}

static struct parsed parse(const char *src)
{
    return parse_args(src, NULL, 0);
}

/* Printed text of a script that must parse cleanly. */
static const char *print_ok(const char *src)
{
    struct parsed r = parse(src);
    if (r.error_count)
        fprintf(stderr, "unexpected errors for %s:\n%s", src, r.errors);
    CHECK(r.error_count == 0);
    return r.text;
}

/* The body of `probe begin { SRC }` as printed, without the probe lines and
 * the indentation of the first level. */
static const char *body_args(const char *src, char **args, int arg_count)
{
    char *script = arena_printf(&arena, "probe begin {\n%s\n}\n", src);
    struct parsed r = parse_args(script, args, arg_count);
    if (r.error_count)
        fprintf(stderr, "unexpected errors for %s:\n%s", src, r.errors);
    CHECK(r.error_count == 0);
    const char *start = strstr(r.text, "{\n");
    if (!start)
        return "";
    start += 2;
    struct strbuf sb;
    strbuf_init(&sb);
    for (const char *line = start; *line && strncmp(line, "}\n", 2) != 0;) {
        const char *end = strchr(line, '\n');
        if (!end)
            break;
        const char *text = strncmp(line, "  ", 2) == 0 ? line + 2 : line;
        strbuf_append(&sb, text, (size_t)(end - text + 1));
        line = end + 1;
    }
    const char *s = arena_strdup(&arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return s;
}

static const char *body(const char *src)
{
    return body_args(src, NULL, 0);
}

/* The errors of a script that must fail. */
static const char *errors_of(const char *src)
{
    struct parsed r = parse(src);
    CHECK(r.error_count > 0);
    return r.errors;
}

static void check_round_trip(const char *src)
{
    const char *once = print_ok(src);
    const char *twice = print_ok(once);
    CHECK_STR(twice, once);
}

static void test_globals(void)
{
    CHECK_STR(print_ok("global x\nglobal x2 = 5, s = \"a\", neg = -3\nglobal a[1000], w%[100], ww%;\n"
                       "private global p, q[10]\n"),
              "global x\nglobal x2 = 5\nglobal s = \"a\"\nglobal neg = -3\nglobal a[1000]\n"
              "global w%[100]\nglobal ww%\nprivate global p\nprivate global q[10]\n");
    struct parsed r = parse("global a%[100], b = \"s\"");
    const struct decl *d = r.ast->decls;
    CHECK(d->kind == DECL_GLOBAL && d->global.is_array && d->global.wrap && d->global.max_entries == 100);
    CHECK(d->span.col == 8 && d->span.len == 1);
    d = d->next;
    CHECK(!d->global.is_array && d->global.init->kind == EXPR_STRING);
    CHECK_STR(d->global.init->string.value, "s");
    r = parse("global m = -9223372036854775808");
    CHECK(r.ast->decls->global.init->int_value == INT64_MIN);
    CHECK_STR(r.text, "global m = -9223372036854775808\n");
}

static void test_functions(void)
{
    CHECK_STR(print_ok("function f(a, b) { return a + b }\n"
                       "function g:string (a:long, b:string) { return b }\n"
                       "private function h:long() { return }\n"
                       "function e() %{ /* pure */ STAP_RETURN(1); %}\n"
                       "%{ #include <x.h> %}\n"),
              "function f(a, b) {\n  return a + b;\n}\n"
              "function g:string(a:long, b:string) {\n  return b;\n}\n"
              "private function h:long() {\n  return;\n}\n"
              "function e() %{ /* pure */ STAP_RETURN(1); %}\n"
              "%{ #include <x.h> %}\n");
    struct parsed r = parse("function g:string (a:long, b:string, c) { }");
    const struct decl *d = r.ast->decls;
    CHECK(d->kind == DECL_FUNCTION && d->function.declared_return == PARAM_TYPE_STRING);
    CHECK(d->function.param_count == 3);
    CHECK(d->function.params->declared == PARAM_TYPE_LONG);
    CHECK(d->function.params->next->declared == PARAM_TYPE_STRING);
    CHECK(d->function.params->next->next->declared == PARAM_TYPE_NONE);
    CHECK(d->span.col == 10);
    r = parse("function e() %{ x %}");
    CHECK(r.ast->decls->function.body->kind == STMT_EMBEDDED);
    r = parse("%{ x %}");
    CHECK(r.ast->decls->kind == DECL_EMBEDDED);
}

static void test_probe_points(void)
{
    CHECK_STR(print_ok("probe begin, end, error, begin(-1), end(10) {}"),
              "probe begin, end, error, begin(-1), end(10) {\n}\n");
    CHECK_STR(print_ok("probe timer.ms(100), timer.profile, perf.type(1).config(2).sample(3) {}"),
              "probe timer.ms(100), timer.profile, perf.type(1).config(2).sample(3) {\n}\n");
    CHECK_STR(print_ok("probe process(\"/bin/ls\").function(\"main@ls.c:10\").return,"
                       " process(123).statement(\"*@x.c:5\"), kernel.function(\"sys_*\").call {}"),
              "probe process(\"/bin/ls\").function(\"main@ls.c:10\").return, "
              "process(123).statement(\"*@x.c:5\"), kernel.function(\"sys_*\").call {\n}\n");
    /* Wildcards, `**`, brace groups (expanded, as SystemTap's parser does), keywords as
     * components, optional and conditional points. */
    CHECK_STR(print_ok("probe syscall.*, sys_*.x, a.**.b, syscall.{open,close}.return, p.*_foo? {}"),
              "probe syscall.*, sys_*.x, a.**.b, syscall.open.return, syscall.close.return, p.*_foo ? {\n}\n");
    CHECK_STR(print_ok("probe kernel.trace(\"sched:*\") !, syscall.read ?, timer.s(1) if (x > 1) {}"),
              "probe kernel.trace(\"sched:*\") !, syscall.read ?, timer.s(1) if (x > 1) {\n}\n");
    CHECK_STR(print_ok("probe begin{exit()}"), "probe begin {\n  exit();\n}\n");
    CHECK_STR(print_ok("probe a.b ?{x}\nprobe {a,b}.c, x.{d,e} {}"),
              "probe a.b ? {\n  x;\n}\nprobe a.c, b.c, x.d, x.e {\n}\n");
    char *args[] = { "syscall.sys_*.return" };
    CHECK_STR(parse_args("probe $1 {}", args, 1).text, "probe syscall.sys_*.return {\n}\n");
    CHECK_STR(print_ok("probe process.function(\"f\").return{}"),
              "probe process.function(\"f\").return {\n}\n");

    struct parsed r = parse("probe process(\"x\").function(\"f\").return ?, begin(-2) if (a) { }");
    const struct decl *d = r.ast->decls;
    CHECK(d->kind == DECL_PROBE && d->span.col == 1 && d->span.token_class == TOKEN_CLASS_KEYWORD);
    const struct probe_point *p = d->probe.points;
    const struct probe_component *c = p->components;
    CHECK_STR(c->name, "process");
    CHECK(c->arg_kind == PROBE_ARG_STRING);
    CHECK_STR(c->arg_string, "x");
    CHECK_STR(c->next->name, "function");
    CHECK_STR(c->next->next->name, "return");
    CHECK(c->next->next->arg_kind == PROBE_ARG_NONE);
    CHECK(p->optional && !p->sufficient && !p->condition);
    CHECK(p->span.col == 7);
    p = p->next;
    CHECK(p->components->arg_kind == PROBE_ARG_INT && p->components->arg_int == -2);
    CHECK(p->condition && p->condition->kind == EXPR_IDENT);

    r = parse("probe sys_*.x {}");
    c = r.ast->decls->probe.points->components;
    CHECK_STR(c->name, "sys_*");
    CHECK(c->span.col == 7 && c->span.len == 5);
}

static void test_aliases(void)
{
    CHECK_STR(print_ok("probe myprobe.a, other = syscall.read, syscall.write ? { name = \"x\" }\n"
                       "probe myprobe.a += timer.s(1) { }"),
              "probe myprobe.a, other = syscall.read, syscall.write ? {\n  name = \"x\";\n}\n"
              "probe myprobe.a += timer.s(1) {\n}\n");
    struct parsed r = parse("probe a.b = c {}\nprobe a.b += d {}");
    const struct decl *d = r.ast->decls;
    CHECK(d->kind == DECL_ALIAS && !d->alias.is_epilogue);
    CHECK_STR(d->alias.names->components->next->name, "b");
    CHECK_STR(d->alias.points->components->name, "c");
    CHECK(d->next->kind == DECL_ALIAS && d->next->alias.is_epilogue);
}

static void test_statements(void)
{
    CHECK_STR(body("{} ; x = 1; y = 2 z = 3\nif (x) y else z\nwhile (x) { x-- }\n"
                   "for (;;) break\nfor (i = 0; i < 3; i++) continue\nnext\nreturn\n"
                   "delete a[1, \"x\"]\ndelete a\ndelete s\n"),
              "{\n}\n;\nx = 1;\ny = 2;\nz = 3;\nif (x)\n  y;\nelse\n  z;\n"
              "while (x) {\n  x--;\n}\nfor (;;)\n  break;\nfor (i = 0; i < 3; i++)\n  continue;\n"
              "next;\nreturn;\ndelete a[1, \"x\"];\ndelete a;\ndelete s;\n");
    CHECK_STR(body("for (; i < 3;) x"), "for (; i < 3;)\n  x;\n");
    CHECK_STR(body("try { error(\"x\") } catch (msg) { println(msg) }\ntry { } catch { }"),
              "try {\n  error(\"x\");\n} catch (msg) {\n  println(msg);\n}\ntry {\n} catch {\n}\n");
    /* else binds to the nearest if; `return x` takes the expression. */
    CHECK_STR(body("if (a) if (b) c else d"), "if (a)\n  if (b)\n    c;\n  else\n    d;\n");
    CHECK_STR(body("if (a) { if (b) c } else d"), "if (a) {\n  if (b)\n    c;\n}\nelse\n  d;\n");
    CHECK_STR(body("return x + 1"), "return x + 1;\n");
    /* No separator needed; stap's greedy rule applies to operators. */
    CHECK_STR(body("a = 1 b = 2 c++ d--"), "a = 1;\nb = 2;\nc++;\nd--;\n");
    CHECK_STR(body("a = b\n-c"), "a = (b - c);\n");
    CHECK_STR(body("%{ embedded %}"), "%{ embedded %}\n");

    struct parsed r = parse("probe begin {\n  x = 1 + 2\n  if (x) y\n}");
    const struct stmt *s = r.ast->decls->probe.body;
    CHECK(s->kind == STMT_BLOCK && s->span.line == 1 && s->span.col == 13);
    s = s->block.body;
    CHECK(s->kind == STMT_EXPR && s->span.line == 2 && s->span.col == 3);
    CHECK(s->expr->kind == EXPR_ASSIGN && s->expr->span.col == 5);
    CHECK(s->expr->assign.rhs->span.col == 9);
    CHECK(s->next->kind == STMT_IF && s->next->span.line == 3 && s->next->span.col == 3);
}

static void test_foreach(void)
{
    CHECK_STR(body("foreach (k in a) x\nforeach ([k1, k2] in a) x\nforeach (v = [k1, k2] in a) x\n"
                   "foreach (v = k in a) x\nforeach (k+ in a) x\nforeach (k in a-) x\n"
                   "foreach ([x, y-] in a) x\nforeach (k in a- limit 10) x\n"
                   "foreach (k in stats @sum -) x\nforeach (k in a[*, \"x\"]) x\n"
                   "foreach ([k] in s @max+ limit n * 2) x\nforeach (v- = [k] in a) x\n"),
              "foreach (k in a)\n  x;\nforeach ([k1, k2] in a)\n  x;\nforeach (v = [k1, k2] in a)\n  x;\n"
              "foreach (v = k in a)\n  x;\nforeach (k+ in a)\n  x;\nforeach (k in a-)\n  x;\n"
              "foreach ([x, y-] in a)\n  x;\nforeach (k in a- limit 10)\n  x;\n"
              "foreach (k in stats @sum-)\n  x;\nforeach (k in a[*, \"x\"])\n  x;\n"
              "foreach ([k] in s @max+ limit n * 2)\n  x;\nforeach (v = [k] in a-)\n  x;\n");
    struct parsed r = parse("probe begin { foreach (v = [a, b-] in arr[*, 1] limit 5) {} }");
    const struct stmt *s = r.ast->decls->probe.body->block.body;
    CHECK(s->kind == STMT_FOREACH && s->span.col == 15);
    CHECK_STR(s->foreach.value_name, "v");
    CHECK(s->foreach.key_count == 2 && s->foreach.keys_bracketed);
    CHECK(s->foreach.keys->sort == 0 && s->foreach.keys->next->sort == -1);
    CHECK_STR(s->foreach.array->ident.name, "arr");
    CHECK(s->foreach.slice_count == 2);
    CHECK_STR(s->foreach.slice->ident.name, "*");
    CHECK(s->foreach.limit->int_value == 5);
    CHECK(!s->foreach.has_sort_stat && s->foreach.sort_stat == STAT_COUNT);
    r = parse("probe begin { foreach (k in s @avg+) {} }");
    s = r.ast->decls->probe.body->block.body;
    CHECK(s->foreach.has_sort_stat && s->foreach.sort_stat == STAT_AVG && s->foreach.value_sort == 1);
}

static void test_expressions(void)
{
    CHECK_STR(body("x = 1 + 2 * 3 - 4 / 5 % 6"), "x = ((1 + (2 * 3)) - ((4 / 5) % 6));\n");
    CHECK_STR(body("x = a . b + c . d"), "x = ((a . (b + c)) . d);\n");
    CHECK_STR(body("x = a << 1 . b"), "x = (a << (1 . b));\n");
    CHECK_STR(body("x = a < b << 2 == c"), "x = ((a < (b << 2)) == c);\n");
    CHECK_STR(body("x = a | b ^ c & d"), "x = (a | (b ^ (c & d)));\n");
    CHECK_STR(body("x = a || b && c | d"), "x = (a || (b && (c | d)));\n");
    CHECK_STR(body("x = a & k in arr"), "x = (a & (k in arr));\n");
    CHECK_STR(body("x = a + 1 in arr"), "x = ((a + 1) in arr);\n");
    CHECK_STR(body("x = a == 1 in arr"), "x = ((a == 1) in arr);\n");
    CHECK_STR(body("x = [a, b + 1] in arr && !(k in arr)"), "x = (([a, b + 1] in arr) && !(k in arr));\n");
    CHECK_STR(body("x = c ? a : b ? d : e"), "x = (c ? a : (b ? d : e));\n");
    CHECK_STR(body("x = c || d ? a = 1 : b"), "x = ((c || d) ? (a = 1) : b);\n");
    CHECK_STR(body("x = y += z <<< 3"), "x = (y += (z <<< 3));\n");
    CHECK_STR(body("a = b = c"), "a = (b = c);\n");
    CHECK_STR(body("s <<< 1 + 2"), "s <<< (1 + 2);\n");
    CHECK_STR(body("x -= 1 x *= 2 x /= 3 x %= 4 x <<= 5 x >>= 6 x &= 7 x ^= 8 x |= 9 x .= \"s\""),
              "x -= 1;\nx *= 2;\nx /= 3;\nx %= 4;\nx <<= 5;\nx >>= 6;\nx &= 7;\nx ^= 8;\nx |= 9;\nx .= \"s\";\n");
    CHECK_STR(body("x = -a + !b - ~c * +d"), "x = ((-a + !b) - (~c * +d));\n");
    CHECK_STR(body("x = - -a + -(-b)"), "x = (-(-a) + -(-b));\n");
    CHECK_STR(body("x = -a++ + ++b + c--"), "x = ((-(a++) + ++b) + c--);\n");
    CHECK_STR(body("x = s =~ \"a+\" && t !~ \"b\""), "x = ((s =~ \"a+\") && (t !~ \"b\"));\n");
    CHECK_STR(body("x = a < b && c > d || e <= f && g >= h && i != j"),
              "x = (((a < b) && (c > d)) || (((e <= f) && (g >= h)) && (i != j)));\n");
    CHECK_STR(body("x = -9223372036854775808 + 0x10 + 010 + 18446744073709551615"),
              "x = (((-9223372036854775808 + 16) + 8) + 18446744073709551615);\n");
    CHECK_STR(body("x = \"a\" \"b\"\n\"c\""), "x = \"abc\";\n");
    CHECK_STR(body("x = \"t\\t\\n\\\"q\\\\\\001\\x7f\""), "x = \"t\\t\\n\\\"q\\\\\\001\\177\";\n");
    CHECK_STR(body("f() g(1) h(1, \"a\", x + 1) a[1] b[1, \"x\", y]"),
              "f();\ng(1);\nh(1, \"a\", x + 1);\na[1];\nb[1, \"x\", y];\n");
    CHECK_STR(body("x = a[*, 1] x = [*, 2] in a"), "x = a[*, 1];\nx = ([*, 2] in a);\n");

    struct parsed r = parse("probe begin { x = a + b * c }");
    const struct expr *e = r.ast->decls->probe.body->block.body->expr->assign.rhs;
    CHECK(e->kind == EXPR_BINARY && e->binary.op == BINARY_ADD && e->span.col == 21);
    CHECK(e->span.token_class == TOKEN_CLASS_OPERATOR);
    CHECK(e->binary.rhs->binary.op == BINARY_MUL && e->binary.rhs->span.col == 25);
    CHECK(e->binary.lhs->kind == EXPR_IDENT && e->binary.lhs->span.col == 19);
    r = parse("probe begin { printf(\"%d\", [1, 2] in a) }");
    e = r.ast->decls->probe.body->block.body->expr;
    CHECK(e->kind == EXPR_CALL && e->call.arg_count == 2 && e->span.col == 15);
    CHECK(e->call.args->next->kind == EXPR_IN && e->call.args->next->in.key_count == 2);
    CHECK(e->call.args->next->span.col == 35);
    r = parse("probe begin { x = -a ++b }");
    e = r.ast->decls->probe.body->block.body->expr->assign.rhs;
    CHECK(e->kind == EXPR_UNARY && e->unary.op == UNARY_NEG);
}

static void test_targets_and_at_operators(void)
{
    CHECK_STR(body("x = $p->next->val[3] + &$q->x + $v$ . $v$$ . $$vars . $$parms$ . $$locals . $$return"),
              "x = ((((((($p->next->val[3] + &$q->x) + $v$) . $v$$) . $$vars) . $$parms$) . $$locals) . $$return);\n");
    CHECK_STR(body("x = @cast(p, \"struct foo\")->bar + @cast(p, \"struct foo\", \"/bin/x\")->a[1]->b$"),
              "x = (@cast(p, \"struct foo\")->bar + @cast(p, \"struct foo\", \"/bin/x\")->a[1]->b$);\n");
    CHECK_STR(body("x = @var(\"g@x.c\")->f + @var(\"g\", \"/bin/x\") + &@var(\"h\")"),
              "x = ((@var(\"g@x.c\")->f + @var(\"g\", \"/bin/x\")) + &@var(\"h\"));\n");
    CHECK_STR(body("x = @entry($a) + @defined($b->c) + @entry(@cast(p, \"t\")->x)"),
              "x = ((@entry($a) + @defined($b->c)) + @entry(@cast(p, \"t\")->x));\n");
    CHECK_STR(body("x = @count(s) + @sum(s) + @min(s) + @max(s[1]) + @avg(s) + @variance(s) + @variance(s, 2)"),
              "x = ((((((@count(s) + @sum(s)) + @min(s)) + @max(s[1])) + @avg(s)) + @variance(s)) + @variance(s, 2));\n");
    CHECK_STR(body("print(@hist_log(s)) print(@hist_linear(s, 0, 100, 10)) x = @hist_log(s)[3] + @hist_linear(t[1], 0, 10, 1)[0]"),
              "print(@hist_log(s));\nprint(@hist_linear(s, 0, 100, 10));\n"
              "x = (@hist_log(s)[3] + @hist_linear(t[1], 0, 10, 1)[0]);\n");

    struct parsed r = parse("probe begin { x = &$p->a[2]->b$$ }");
    const struct expr *e = r.ast->decls->probe.body->block.body->expr->assign.rhs;
    CHECK(e->kind == EXPR_TARGET && e->span.col == 20 && e->span.token_class == TOKEN_CLASS_IDENTIFIER);
    CHECK_STR(e->target.name, "p");
    CHECK(e->target.address_of && e->target.pretty == 2);
    const struct component *c = e->target.components;
    CHECK(c->kind == COMPONENT_MEMBER && c->span.col == 24);
    CHECK_STR(c->member, "a");
    CHECK(c->next->kind == COMPONENT_INDEX && c->next->index->int_value == 2);
    CHECK_STR(c->next->next->member, "b");
    r = parse("probe begin { x = $$vars }");
    e = r.ast->decls->probe.body->block.body->expr->assign.rhs;
    CHECK_STR(e->target.name, "$vars");
    r = parse("probe begin { x = @hist_linear(s, 0, 100, 10)[3] + @variance(s, 4) }");
    e = r.ast->decls->probe.body->block.body->expr->assign.rhs;
    CHECK(e->binary.lhs->kind == EXPR_HIST_BUCKET);
    const struct expr *h = e->binary.lhs->hist_bucket.hist;
    CHECK(h->kind == EXPR_STAT && h->stat.op == STAT_HIST_LINEAR && h->stat.arg_count == 3);
    CHECK(h->stat.operand->kind == EXPR_IDENT && h->stat.operand->next == NULL);
    CHECK(e->binary.rhs->stat.op == STAT_VARIANCE && e->binary.rhs->stat.arg_count == 1);
    r = parse("probe begin { x = @cast(p, \"struct t\", \"m\")->f }");
    e = r.ast->decls->probe.body->block.body->expr->assign.rhs;
    CHECK(e->kind == EXPR_CAST && e->cast.components && e->span.col == 19);
    CHECK_STR(e->cast.type_name, "struct t");
    CHECK_STR(e->cast.module, "m");
}

static void test_round_trips(void)
{
    check_round_trip(
        "# everything at once\n"
        "global counts, x = 5, s = \"a\\tb\", big[1000], w%[100], ww%\n"
        "private global pg = -1\n"
        "function f(a, b) { return a + b * 2 }\n"
        "function g:string (a:long, b:string) { return sprintf(\"%d%s\", a, b) }\n"
        "probe begin, timer.ms(100), process(\"/bin/ls\").function(\"main\").return, syscall.*, end ! {\n"
        "  printf(\"hello %d\\n\", f(1, 2)); x++\n"
        "  counts[execname(), pid()] <<< 1\n"
        "  if (x > 0 && !(x in counts)) println(\"a\" \"b\") else { next }\n"
        "  foreach ([k1, k2] in counts @sum- limit 10) printf(\"%s\\n\", k1)\n"
        "  foreach (v = k in big+) delete big[k]\n"
        "  for (;;) break\n"
        "  while (x--) { x -= 1 }\n"
        "  try { error(\"x\") } catch (msg) { println(msg) }\n"
        "  y = $p->next->val[3] + &$q->x + $v$ . $$vars$$ . @cast(p, \"struct foo\", \"/bin/x\")->bar\n"
        "  z = @var(\"glob@x.c\")->f + @entry($a) + @defined($b) ? 1 : 2\n"
        "  h = @hist_log(s)[3]; a = -9223372036854775808; b = - -1; c = -(-d); e = !!f; g = ~-h\n"
        "  if ([1, *] in counts) delete counts[*, 2]\n"
        "  if (a) if (b) c; else d\n"
        "  r = s =~ \"ab+\" || s !~ \"x\"; m = a ? b : c ? d : e; x = y = z\n"
        "  q = \"\\001\\x7f\\a\\b\\v\\f\\r\"\n"
        "  ;;\n"
        "}\n"
        "probe foo.bar = begin { x = 1 }\n"
        "probe foo.bar += end { }\n"
        "probe syscall.{open,close}.return, a.**, x if (x > 1) {}\n"
        "%{ int x; %}\n"
        "function emb() %{ /* pure */ %}\n");
}

static void test_preprocessor(void)
{
    CHECK_STR(body("%( kernel_v >= \"5.4\" %? a %: b %)"), "a;\n");
    CHECK_STR(body("%( kernel_v >= \"5.10.1\" %? a %: b %)"), "b;\n");
    CHECK_STR(body("%( kernel_v == \"5.10.0\" %? a %: b %)"), "a;\n");
    CHECK_STR(body("%( kernel_vr == \"5.10.0-19-amd64\" %? a %: b %)"), "a;\n");
    CHECK_STR(body("%( kernel_vr != \"5.10*\" %? a %: b %)"), "b;\n");
    CHECK_STR(body("%( kernel_v < \"5.9\" || kernel_v > \"5.10.0\" %? a %: b %)"), "b;\n");
    CHECK_STR(body("%( kernel_v > \"2.6.9\" && kernel_v < \"2.6.30\" %? a %: b %)"), "b;\n");
    CHECK_STR(body("%( arch == \"x86_64\" && runtime == \"bpf\" %? a %)"), "a;\n");
    CHECK_STR(body("%( arch == \"i?86\" %? a %: b %)"), "b;\n");
    CHECK_STR(body("%( systemtap_v >= \"4.0\" %? %( systemtap_v >= \"5.0\" %? a %: b %) %: c %)"), "b;\n");
    CHECK_STR(body("%( (1 < 2) && !(3 == 4) %? a %: b %)"), "a;\n");
    CHECK_STR(body("%( \"abc\" == \"abc\" %? a %: b %)"), "a;\n");
    CHECK_STR(body("%( CONFIG_TAP_NO_SUCH_OPTION == \"y\" %? a %: b %)"), "b;\n");
    CHECK_STR(body("x = %( $# > 1 %? 1 %: 2 %)"), "x = 2;\n");
    CHECK_STR(body("%( 1 == 2 %? a %( x %? %) %: b %)"), "b;\n");

    char *args[] = { "42", "hello world", "x + 1" };
    CHECK_STR(body_args("n = $# m = @# a = $1 * 2 b = @2 c = $3 d = @3", args, 3),
              "n = 3;\nm = 3;\na = (42 * 2);\nb = \"hello world\";\nc = (x + 1);\nd = \"x + 1\";\n");
    CHECK_STR(body_args("%( $# >= 2 %? s = @2 %: s = \"none\" %)", args, 1), "s = \"none\";\n");
    CHECK_STR(body_args("%( $# >= 2 %? s = $9 %: s = \"none\" %)", args, 1), "s = \"none\";\n");
    struct parsed r = parse_args("probe timer.ms($1), process(@2).function(\"f\") {}", args, 2);
    CHECK_STR(r.text, "probe timer.ms(42), process(\"hello world\").function(\"f\") {\n}\n");

    CHECK_STR(body("@define PI %( 314 %)\nx = @PI"), "x = 314;\n");
    CHECK_STR(print_ok("@define add(a, b) %( ((@a) + (@b)) %)\n@define twice(x) %( @add(@x, @x) %)\n"
                       "probe begin { x = @add(1, 2 * 3) * @twice(y) }"),
              "probe begin {\n  x = ((1 + (2 * 3)) * (y + y));\n}\n");
    CHECK_STR(print_ok("@define P %( probe begin %)\n@define f(a, b) %( @a + @b %)\n"
                       "@P { x = @f(g(1, 2), a[1, 2]) }\n"),
              "probe begin {\n  x = (g(1, 2) + a[1, 2]);\n}\n");
    CHECK_STR(print_ok("@define empty %( %)\nprobe %( kernel_v >= \"3.0\" %? syscall.read %: syscall.write %) { @empty }"),
              "probe syscall.read {\n}\n");
}

static void test_preprocessor_errors(void)
{
    char *args[] = { "a", "b" };
    struct parsed r = parse_args("probe begin {\n  printf(\"%s\", @3)\n}\n", args, 2);
    CHECK_STR(r.errors,
              "parse error: command line argument index 3 out of range [1-2]\n"
              "        saw: operator '@3' at t.tp:2:16\n"
              "     source:   printf(\"%s\", @3)\n"
              "                            ^\n");
    r = parse_args("probe begin { x = $1 }", NULL, 0);
    CHECK(strstr(r.errors, "command line argument index 1 out of range [1-0]") != NULL);
    CHECK(strstr(errors_of("probe begin { x = @nosuch }"), "unknown operator or macro '@nosuch'") != NULL);
    CHECK(strstr(errors_of("@define f(a) %( @a %)\nprobe begin { x = @f(1, 2) }"),
                 "macro '@f' takes 1 argument, given 2") != NULL);
    CHECK(strstr(errors_of("@define r %( @r %)\nprobe begin { x = @r }"), "macro expansion too deep") != NULL);
    CHECK(strstr(errors_of("probe begin { %( arch == \"x\" %? a }"), "unterminated conditional") != NULL);
    CHECK(strstr(errors_of("probe begin { %( nosuch == 1 %? a %) }"),
                 "expected 'arch', 'runtime', 'kernel_v'") != NULL);
    CHECK(strstr(errors_of("probe begin { %( arch == 1 %? a %) }"),
                 "expected comparison between strings or integers") != NULL);
    CHECK(strstr(errors_of("probe begin { a %) }"), "unexpected preprocessor token") != NULL);
    CHECK(strstr(errors_of("@define x %( 1 %)\n@define x %( 2 %)"), "attempt to redefine macro '@x'") != NULL);
}

static void test_errors(void)
{
    /* spec/output.md */
    struct parsed r = parse_named("bad.tp", "global x\nprobe begin {\n  if (x > 0 {\n    print(1)\n  }\n}\n", NULL, 0);
    CHECK_STR(r.errors,
              "parse error: expected ')'\n"
              "        saw: operator '{' at bad.tp:3:13\n"
              "     source:   if (x > 0 {\n"
              "                         ^\n");
    CHECK_STR(errors_of("probe begin { x = 1 ) }"),
              "parse error: expected statement\n"
              "        saw: operator ')' at t.tp:1:21\n"
              "     source: probe begin { x = 1 ) }\n"
              "                                 ^\n");
    CHECK_STR(errors_of("probe begin { if x }"),
              "parse error: expected '('\n"
              "        saw: identifier 'x' at t.tp:1:18\n"
              "     source: probe begin { if x }\n"
              "                              ^\n");
    CHECK_STR(errors_of("global 5"),
              "parse error: expected identifier\n"
              "        saw: number '5' at t.tp:1:8\n"
              "     source: global 5\n"
              "                    ^\n");
    CHECK_STR(errors_of("x = 1"),
              "parse error: expected 'probe', 'global', 'private', 'function', or '%{'\n"
              "        saw: identifier 'x' at t.tp:1:1\n"
              "     source: x = 1\n"
              "             ^\n");
    CHECK_STR(errors_of("probe begin { x = ; }"),
              "parse error: expected expression\n"
              "        saw: operator ';' at t.tp:1:19\n"
              "     source: probe begin { x = ; }\n"
              "                               ^\n");
    CHECK_STR(errors_of("probe begin {\n  x = 1\n"),
              "parse error: expected statement\n"
              "        saw: end of input at t.tp:2:8\n"
              "     source:   x = 1\n"
              "                    ^\n");
    CHECK_STR(errors_of("probe begin { a[1 }"),
              "parse error: expected ']'\n"
              "        saw: operator '}' at t.tp:1:19\n"
              "     source: probe begin { a[1 }\n"
              "                               ^\n");
    CHECK(strstr(errors_of("probe begin { foreach (k+ in a-) {} }"), "multiple sort directives") != NULL);
    CHECK(strstr(errors_of("probe begin { foreach (k in a @sum) {} }"), "expected sort directive") != NULL);
    CHECK(strstr(errors_of("probe begin { x = @hist_linear(s, 1) }"),
                 "@hist_linear takes exactly 4 arguments") != NULL);
    CHECK(strstr(errors_of("probe begin { x = @count(s)[1] }"), "only a histogram") != NULL);

    /* After an error, parsing resumes at the next declaration. */
    r = parse("probe begin { x = }\nprobe end { y = 1 }\nfunction f( { }\nglobal g\n");
    CHECK(r.error_count == 2);
    CHECK_STR(r.text, "probe end {\n  y = 1;\n}\nglobal g\n");
    CHECK(strstr(r.errors, "t.tp:1:19") != NULL && strstr(r.errors, "t.tp:3:13") != NULL);
}

static void test_embedded_is_not_an_error(void)
{
    struct parsed r = parse("%{ #include <linux/sched.h> %}\nfunction f:long () %{ STAP_RETURN(1); %}\n"
                            "probe begin { %{ x %} }");
    CHECK(r.error_count == 0);
    CHECK(r.ast->decls->kind == DECL_EMBEDDED);
    CHECK(r.ast->decls->next->function.body->kind == STMT_EMBEDDED);
    CHECK(r.ast->decls->next->next->probe.body->block.body->kind == STMT_EMBEDDED);
}

int main(void)
{
    arena_init(&arena);
    test_globals();
    test_functions();
    test_probe_points();
    test_aliases();
    test_statements();
    test_foreach();
    test_expressions();
    test_targets_and_at_operators();
    test_round_trips();
    test_preprocessor();
    test_preprocessor_errors();
    test_errors();
    test_embedded_is_not_an_error();
    arena_free(&arena);
    return check_summary();
}
