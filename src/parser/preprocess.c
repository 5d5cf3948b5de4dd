#include "parser/preprocess.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "parser/parse.h"
#include "parser.h"

#define PP_MAX_DEPTH 256
/* Tokens that macro bodies and arguments may yield in all: nesting alone
 * does not stop `@define f %( @f @f %)`-style doubling from exhausting memory. */
#define PP_MAX_EXPANDED 100000

struct pp_macro {
    const char *name;
    const char **params;
    int param_count;
    const struct token *body;
    int body_count;
    int library;                 /* one of library_macros: a file may define its own */
    struct pp_macro *next;
};

struct pp_env;

/* One macro argument: its tokens and the bindings they are read under. */
struct pp_arg {
    const struct token *tokens;
    int count;
    struct pp_env *env;
};

/* The parameter bindings inside one macro expansion. */
struct pp_env {
    const struct pp_macro *macro;
    struct pp_arg *args;
};

/* A stack of token sources: the file, then macro bodies and pasted args. */
struct pp_frame {
    const struct token *tokens;
    int count, pos;
    struct pp_env *env;
    struct pp_frame *up;
    int depth;
    const struct span *expanded_from;   /* a macro body's: its use, for diagnostics */
};

struct pp {
    struct arena *arena;
    struct diags *diags;
    const struct parse_options *options;
    struct pp_frame *top;
    const struct token *eof;
    struct pp_macro *macros;
    struct token_array *out;
    int errors;
    int fatal;                  /* runaway expansion: stop */
    long expanded;              /* tokens read from macro frames so far */
    struct span expansion_site; /* the outermost macro use being expanded */
    struct utsname uts;
    int have_uts;
    char *config;               /* kernel config text, loaded on first CONFIG_ use */
    int config_loaded;
};

static void pp_error(struct pp *pp, struct span span, const char *fmt, const char *arg)
{
    diag_parse_error(pp->diags, span, fmt, arg);
    pp->errors++;
}

static struct pp_frame *pp_push(struct pp *pp, const struct token *tokens, int count, struct pp_env *env,
                                 struct span site)
{
    int depth = pp->top ? pp->top->depth + 1 : 0;
    if (depth > PP_MAX_DEPTH) {
        site.expanded_from = NULL;   /* the chain would be PP_MAX_DEPTH uses long */
        if (!pp->fatal)
            pp_error(pp, site, "%s", "macro expansion too deep (recursive @define?)");
        pp->fatal = 1;
        return NULL;
    }
    if (depth == 1)
        pp->expansion_site = site;
    struct pp_frame *f = ARENA_NEW(pp->arena, struct pp_frame);
    f->tokens = tokens;
    f->count = count;
    f->env = env;
    f->up = pp->top;
    f->depth = depth;
    pp->top = f;
    return f;
}

/* The next token from the source stack, without expansion. */
static const struct token *pp_next_raw(struct pp *pp, struct pp_env **env)
{
    for (;;) {
        struct pp_frame *f = pp->top;
        if (f->pos < f->count && !pp->fatal) {
            if (f->depth > 0 && ++pp->expanded > PP_MAX_EXPANDED) {
                pp_error(pp, pp->expansion_site, "%s",
                         "macro expansion too large (over 100000 tokens)");
                pp->fatal = 1;
                continue;
            }
            if (env)
                *env = f->env;
            const struct token *t = &f->tokens[f->pos++];
            if (!f->expanded_from)
                return t;
            struct token *copy = ARENA_NEW(pp->arena, struct token);
            *copy = *t;
            copy->span.expanded_from = f->expanded_from;
            return copy;
        }
        if (!f->up || pp->fatal) {
            if (env)
                *env = NULL;
            return pp->eof;
        }
        pp->top = f->up;
    }
}

static struct token *pp_new_token(struct pp *pp, int kind, struct span span, const char *text, int64_t value)
{
    struct token *t = ARENA_NEW(pp->arena, struct token);
    t->kind = kind;
    t->span = span;
    t->text = text;
    t->len = (int)strlen(text);
    t->value = value;
    return t;
}

static struct pp_macro *pp_find_macro(struct pp *pp, const char *name)
{
    for (struct pp_macro *m = pp->macros; m; m = m->next)
        if (strcmp(m->name, name) == 0)
            return m;
    return NULL;
}

/* @define NAME[(a, b)] %( body %) */
static void pp_define(struct pp *pp, const struct token *at)
{
    const struct token *name = pp_next_raw(pp, NULL);
    if (name->kind != IDENT) {
        pp_error(pp, name->span, "%s", "expected identifier after @define");
        return;
    }
    struct pp_macro *m = ARENA_NEW(pp->arena, struct pp_macro);
    m->name = name->text;
    const struct token *t = pp_next_raw(pp, NULL);
    if (t->kind == '(') {
        const char *params[64];
        for (;;) {
            t = pp_next_raw(pp, NULL);
            if (t->kind == ')' && m->param_count == 0)
                break;
            if (t->kind != IDENT || m->param_count == 64) {
                pp_error(pp, t->span, "%s", "expected identifier");
                return;
            }
            params[m->param_count++] = t->text;
            t = pp_next_raw(pp, NULL);
            if (t->kind == ')')
                break;
            if (t->kind != ',') {
                pp_error(pp, t->span, "%s", "expected ',' or ')'");
                return;
            }
        }
        m->params = ARENA_ARRAY(pp->arena, const char *, m->param_count);
        memcpy(m->params, params, sizeof(params[0]) * (size_t)m->param_count);
        t = pp_next_raw(pp, NULL);
    }
    if (t->kind != PP_IF) {
        pp_error(pp, t->span, "%s", "expected '%('");
        return;
    }
    struct token_array body = {0};
    for (int depth = 0;;) {
        t = pp_next_raw(pp, NULL);
        if (t->kind == YYEOF) {
            pp_error(pp, at->span, "%s", "incomplete macro definition: expected '%)'");
            return;
        }
        if (t->kind == PP_IF)
            depth++;
        if (t->kind == PP_END && depth-- == 0)
            break;
        token_array_push(pp->arena, &body, t);
    }
    m->body = body.items;
    m->body_count = body.count;
    const struct pp_macro *earlier = pp_find_macro(pp, m->name);
    if (earlier && !earlier->library) {
        pp_error(pp, name->span, "attempt to redefine macro '@%s'", m->name);
        return;
    }
    m->next = pp->macros;
    pp->macros = m;
}

/* Reads `(arg, arg)` after a macro name: arguments are token sequences split
 * at top-level commas. */
static struct pp_arg *pp_macro_args(struct pp *pp, const struct token *use, const struct pp_macro *m)
{
    struct pp_arg *args = ARENA_ARRAY(pp->arena, struct pp_arg, m->param_count);
    struct pp_env *env;
    const struct token *t = pp_next_raw(pp, &env);
    if (t->kind != '(') {
        pp_error(pp, t->span, "%s", "expected '('");
        return NULL;
    }
    struct token_array arg = {0};
    int n = 0, depth = 0;
    for (;;) {
        t = pp_next_raw(pp, NULL);
        if (t->kind == YYEOF) {
            pp_error(pp, use->span, "%s", "unterminated macro argument list: expected ')'");
            return NULL;
        }
        if (depth == 0 && (t->kind == ',' || t->kind == ')')) {
            if (n < m->param_count)
                args[n] = (struct pp_arg){ arg.items, arg.count, env };
            n++;
            arg = (struct token_array){0};
            if (t->kind == ')')
                break;
            continue;
        }
        if (t->kind == '(' || t->kind == '[' || t->kind == '{')
            depth++;
        if (t->kind == ')' || t->kind == ']' || t->kind == '}')
            depth--;
        token_array_push(pp->arena, &arg, t);
    }
    if (n != m->param_count) {
        diag_parse_error(pp->diags, use->span, "macro '@%s' takes %d argument%s, given %d", m->name,
                         m->param_count, m->param_count == 1 ? "" : "s", n);
        pp->errors++;
        return NULL;
    }
    return args;
}

/* Inside a macro body `@NAME` names the parameter NAME when there is one,
 * even where NAME is an operator's (`@define q(var) %( @cast(@var, ...) %)`):
 * SystemTap looks parameters up first. Pastes the argument and returns 1. */
static int pp_parameter_use(struct pp *pp, const struct token *use, const struct pp_env *env)
{
    if (!env)
        return 0;
    for (int i = 0; i < env->macro->param_count; i++) {
        if (strcmp(env->macro->params[i], use->text + 1) == 0) {
            struct pp_arg *a = &env->args[i];
            pp_push(pp, a->tokens, a->count, a->env, use->span);
            return 1;
        }
    }
    return 0;
}

static void pp_macro_use(struct pp *pp, const struct token *use, struct pp_env *env)
{
    const char *name = use->text + 1;
    if (pp_parameter_use(pp, use, env))
        return;
    struct pp_macro *m = pp_find_macro(pp, name);
    if (!m) {
        pp_error(pp, use->span, "unknown operator or macro '%s'", use->text);
        return;
    }
    struct pp_env *inner = ARENA_NEW(pp->arena, struct pp_env);
    inner->macro = m;
    if (m->param_count) {
        inner->args = pp_macro_args(pp, use, m);
        if (!inner->args)
            return;
    }
    struct pp_frame *body = pp_push(pp, m->body, m->body_count, inner, use->span);
    if (body) {
        struct span *site = ARENA_NEW(pp->arena, struct span);
        *site = use->span;
        body->expanded_from = site;
    }
}

/* $N pastes the argument's tokens, @N its text as a string literal. */
static const struct token *pp_argument(struct pp *pp, const struct token *t)
{
    int count = pp->options ? pp->options->arg_count : 0;
    if (t->kind == ARGCOUNT || t->kind == ARGSTRCOUNT)
        return pp_new_token(pp, NUMBER, t->span, arena_printf(pp->arena, "%d", count), count);
    if (t->value < 1 || t->value > count) {
        diag_parse_error(pp->diags, t->span, "command line argument index %lld out of range [1-%d]",
                         (long long)t->value, count);
        pp->errors++;
        return NULL;
    }
    const char *arg = pp->options->args[t->value - 1];
    if (t->kind == ARGSTR) {
        struct span span = t->span;
        span.token_class = TOKEN_CLASS_STRING;
        return pp_new_token(pp, STRING, span, arg, 0);
    }
    struct token_array pasted = {0};
    if (lexer_tokenize_text(pp->arena, pp->diags, arg, t->span, &pasted))
        pp->errors++;
    pp_push(pp, pasted.items, pasted.count, NULL, t->span);
    return NULL;
}

/* @perf, SystemTap's operator reading a perf counter, unless a macro takes the name. */
static int is_perf_read(struct pp *pp, const struct token *use, const struct pp_env *env)
{
    if (strcmp(use->text, "@perf") != 0 || pp_find_macro(pp, "perf"))
        return 0;
    if (!env)
        return 1;
    for (int i = 0; i < env->macro->param_count; i++)
        if (strcmp(env->macro->params[i], "perf") == 0)
            return 0;
    return 1;
}

/* The next token with macros expanded and arguments pasted. */
static const struct token *pp_next(struct pp *pp)
{
    for (;;) {
        struct pp_env *env;
        const struct token *t = pp_next_raw(pp, &env);
        switch (t->kind) {
        case AT_DEFINE:
            pp_define(pp, t);
            continue;
        case AT_MACRO:
            if (is_perf_read(pp, t, env))   /* @perf("NAME"): the builtin __tap_perf("NAME") */
                return pp_new_token(pp, IDENT, t->span, "__tap_perf", 0);
            pp_macro_use(pp, t, env);
            continue;
        case AT_CAST:
        case AT_VAR:
        case AT_ENTRY:
        case AT_DEFINED:
        case AT_STAT:
            if (pp_parameter_use(pp, t, env))
                continue;
            return t;
        case ARG:
        case ARGSTR:
        case ARGCOUNT:
        case ARGSTRCOUNT: {
            const struct token *r = pp_argument(pp, t);
            if (r)
                return r;
            continue;
        }
        default:
            return t;
        }
    }
}

/* ---- %( conditions ---- */

struct pp_cond {
    struct pp *pp;
    const struct token *tokens;
    int count, pos;
    int failed;
};

enum pp_value_kind { PP_NUMBER, PP_STRING, PP_VERSION, PP_NAME, PP_CONFIG };
struct pp_value {
    enum pp_value_kind kind;
    int64_t num;
    const char *str;
};

static const struct token *cond_peek(struct pp_cond *c)
{
    return &c->tokens[c->pos];
}

static const struct token *cond_next(struct pp_cond *c)
{
    const struct token *t = &c->tokens[c->pos];
    if (c->pos < c->count - 1)
        c->pos++;
    return t;
}

static void cond_error(struct pp_cond *c, const struct token *t, const char *msg)
{
    if (!c->failed)
        pp_error(c->pp, t->span, "%s", msg);
    c->failed = 1;
}

static const char *pp_uname(struct pp *pp, int machine)
{
    if (!pp->have_uts) {
        if (uname(&pp->uts) != 0)
            memset(&pp->uts, 0, sizeof(pp->uts));
        pp->have_uts = 1;
    }
    return machine ? pp->uts.machine : pp->uts.release;
}

static void pp_load_config(struct pp *pp)
{
    pp->config_loaded = 1;
    char path[512];
    snprintf(path, sizeof(path), "/boot/config-%s", pp_uname(pp, 0));
    FILE *f = fopen(path, "r");
    int piped = 0;
    if (!f && access("/proc/config.gz", R_OK) == 0) {
        f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
        piped = 1;
    }
    if (!f)
        return;
    struct strbuf sb;
    strbuf_init(&sb);
    strbuf_read_file(&sb, f);
    if (piped)
        pclose(f);
    else
        fclose(f);
    pp->config = sb.data ? arena_strdup(pp->arena, sb.data) : NULL;
    strbuf_free(&sb);
}

/* CONFIG_X's value ("y", "m", a number, a string without quotes) or "". */
static const char *pp_config_value(struct pp *pp, const char *name)
{
    if (!pp->config_loaded)
        pp_load_config(pp);
    size_t len = strlen(name);
    for (const char *line = pp->config; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t line_len = end ? (size_t)(end - line) : strlen(line);
        if (line_len > len && strncmp(line, name, len) == 0 && line[len] == '=') {
            const char *v = line + len + 1;
            size_t vlen = line_len - len - 1;
            if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"')
                v++, vlen -= 2;
            return arena_strndup(pp->arena, v, vlen);
        }
        line = end ? end + 1 : NULL;
    }
    return "";
}

static int pp_lookup_name(struct pp *pp, const char *name, struct pp_value *v)
{
    const struct parse_options *o = pp->options;
    if (strcmp(name, "kernel_vr") == 0 || strcmp(name, "kernel_v") == 0) {
        const char *release = o && o->kernel_version ? o->kernel_version : pp_uname(pp, 0);
        v->kind = PP_VERSION;
        v->str = release;
        if (strcmp(name, "kernel_v") == 0)
            v->str = arena_strndup(pp->arena, release, strcspn(release, "-"));
    } else if (strcmp(name, "systemtap_v") == 0) {
        v->kind = PP_VERSION;
        v->str = "4.8";
    } else if (strcmp(name, "arch") == 0) {
        v->kind = PP_NAME;
        v->str = o && o->arch ? o->arch : pp_uname(pp, 1);
    } else if (strcmp(name, "runtime") == 0) {
        v->kind = PP_NAME;
        v->str = "bpf";
    } else if (strcmp(name, "systemtap_privilege") == 0) {
        v->kind = PP_NAME;
        v->str = "stapdev";
    } else if (strcmp(name, "guru_mode") == 0) {
        v->kind = PP_NUMBER;
        v->num = 0;
    } else if (strncmp(name, "CONFIG_", 7) == 0) {
        v->kind = PP_CONFIG;
        v->str = pp_config_value(pp, name);
    } else {
        return 0;
    }
    return 1;
}

static int cond_operand(struct pp_cond *c, struct pp_value *v)
{
    const struct token *t = cond_next(c);
    switch (t->kind) {
    case NUMBER:
        v->kind = PP_NUMBER;
        v->num = t->value;
        return 1;
    case '-':
        if (cond_peek(c)->kind == NUMBER) {
            v->kind = PP_NUMBER;
            v->num = (int64_t)(0 - (uint64_t)cond_next(c)->value);
            return 1;
        }
        break;
    case STRING:
        v->kind = PP_STRING;
        v->str = t->text;
        return 1;
    case IDENT:
        if (pp_lookup_name(c->pp, t->text, v))
            return 1;
        break;
    }
    cond_error(c, t, "expected 'arch', 'runtime', 'kernel_v', 'kernel_vr', 'systemtap_v', "
                     "'CONFIG_...', or comparison between strings or integers");
    return 0;
}

static int cond_apply(int op, int cmp)
{
    switch (op) {
    case EQ: return cmp == 0;
    case NE: return cmp != 0;
    case '<': return cmp < 0;
    case LE: return cmp <= 0;
    case '>': return cmp > 0;
    default: return cmp >= 0;
    }
}

static int has_wildcard(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

static int cond_compare(struct pp_cond *c, const struct token *op, struct pp_value *l, struct pp_value *r)
{
    int equality = op->kind == EQ || op->kind == NE;
    if (l->kind == PP_CONFIG && r->kind == PP_NUMBER) {
        long long n = strtoll(l->str, NULL, 0);
        return cond_apply(op->kind, n < r->num ? -1 : n > r->num);
    }
    if (l->kind == PP_NUMBER && r->kind == PP_NUMBER)
        return cond_apply(op->kind, l->num < r->num ? -1 : l->num > r->num);
    if (l->kind == PP_NUMBER || r->kind != PP_STRING) {
        cond_error(c, op, "expected comparison between strings or integers");
        return 0;
    }
    if (equality && l->kind != PP_STRING && has_wildcard(r->str))
        return cond_apply(op->kind, fnmatch(r->str, l->str, 0) == 0 ? 0 : 1);
    if (l->kind == PP_VERSION)
        return cond_apply(op->kind, pp_version_compare(l->str, r->str));
    return cond_apply(op->kind, strcmp(l->str, r->str));
}

static int cond_or(struct pp_cond *c);

static int cond_term(struct pp_cond *c)
{
    if (cond_peek(c)->kind == '(') {
        cond_next(c);
        int v = cond_or(c);
        if (cond_next(c)->kind != ')')
            cond_error(c, &c->tokens[c->pos], "expected ')'");
        return v;
    }
    if (cond_peek(c)->kind == '!') {
        cond_next(c);
        return !cond_term(c);
    }
    struct pp_value l = {0}, r = {0};
    if (!cond_operand(c, &l))
        return 0;
    const struct token *op = cond_next(c);
    switch (op->kind) {
    case EQ: case NE: case '<': case LE: case '>': case GE:
        break;
    default:
        cond_error(c, op, "expected comparison operator");
        return 0;
    }
    if (!cond_operand(c, &r))
        return 0;
    return cond_compare(c, op, &l, &r);
}

static int cond_and(struct pp_cond *c)
{
    int v = cond_term(c);
    while (cond_peek(c)->kind == ANDAND) {
        cond_next(c);
        v = cond_term(c) && v;
    }
    return v;
}

static int cond_or(struct pp_cond *c)
{
    int v = cond_and(c);
    while (cond_peek(c)->kind == OROR) {
        cond_next(c);
        v = cond_and(c) || v;
    }
    return v;
}

/* Reads COND up to %? and evaluates it; errors count as false. When a %:, %)
 * or the end comes before %?, *stopped is that token (reported here). */
static int pp_condition(struct pp *pp, const struct token *start, const struct token **stopped)
{
    struct token_array tokens = {0};
    const struct token *then;
    *stopped = NULL;
    for (;;) {
        const struct token *t = pp_next(pp);
        if (t->kind == PP_THEN) {
            then = t;
            break;
        }
        if (t->kind == YYEOF || t->kind == PP_END || t->kind == PP_ELSE) {
            pp_error(pp, t->kind == YYEOF ? start->span : t->span, "%s", "expected '%?'");
            *stopped = t;
            return 0;
        }
        token_array_push(pp->arena, &tokens, t);
    }
    /* %? ends the condition, so "saw: ..." names it when the condition is cut short. */
    token_array_push(pp->arena, &tokens, then);
    struct pp_cond c = { pp, tokens.items, tokens.count, 0, 0 };
    int v = cond_or(&c);
    if (!c.failed && cond_peek(&c)->kind != PP_THEN)
        cond_error(&c, cond_peek(&c), "expected '%?'");
    return c.failed ? 0 : v;
}

/* Skips a branch; returns the %: or %) that ended it (or EOF). */
static const struct token *pp_skip(struct pp *pp, int stop_at_else)
{
    for (int depth = 0;;) {
        const struct token *t = pp_next_raw(pp, NULL);
        if (t->kind == YYEOF)
            return t;
        if (t->kind == PP_IF)
            depth++;
        else if (t->kind == PP_END && depth-- == 0)
            return t;
        else if (t->kind == PP_ELSE && depth == 0 && stop_at_else)
            return t;
    }
}

static void pp_emit(struct pp *pp, const struct token *t)
{
    struct token_array *out = pp->out;
    /* Adjacent string literals are one literal. */
    if (t->kind == STRING && out->count && out->items[out->count - 1].kind == STRING) {
        struct token *last = &out->items[out->count - 1];
        char *text = arena_alloc(pp->arena, (size_t)(last->len + t->len + 1));
        memcpy(text, last->text, (size_t)last->len);
        memcpy(text + last->len, t->text, (size_t)t->len);
        last->text = text;
        last->len += t->len;
        return;
    }
    token_array_push(pp->arena, out, t);
}

/* Tokens pasted from one `$N` all carry the span of the `$N`: they count as
 * adjacent, so `tap x.tp 'syscall.sys_*'` works in a probe point. */
static int adjacent(const struct token *a, const struct token *b)
{
    if (a->span.file != b->span.file || a->span.line != b->span.line)
        return 0;
    return a->span.col + a->span.len == b->span.col ||
           (a->span.col == b->span.col && a->span.len == b->span.len);
}

static int name_piece(const struct token *t)
{
    if (t->kind >= KW_PROBE && t->kind <= KW_CATCH)   /* declared in this order in parser.y */
        return t->kind != KW_IF;
    return t->kind == IDENT || t->kind == '*' || t->kind == NUMBER;
}

/* Whether the `{` at tokens[i] opens a group of alternatives
 * (`kernel.{trace("a"), trace("b")}`) rather than the probe's body: it
 * starts a step, and after '.' nothing else can; after `probe`, ',', '{',
 * '=' or '+=' it does when its matching '}' goes on with the header. */
static int opens_group(const struct token *tokens, int count, int i)
{
    int prev = tokens[i - 1].kind;
    if (prev == '.')
        return 1;
    if (prev != KW_PROBE && prev != ',' && prev != '{' && prev != '=' && prev != ADD_ASSIGN)
        return 0;
    int depth = 0;
    for (int j = i; j < count; j++) {
        if (tokens[j].kind == '{')
            depth++;
        else if (tokens[j].kind == '}' && --depth == 0) {
            int next = j + 1 < count ? tokens[j + 1].kind : YYEOF;
            return next == '.' || next == ',' || next == '{' || next == '}' || next == '?' ||
                   next == '!' || next == '=' || next == ADD_ASSIGN || next == KW_IF;
        }
    }
    return 0;
}

/* Probe point headers (from `probe` to the body's `{`, outside parentheses)
 * have their own lexical rules: adjacent pieces such as `sys_` `*` and `*`
 * `*` form one component name, and keywords (`.return`, `.function`) are
 * names. Each run becomes one IDENT. A `{` ends the header unless it opens
 * a group of alternatives (GROUP_OPEN), which the parser expands. */
static void pp_cook_probe_headers(struct pp *pp, const struct token_array *in, struct token_array *out)
{
    const struct token *tok = in->items;
    int header = 0, parens = 0;
    for (int i = 0; i < in->count; i++) {
        const struct token *t = &tok[i];
        if (!header || parens || t->kind == '(' || t->kind == ')') {
            if (header && t->kind == '(')
                parens++;
            if (header && t->kind == ')' && parens)
                parens--;
            header |= t->kind == KW_PROBE;
            token_array_push(pp->arena, out, t);
            continue;
        }
        if (t->kind == '{' && opens_group(tok, in->count, i)) {
            struct token group = *t;
            group.kind = GROUP_OPEN;
            token_array_push(pp->arena, out, &group);
            continue;
        }
        if (t->kind == '{')
            header = 0;
        if (!name_piece(t)) {
            token_array_push(pp->arena, out, t);
            continue;
        }
        struct strbuf sb;
        strbuf_init(&sb);
        int j = i;
        do {
            strbuf_append(&sb, tok[j].text, (size_t)tok[j].len);
            j++;
        } while (j < in->count && name_piece(&tok[j]) && adjacent(&tok[j - 1], &tok[j]));
        struct token merged = *t;
        merged.kind = IDENT;
        merged.text = arena_strndup(pp->arena, sb.data, sb.len);
        merged.len = (int)sb.len;
        merged.span.token_class = TOKEN_CLASS_IDENTIFIER;
        if (tok[j - 1].span.line == t->span.line && tok[j - 1].span.file == t->span.file)
            merged.span.len = tok[j - 1].span.col + tok[j - 1].span.len - t->span.col;
        strbuf_free(&sb);
        token_array_push(pp->arena, out, &merged);
        i = j - 1;
    }
}

/* The language's own library macros, in every file; the rest are the
 * tapset directories' NAME.stpm files (define_tapset_macros). */
static const char library_macros[] =
    "@define choose_defined(value_if_defined, alternate) %(\n"
    "    ( @defined(@value_if_defined) ? (@value_if_defined) : (@alternate) ) %)\n"
    "@define cast_sizeof(type) %( ( & @cast(0, @type)[1] ) %)\n"
    "@define cast_module_sizeof(module, type) %( ( & @cast(0, @type, @module)[1] ) %)\n"
    "@define prints(s) %(\n"
    "    printf(\"@count=%d @min=%d @max=%d @sum=%d @avg=%d\\n\",\n"
    "           @count(@s), @min(@s), @max(@s), @sum(@s), @avg(@s)) %)\n"
    "@define prints1(s) %( foreach ([__a] in @s -) { print(\"[\", __a, \"] \") @prints(@s[__a]) } %)\n"
    "@define prints2(s) %( foreach ([__a, __b] in @s -) {\n"
    "    print(\"[\", __a, \",\", __b, \"] \") @prints(@s[__a, __b]) } %)\n";

/* The @define's of tokens (anything else after them is ignored). */
static void define_macros_of(struct pp *pp, const struct token_array *tokens)
{
    int count = tokens->count && tokens->items[tokens->count - 1].kind == YYEOF ? tokens->count - 1 : tokens->count;
    pp_push(pp, tokens->items, count, NULL, pp->eof->span);
    for (const struct token *t = pp_next_raw(pp, NULL); t->kind == AT_DEFINE; t = pp_next_raw(pp, NULL))
        pp_define(pp, t);
    pp->top = NULL;   /* the file's frame is the bottom one, at depth 0 */
}

static int is_macro_file(const struct dirent *entry)
{
    size_t n = strlen(entry->d_name);
    return n > 5 && strcmp(entry->d_name + n - 5, ".stpm") == 0;
}

/* Each tapset directory's NAME.stpm files, in name order; a name an
 * earlier directory has is that one's (as tapset files are). */
static void define_tapset_macros(struct pp *pp, int d)
{
    const char *dir = pp->options->macro_dirs[d];
    struct dirent **entries;
    int n = scandir(dir, &entries, is_macro_file, alphasort);
    for (int i = 0; i < n; i++) {
        int earlier = 0;
        for (int e = 0; e < d && !earlier; e++)
            earlier = access(arena_printf(pp->arena, "%s/%s", pp->options->macro_dirs[e], entries[i]->d_name),
                             F_OK) == 0;
        if (earlier) {
            free(entries[i]);
            continue;
        }
        struct source_file *file = source_from_path(pp->arena, arena_printf(pp->arena, "%s/%s", dir,
                                                                             entries[i]->d_name));
        struct token_array tokens = {0};
        if (file) {
            file->is_tapset = 1;
            if (!lexer_tokenize(pp->arena, pp->diags, file, &tokens))
                define_macros_of(pp, &tokens);
        }
        free(entries[i]);
    }
    if (n >= 0)
        free(entries);
}

static void define_library_macros(struct pp *pp)
{
    struct token_array tokens = {0};
    if (lexer_tokenize_text(pp->arena, pp->diags, library_macros, pp->eof->span, &tokens))
        return;
    define_macros_of(pp, &tokens);
    for (int i = 0; pp->options && i < pp->options->macro_dir_count; i++)
        define_tapset_macros(pp, i);
    for (struct pp_macro *m = pp->macros; m; m = m->next)
        m->library = 1;
}

int preprocess(struct arena *arena, struct diags *diags, const struct parse_options *options,
               const struct token_array *in, struct token_array *out)
{
    struct token_array expanded = {0};
    struct pp pp = { .arena = arena, .diags = diags, .options = options, .out = &expanded };
    pp.eof = &in->items[in->count - 1];
    define_library_macros(&pp);
    pp_push(&pp, in->items, in->count - 1, NULL, pp.eof->span);

    /* Open conditionals: their %( tokens, for "unterminated" messages. */
    const struct token *open[PP_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        const struct token *t = pp_next(&pp);
        if (t->kind == YYEOF) {
            if (depth)
                pp_error(&pp, open[depth - 1]->span, "%s", "unterminated conditional: expected '%)'");
            break;
        }
        if (t->kind == PP_IF) {
            if (depth == PP_MAX_DEPTH) {
                pp_error(&pp, t->span, "%s", "conditionals nested too deeply");
                break;
            }
            const struct token *stopped;
            int cond = pp_condition(&pp, t, &stopped);
            if (stopped && stopped->kind == YYEOF)
                break;          /* reported: not "unterminated" too */
            if (stopped && stopped->kind == PP_END)
                continue;       /* `%( COND %)`: reported, and closed */
            open[depth++] = t;
            if (stopped)
                continue;       /* `%( COND %:`: in the else branch */
            if (!cond && pp_skip(&pp, 1)->kind == PP_END)
                depth--;
        } else if (t->kind == PP_ELSE && depth) {
            if (pp_skip(&pp, 0)->kind == PP_END)
                depth--;
        } else if (t->kind == PP_END && depth) {
            depth--;
        } else if (t->kind == PP_THEN || t->kind == PP_ELSE || t->kind == PP_END) {
            pp_error(&pp, t->span, "%s", "unexpected preprocessor token outside '%( %)'");
        } else {
            pp_emit(&pp, t);
        }
    }
    token_array_push(arena, &expanded, pp.eof);
    pp_cook_probe_headers(&pp, &expanded, out);
    return pp.errors;
}

/* strverscmp orders "2.6.9" < "2.6.30" and "5.10" < "5.10.1". */
int pp_version_compare(const char *a, const char *b)
{
    int r = strverscmp(a, b);
    return r < 0 ? -1 : r > 0;
}
