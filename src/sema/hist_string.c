/* sprint(@hist_log(s)) and sprintln(...): a histogram as the text print()
 * gives it (runtime/hist.c, SystemTap's _stp_stat_print_histogram_buf), cut
 * at MAXSTRINGLEN as every string. The text is made in BPF by a function in
 * the script's own language, written here for each such call: it reads the
 * buckets with foreach (c = b in @hist_*(s)) and @hist_*(s)[b], and the call
 * becomes a call of it with the statistic's keys as arguments (evaluated
 * once, where the call was). The helpers that need no statistic are in
 * tapsets/hist.tp. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "parser/parse.h"
#include "sema/sema_internal.h"

struct hist_calls {
    struct sema *s;
    struct strbuf text;          /* the generated functions */
    struct span *calls;          /* each function's call: where its error is reported */
    int count, capacity;
};

/* The statistic as the generated function names it: its global, indexed by
 * the function's parameters __k0, __k1 ... */
static void operand_text(struct strbuf *out, const struct expr *operand, int *keys)
{
    *keys = 0;
    if (operand->kind == EXPR_IDENT) {
        strbuf_puts(out, operand->ident.name);
        return;
    }
    strbuf_puts(out, operand->index.array->ident.name);
    strbuf_putc(out, '[');
    for (int i = 0; i < operand->index.index_count; i++)
        strbuf_printf(out, "%s__k%d", i ? ", " : "", i);
    strbuf_putc(out, ']');
    *keys = operand->index.index_count;
}

/* The function for one call: as hist_print() in runtime/hist.c, step for step. */
static void write_function(struct hist_calls *h, const struct expr *stat, int newline)
{
    struct strbuf hist, *out = &h->text;
    strbuf_init(&hist);
    int keys, linear = stat->stat.op == STAT_HIST_LINEAR;
    int64_t p[3] = {0, 0, 1};
    strbuf_printf(&hist, "@hist_%s(", linear ? "linear" : "log");
    operand_text(&hist, stat->stat.operand, &keys);
    if (linear) {
        const struct expr *arg = stat->stat.args;
        for (int i = 0; i < 3; i++, arg = arg ? arg->next : NULL)
            if (!ast_literal_int(arg, &p[i]) || (i == 2 && p[2] <= 0)) {
                diag_error(h->s->diags, stat->span, "@hist_linear needs literal start, stop and interval");
                strbuf_free(&hist);
                return;
            }
        strbuf_printf(&hist, ", %" PRId64 ", %" PRId64 ", %" PRId64, p[0], p[1], p[2]);
    }
    strbuf_putc(&hist, ')');
    const char *H = hist.data;
    int elision = h->s->options->hist_elision;
    strbuf_printf(out, "function __tap_sprint_hist_%d:string(", h->count);
    for (int i = 0; i < keys; i++)
        strbuf_printf(out, "%s__k%d", i ? ", " : "", i);
    strbuf_printf(out, ") {\n"
                       "  __lo = -1; __hi = 0; __max = 0; __n = 0\n"
                       "  foreach (__c = __b in %s) {\n"
                       "    if (__c > 0) { if (__lo < 0) __lo = __b; __hi = __b }\n"
                       "    if (__c > __max) __max = __c\n"
                       "    __n++\n"
                       "  }\n", H);
    /* No bucket counts anything: SystemTap's error, as print's (its
     * translator checks the aggregate's count before either). */
    strbuf_puts(out, "  if (__lo < 0) { error(\"empty aggregate\") return \"\" }\n");
    strbuf_printf(out, "  for (__i = 0; __i < 2; __i++) {\n"
                       "    if (__lo > 0 && %s) __lo--\n"
                       "    if (__hi < __n - 1) __hi++\n"
                       "  }\n", linear ? "1" : "__lo != 64");
    if (linear) {
        strbuf_printf(out, "  if (__lo == 0 && %s[0] == 0) __lo++\n"
                           "  if (__hi == __n - 1 && %s[__hi] == 0) __hi--\n"
                           "  __a = _tap_hist_digits(%" PRId64 ") + (__lo == 0)\n"
                           "  __z = _tap_hist_digits(_tap_hist_edge(%" PRId64 ", %" PRId64 ", __hi)) + (__hi == __n - 1)\n",
                      H, H, p[0], p[0], p[2]);
    } else {
        strbuf_puts(out, "  __a = _tap_hist_digits(_tap_hist_log_label(__lo))\n"
                         "  __z = _tap_hist_digits(_tap_hist_log_label(__hi))\n");
    }
    strbuf_printf(out, "  __vs = __a > 5 ? __a : 5\n"
                       "  if (__z > __vs) __vs = __z\n"
                       "  __cs = _tap_hist_digits(__max)\n"
                       "  __scale = __max <= 50 ? 1 : (__max + 49) / 50\n"
                       "  __out = sprintf(\"%%*s |\", __vs, \"value\") . _tap_hist_dashes() . \" count\\n\"\n"
                       "  __eliding = 0\n"
                       "  for (__i = __lo; __i <= __hi; __i++) {\n");
    if (elision >= 0) {
        int reach = elision < 1000 ? elision : 1000;
        strbuf_printf(out, "    __from = __i - %d > __lo ? __i - %d : __lo\n"
                           "    __to = __i + %d < __hi ? __i + %d : __hi\n"
                           "    __empty = 1\n"
                           "    for (__j = __from; __j <= __to; __j++) if (%s[__j]) { __empty = 0; break }\n"
                           "    if (__empty) { __eliding = 1; continue }\n"
                           "    if (__eliding) { __out .= sprintf(\"%%*s ~\\n\", __vs, \"\"); __eliding = 0 }\n",
                      reach, reach, reach, reach, H);
    }
    if (linear)
        strbuf_printf(out, "    __p = __i == 0 ? \"<\" : __i == __n - 1 ? \">\" : \"\"\n"
                           "    __v = __i == 0 ? %" PRId64 " : _tap_hist_edge(%" PRId64 ", %" PRId64 ", __i == __n - 1 ? __i - 2 : __i - 1)\n",
                      p[0], p[0], p[2]);
    else
        strbuf_puts(out, "    __p = \"\"\n"
                         "    __v = _tap_hist_log_label(__i)\n");
    strbuf_printf(out, "    __count = %s[__i]\n"
                       "    __bar = __count / __scale\n"
                       "    __out .= sprintf(\"%%*s%%d |\", __vs - _tap_hist_digits(__v), __p, __v)\n"
                       "    for (__j = 0; __j < __bar; __j++) __out .= \"@\"\n"
                       "    __out .= sprintf(\"%%*d\\n\", 50 - __bar + 1 + __cs, __count)\n"
                       "  }\n"
                       "  return __out . \"\\n%s\"\n"
                       "}\n", H, newline ? "\\n" : "");
    strbuf_free(&hist);
}

static void rewrite_call(struct expr *e, void *data)
{
    struct hist_calls *h = data;
    if (e->kind != EXPR_CALL || (strcmp(e->call.name, "sprint") != 0 && strcmp(e->call.name, "sprintln") != 0))
        return;
    struct expr *stat = e->call.args;
    if (!stat || stat->next || stat->kind != EXPR_STAT ||
        (stat->stat.op != STAT_HIST_LOG && stat->stat.op != STAT_HIST_LINEAR))
        return;
    const struct expr *operand = stat->stat.operand;
    if (operand->kind != EXPR_IDENT && (operand->kind != EXPR_INDEX || operand->index.array->kind != EXPR_IDENT))
        return;   /* types.c reports what a histogram needs */
    write_function(h, stat, strcmp(e->call.name, "sprintln") == 0);
    if (h->count == h->capacity) {
        int grown = h->capacity ? 2 * h->capacity : 8;
        h->calls = arena_realloc(h->s->arena, h->calls, sizeof(*h->calls) * (size_t)h->capacity,
                                 sizeof(*h->calls) * (size_t)grown);
        h->capacity = grown;
    }
    h->calls[h->count] = e->span;
    e->call.name = arena_printf(h->s->arena, "__tap_sprint_hist_%d", h->count++);
    e->call.args = operand->kind == EXPR_INDEX ? operand->index.indices : NULL;
    e->call.arg_count = operand->kind == EXPR_INDEX ? operand->index.index_count : 0;
}

/* The error of an empty statistic names the user's call, not the text
 * written here. */
static void place_error(struct expr *e, void *data)
{
    if (e->kind == EXPR_CALL && strcmp(e->call.name, "error") == 0)
        e->span = *(const struct span *)data;
}

static void place_errors(struct hist_calls *h, struct decl *generated)
{
    for (struct decl *d = generated; d; d = d->next) {
        int n;
        if (d->kind == DECL_FUNCTION && sscanf(d->function.name, "__tap_sprint_hist_%d", &n) == 1 && n >= 0 &&
            n < h->count)
            ast_visit_exprs(d->function.body, place_error, &h->calls[n]);
    }
}

void sema_write_hist_strings(struct sema *s, struct ast *user)
{
    struct hist_calls h = {.s = s};
    strbuf_init(&h.text);
    for (struct decl *d = user->decls; d; d = d->next) {
        if (d->kind == DECL_PROBE)
            ast_visit_exprs(d->probe.body, rewrite_call, &h);
        else if (d->kind == DECL_FUNCTION)
            ast_visit_exprs(d->function.body, rewrite_call, &h);
    }
    if (h.count) {
        char *text = arena_strdup(s->arena, h.text.data);
        struct source_file *file = source_from_string(s->arena, "<sprint of a histogram>", text, strlen(text));
        struct parse_options options = {0};
        struct ast *ast = parse_source(s->arena, s->diags, file, &options);
        struct decl **tail = &user->decls;
        while (*tail)
            tail = &(*tail)->next;
        *tail = ast ? ast->decls : NULL;
        place_errors(&h, *tail);
    }
    strbuf_free(&h.text);
}
