/* -p1: the AST printed back as canonical script text. Nested operators are
 * fully parenthesised and expression statements end in ';', so parsing the
 * output and printing it again gives the same text. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "parser/parse.h"

static void print_expr(struct strbuf *out, const struct expr *e, int top);
static void print_stmt(struct strbuf *out, const struct stmt *s, int indent);

static void print_indent(struct strbuf *out, int indent)
{
    strbuf_repeat(out, ' ', (size_t)indent * 2);
}

static void print_list(struct strbuf *out, const struct expr *list)
{
    for (const struct expr *e = list; e; e = e->next) {
        print_expr(out, e, 1);
        if (e->next)
            strbuf_puts(out, ", ");
    }
}

static void print_components(struct strbuf *out, const struct component *c, int pretty)
{
    for (; c; c = c->next) {
        if (c->kind == COMPONENT_MEMBER) {
            strbuf_printf(out, "->%s", c->member);
        } else {
            strbuf_putc(out, '[');
            print_expr(out, c->index, 1);
            strbuf_putc(out, ']');
        }
    }
    strbuf_repeat(out, '$', (size_t)pretty);
}

static void print_quoted(struct strbuf *out, const char *s)
{
    strbuf_quote(out, s, strlen(s));
}

/* An operand of a prefix or postfix operator gets parentheses when it is
 * itself a prefix operator, so `-(-x)` does not print as `--x`. */
static void print_operand(struct strbuf *out, const struct expr *e)
{
    int wrap = e->kind == EXPR_UNARY || e->kind == EXPR_INCDEC;
    if (wrap)
        strbuf_putc(out, '(');
    print_expr(out, e, 0);
    if (wrap)
        strbuf_putc(out, ')');
}

static int is_wildcard(const struct expr *e)
{
    return e->kind == EXPR_IDENT && strcmp(e->ident.name, "*") == 0;
}

static void print_expr(struct strbuf *out, const struct expr *e, int top)
{
    int wrap = !top && (e->kind == EXPR_BINARY || e->kind == EXPR_ASSIGN || e->kind == EXPR_AGGREGATE ||
                        e->kind == EXPR_TERNARY || e->kind == EXPR_IN);
    if (wrap)
        strbuf_putc(out, '(');
    switch (e->kind) {
    case EXPR_INT:
        strbuf_printf(out, "%" PRIu64, (uint64_t)e->int_value);
        break;
    case EXPR_STRING:
        strbuf_quote(out, e->string.value, (size_t)e->string.len);
        break;
    case EXPR_IDENT:
        strbuf_puts(out, e->ident.name);
        break;
    case EXPR_TARGET:
        strbuf_printf(out, "%s$%s", e->target.address_of ? "&" : "", e->target.name);
        print_components(out, e->target.components, e->target.pretty);
        break;
    case EXPR_UNARY:
        strbuf_puts(out, unary_op_text(e->unary.op));
        print_operand(out, e->unary.operand);
        break;
    case EXPR_BINARY:
        print_expr(out, e->binary.lhs, 0);
        strbuf_printf(out, " %s ", binary_op_text(e->binary.op));
        print_expr(out, e->binary.rhs, 0);
        break;
    case EXPR_ASSIGN:
        print_expr(out, e->assign.lhs, 0);
        strbuf_printf(out, " %s ", assign_op_text(e->assign.op));
        print_expr(out, e->assign.rhs, 0);
        break;
    case EXPR_AGGREGATE:
        print_expr(out, e->aggregate.lhs, 0);
        strbuf_puts(out, " <<< ");
        print_expr(out, e->aggregate.rhs, 0);
        break;
    case EXPR_INCDEC:
        if (e->incdec.prefix)
            strbuf_puts(out, e->incdec.increment ? "++" : "--");
        print_operand(out, e->incdec.operand);
        if (!e->incdec.prefix)
            strbuf_puts(out, e->incdec.increment ? "++" : "--");
        break;
    case EXPR_TERNARY:
        print_expr(out, e->ternary.cond, 0);
        strbuf_puts(out, " ? ");
        print_expr(out, e->ternary.then_expr, 0);
        strbuf_puts(out, " : ");
        print_expr(out, e->ternary.else_expr, 0);
        break;
    case EXPR_CALL:
        strbuf_printf(out, "%s(", e->call.name);
        print_list(out, e->call.args);
        strbuf_putc(out, ')');
        break;
    case EXPR_INDEX:
        print_expr(out, e->index.array, 0);
        strbuf_putc(out, '[');
        print_list(out, e->index.indices);
        strbuf_putc(out, ']');
        break;
    case EXPR_IN:
        if (e->in.key_count == 1 && !is_wildcard(e->in.keys)) {
            print_expr(out, e->in.keys, 0);
        } else {
            strbuf_putc(out, '[');
            print_list(out, e->in.keys);
            strbuf_putc(out, ']');
        }
        strbuf_puts(out, " in ");
        print_expr(out, e->in.array, 0);
        break;
    case EXPR_STAT:
        strbuf_printf(out, "@%s(", stat_op_name(e->stat.op));
        print_expr(out, e->stat.operand, 1);
        for (const struct expr *a = e->stat.args; a; a = a->next) {
            strbuf_puts(out, ", ");
            print_expr(out, a, 1);
        }
        strbuf_putc(out, ')');
        break;
    case EXPR_HIST_BUCKET:
        print_expr(out, e->hist_bucket.hist, 0);
        strbuf_putc(out, '[');
        print_expr(out, e->hist_bucket.bucket, 1);
        strbuf_putc(out, ']');
        break;
    case EXPR_ENTRY:
    case EXPR_DEFINED:
        strbuf_puts(out, e->kind == EXPR_ENTRY ? "@entry(" : "@defined(");
        print_expr(out, e->unary_at.operand, 1);
        strbuf_putc(out, ')');
        break;
    case EXPR_CAST:
        strbuf_puts(out, e->cast.address_of ? "&@cast(" : "@cast(");
        print_expr(out, e->cast.address, 1);
        strbuf_puts(out, ", ");
        print_quoted(out, e->cast.type_name);
        if (e->cast.module) {
            strbuf_puts(out, ", ");
            print_quoted(out, e->cast.module);
        }
        strbuf_putc(out, ')');
        print_components(out, e->cast.components, e->cast.pretty);
        break;
    case EXPR_AUTOCAST:
        strbuf_puts(out, e->autocast.address_of ? "&(" : "(");
        print_expr(out, e->autocast.operand, 1);
        strbuf_putc(out, ')');
        print_components(out, e->autocast.components, e->autocast.pretty);
        break;
    case EXPR_REGISTER:      /* made by sema, after -p1 */
    case EXPR_USER_READ:
    case EXPR_CTX_READ:
        strbuf_puts(out, "/* lowered target read */");
        break;
    case EXPR_VAR:
        strbuf_puts(out, e->var_at.address_of ? "&@var(" : "@var(");
        print_quoted(out, e->var_at.name);
        if (e->var_at.module) {
            strbuf_puts(out, ", ");
            print_quoted(out, e->var_at.module);
        }
        strbuf_putc(out, ')');
        print_components(out, e->var_at.components, e->var_at.pretty);
        break;
    }
    if (wrap)
        strbuf_putc(out, ')');
}

/* A statement body: blocks open on the same line, others go below, indented. */
static void print_body(struct strbuf *out, const struct stmt *s, int indent)
{
    if (s->kind == STMT_BLOCK) {
        strbuf_putc(out, ' ');
        print_stmt(out, s, indent);
    } else {
        strbuf_putc(out, '\n');
        print_indent(out, indent + 1);
        print_stmt(out, s, indent + 1);
    }
}

static void print_block(struct strbuf *out, const struct stmt *s, int indent)
{
    strbuf_puts(out, "{\n");
    for (const struct stmt *b = s->block.body; b; b = b->next) {
        print_indent(out, indent + 1);
        print_stmt(out, b, indent + 1);
        strbuf_putc(out, '\n');
    }
    print_indent(out, indent);
    strbuf_putc(out, '}');
}

static const char *sort_text(int sort)
{
    return sort > 0 ? "+" : sort < 0 ? "-" : "";
}

static void print_foreach(struct strbuf *out, const struct stmt *s, int indent)
{
    strbuf_puts(out, "foreach (");
    if (s->foreach.value_name)
        strbuf_printf(out, "%s = ", s->foreach.value_name);
    if (s->foreach.keys_bracketed)
        strbuf_putc(out, '[');
    for (const struct foreach_key *k = s->foreach.keys; k; k = k->next)
        strbuf_printf(out, "%s%s%s", k->name, sort_text(k->sort), k->next ? ", " : "");
    if (s->foreach.keys_bracketed)
        strbuf_putc(out, ']');
    strbuf_printf(out, " in %s", s->foreach.array->ident.name);
    if (s->foreach.slice) {
        strbuf_putc(out, '[');
        print_list(out, s->foreach.slice);
        strbuf_putc(out, ']');
    }
    if (s->foreach.has_sort_stat)
        strbuf_printf(out, " @%s", stat_op_name(s->foreach.sort_stat));
    strbuf_puts(out, sort_text(s->foreach.value_sort));
    if (s->foreach.limit) {
        strbuf_puts(out, " limit ");
        print_expr(out, s->foreach.limit, 1);
    }
    strbuf_putc(out, ')');
    print_body(out, s->foreach.body, indent);
}

static void print_stmt(struct strbuf *out, const struct stmt *s, int indent)
{
    switch (s->kind) {
    case STMT_EMPTY:
        strbuf_putc(out, ';');
        break;
    case STMT_BLOCK:
        print_block(out, s, indent);
        break;
    case STMT_EXPR:
        print_expr(out, s->expr, 1);
        strbuf_putc(out, ';');
        break;
    case STMT_IF:
        strbuf_puts(out, "if (");
        print_expr(out, s->if_stmt.cond, 1);
        strbuf_putc(out, ')');
        print_body(out, s->if_stmt.then_stmt, indent);
        if (s->if_stmt.else_stmt) {
            strbuf_putc(out, '\n');
            print_indent(out, indent);
            strbuf_puts(out, "else");
            print_body(out, s->if_stmt.else_stmt, indent);
        }
        break;
    case STMT_WHILE:
        strbuf_puts(out, "while (");
        print_expr(out, s->while_stmt.cond, 1);
        strbuf_putc(out, ')');
        print_body(out, s->while_stmt.body, indent);
        break;
    case STMT_FOR:
        strbuf_puts(out, "for (");
        if (s->for_stmt.init)
            print_expr(out, s->for_stmt.init, 1);
        strbuf_puts(out, s->for_stmt.cond ? "; " : ";");
        if (s->for_stmt.cond)
            print_expr(out, s->for_stmt.cond, 1);
        strbuf_puts(out, s->for_stmt.step ? "; " : ";");
        if (s->for_stmt.step)
            print_expr(out, s->for_stmt.step, 1);
        strbuf_putc(out, ')');
        print_body(out, s->for_stmt.body, indent);
        break;
    case STMT_FOREACH:
        print_foreach(out, s, indent);
        break;
    case STMT_BREAK:
        strbuf_puts(out, "break;");
        break;
    case STMT_CONTINUE:
        strbuf_puts(out, "continue;");
        break;
    case STMT_NEXT:
        strbuf_puts(out, "next;");
        break;
    case STMT_RETURN:
    case STMT_DELETE:
        strbuf_puts(out, s->kind == STMT_RETURN ? "return" : "delete");
        if (s->expr) {
            strbuf_putc(out, ' ');
            print_expr(out, s->expr, 1);
        }
        strbuf_putc(out, ';');
        break;
    case STMT_TRY:
        strbuf_puts(out, "try ");
        print_stmt(out, s->try_stmt.body, indent);
        strbuf_puts(out, " catch ");
        if (s->try_stmt.catch_var)
            strbuf_printf(out, "(%s) ", s->try_stmt.catch_var);
        print_stmt(out, s->try_stmt.catch_body, indent);
        break;
    case STMT_EMBEDDED:
        strbuf_printf(out, "%%{%s%%}", s->embedded.code);
        break;
    }
}

static void print_probe_points(struct strbuf *out, const struct probe_point *p)
{
    for (; p; p = p->next) {
        for (const struct probe_component *c = p->components; c; c = c->next) {
            strbuf_puts(out, c->name);
            if (c->arg_kind == PROBE_ARG_INT)
                strbuf_printf(out, "(%" PRId64 ")", c->arg_int);
            if (c->arg_kind == PROBE_ARG_STRING) {
                strbuf_putc(out, '(');
                print_quoted(out, c->arg_string);
                strbuf_putc(out, ')');
            }
            if (c->next)
                strbuf_putc(out, '.');
        }
        if (p->optional)
            strbuf_puts(out, p->sufficient ? " !" : " ?");
        if (p->condition) {
            strbuf_puts(out, " if (");
            print_expr(out, p->condition, 1);
            strbuf_putc(out, ')');
        }
        if (p->next)
            strbuf_puts(out, ", ");
    }
}

static const char *type_suffix(enum param_type_decl type)
{
    return type == PARAM_TYPE_LONG ? ":long" : type == PARAM_TYPE_STRING ? ":string" : "";
}

static void print_global(struct strbuf *out, const struct decl *d)
{
    strbuf_printf(out, "global %s", d->global.name);
    if (d->global.wrap)
        strbuf_putc(out, '%');
    if (d->global.max_entries)
        strbuf_printf(out, "[%" PRId64 "]", d->global.max_entries);
    const struct expr *init = d->global.init;
    if (init && init->kind == EXPR_INT && init->int_value < 0)
        strbuf_printf(out, " = -%" PRIu64, 0 - (uint64_t)init->int_value);
    else if (init) {
        strbuf_puts(out, " = ");
        print_expr(out, init, 1);
    }
}

static void print_decl(struct strbuf *out, const struct decl *d)
{
    if (d->is_private)
        strbuf_puts(out, "private ");
    switch (d->kind) {
    case DECL_GLOBAL:
        print_global(out, d);
        break;
    case DECL_FUNCTION:
        strbuf_printf(out, "function %s%s(", d->function.name, type_suffix(d->function.declared_return));
        for (const struct param *p = d->function.params; p; p = p->next)
            strbuf_printf(out, "%s%s%s", p->name, type_suffix(p->declared), p->next ? ", " : "");
        strbuf_puts(out, ") ");
        print_stmt(out, d->function.body, 0);
        break;
    case DECL_PROBE:
        strbuf_puts(out, "probe ");
        print_probe_points(out, d->probe.points);
        strbuf_putc(out, ' ');
        print_stmt(out, d->probe.body, 0);
        break;
    case DECL_ALIAS:
        strbuf_puts(out, "probe ");
        print_probe_points(out, d->alias.names);
        strbuf_puts(out, d->alias.is_epilogue ? " += " : " = ");
        print_probe_points(out, d->alias.points);
        strbuf_putc(out, ' ');
        print_stmt(out, d->alias.body, 0);
        break;
    case DECL_EMBEDDED:
        strbuf_printf(out, "%%{%s%%}", d->embedded.code);
        break;
    }
    strbuf_putc(out, '\n');
}

void ast_print(FILE *out, const struct ast *ast)
{
    struct strbuf sb;
    strbuf_init(&sb);
    for (const struct decl *d = ast ? ast->decls : NULL; d; d = d->next)
        print_decl(&sb, d);
    if (sb.len)
        fwrite(sb.data, 1, sb.len, out);
    strbuf_free(&sb);
}
