/* The AST child iterator (ast_expr_children, ast_stmt_children): every
 * child of every kind is visited once, in source order, and a nonzero
 * callback stops the walk. A kind added to the AST without a case is a
 * compile error in ast.c (its switches have no default); a child field left
 * out fails here: each leaf below is a distinct integer literal. */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "check.h"
#include "parser/ast.h"
#include "parser/parse.h"

static struct arena arena;

enum { MAX_LEAF = 64 };
struct seen { int count[MAX_LEAF + 1]; int order[4 * MAX_LEAF]; int n; int kinds[EXPR_CTX_READ + 1]; };

static void note(struct expr *e, void *data)
{
    struct seen *seen = data;
    seen->kinds[e->kind]++;
    if (e->kind == EXPR_INT && e->int_value >= 0 && e->int_value <= MAX_LEAF) {
        seen->count[e->int_value]++;
        seen->order[seen->n++] = (int)e->int_value;
    }
}

static struct stmt *parse_body(const char *src)
{
    struct diags diags;
    diags_init(&diags);
    struct source_file *file = source_from_string(&arena, "t.tp", src, strlen(src));
    struct parse_options options = {.kernel_version = "6.1.0", .arch = "x86_64"};
    struct ast *ast = parse_source(&arena, &diags, file, &options);
    CHECK(ast && diags.error_count == 0);
    for (const struct diag *d = diags.head; d; d = d->next)
        fprintf(stderr, "%s\n", d->message);
    diags_free(&diags);
    return ast && ast->decls ? ast->decls->probe.body : NULL;
}

/* Every parsed expression and statement kind, leaves numbered in source order. */
static void test_every_parsed_kind(void)
{
    struct stmt *body = parse_body(
        "probe begin {\n"
        "  x = ~1 + 2\n"
        "  a[3, 4] <<< 5\n"
        "  y[6]++\n"
        "  z = 7 ? 8 : 9\n"
        "  f(10, 11)\n"
        "  if ([12, 13] in a) print(14) else print(15)\n"
        "  w = @hist_linear(a[16], 17, 18, 19)\n"
        "  w = @hist_log(a[20])[21]\n"
        "  w = @entry($v[22]->m) + @defined(@var(\"g\")[23])\n"
        "  w = @cast(24, \"struct s\")->b[25]\n"
        "  while (26) { break }\n"
        "  for (i = 27; 28; 29) { continue }\n"
        "  foreach ([k] in a[30, *] limit 31) { next }\n"
        "  delete a[32]\n"
        "  try { print(33) } catch (e) { print(34) }\n"
        "  w = (35)->c[36]\n"
        "  return 37\n"
        "}\n");
    struct seen seen = {0};
    ast_visit_exprs(body, note, &seen);
    for (int i = 1; i <= 37; i++) {
        if (seen.count[i] != 1)
            fprintf(stderr, "leaf %d visited %d times\n", i, seen.count[i]);
        CHECK(seen.count[i] == 1);
    }
    int in_order = 1;
    for (int i = 0; i < seen.n; i++)
        in_order &= seen.order[i] == i + 1;
    CHECK(in_order);
    for (int k = EXPR_INT; k <= EXPR_AUTOCAST; k++)
        CHECK(k == EXPR_STRING || k == EXPR_REGISTER || seen.kinds[k] > 0);
}

/* The kinds sema makes (never parsed) and their address operands. */
static void test_lowered_kinds(void)
{
    struct span span = {0};
    struct expr *leaf[3];
    for (int i = 0; i < 3; i++) {
        leaf[i] = ast_expr(&arena, EXPR_INT, span);
        leaf[i]->int_value = i + 1;
    }
    struct expr *read = ast_expr(&arena, EXPR_USER_READ, span);
    read->user_read.address = leaf[0];
    struct expr *ctx = ast_expr(&arena, EXPR_CTX_READ, span);
    ctx->ctx_read.address = leaf[1];
    struct expr *reg = ast_expr(&arena, EXPR_REGISTER, span);
    struct expr *sum = ast_expr(&arena, EXPR_BINARY, span);
    sum->binary.lhs = read;
    sum->binary.rhs = ast_expr(&arena, EXPR_BINARY, span);
    sum->binary.rhs->binary.lhs = ctx;
    sum->binary.rhs->binary.rhs = reg;
    struct stmt *st = ast_stmt(&arena, STMT_EXPR, span);
    st->expr = sum;
    struct seen seen = {0};
    ast_visit_exprs(st, note, &seen);
    CHECK(seen.count[1] == 1 && seen.count[2] == 1 && seen.count[3] == 0);
    CHECK(seen.kinds[EXPR_USER_READ] == 1 && seen.kinds[EXPR_CTX_READ] == 1 && seen.kinds[EXPR_REGISTER] == 1);
}

static int stop_at_three(struct expr *e, void *ctx)
{
    int *calls = ctx;
    ++*calls;
    return e->kind == EXPR_INT && e->int_value == 3 ? 7 : 0;
}

/* A nonzero callback ends the walk of that node's children and is returned. */
static void test_stop(void)
{
    struct stmt *body = parse_body("probe begin { f(1, 2, 3, 4, 5) }\n");
    int calls = 0;
    struct ast_visitor v = {stop_at_three, NULL, &calls};
    CHECK(ast_expr_children(body->block.body->expr, &v) == 7);
    CHECK(calls == 3);
}

int main(void)
{
    arena_init(&arena);
    test_every_parsed_kind();
    test_lowered_kinds();
    test_stop();
    arena_free(&arena);
    return check_summary();
}
