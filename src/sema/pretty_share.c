/* Shared pretty printers: the text of a struct or union in memory ($v$,
 * $v$$, $$parms$ ...), as target_pretty.c (DWARF) and tracepoint_args.c
 * (BTF) build it, becomes a function of its address. Many probes print the
 * same types (every function of a file taking a `struct file *`), and
 * identical printers are one function: LLVM compiles it once, where it
 * compiled a copy in each probe's program.
 *
 * Identical means the same expression tree, node for node, spans included
 * (a fault is reported at its span), so a call prints exactly what the
 * inline code printed. A tree with anything that depends on the probe (a
 * register, the context record) or that this file does not know stays
 * inline. The functions are tapset-like: resolved when first called, named
 * __tap_pretty_N, called only by probes (one BPF call frame, two with
 * _tap_char_quoted; codegen inlines them where the call chain would be too
 * deep, as any function). */
#include <stdint.h>
#include <string.h>

#include "base/strbuf.h"
#include "sema/sema_internal.h"

#define PRETTY_PARAM "__tap_pretty_address"

struct pretty_printer {
    uint64_t hash;
    const char *key;
    struct function_decl *fn;
};

struct pretty_printers {
    struct pretty_printer *items;
    int count, capacity;
    int next_name;
};

static int known_call(const char *name)
{
    static const char *const names[] = {"__tap_format", "user_string_quoted", "user_string_n_quoted",
                                        "kernel_string_quoted", "kernel_string_n_quoted", "_tap_char_quoted"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

static void key_span(struct strbuf *key, struct span span)
{
    strbuf_printf(key, "@%p:%d:%d:%d:%d:%p", (const void *)span.file, span.line, span.col, span.len,
                  span.token_class, (const void *)span.expanded_from);
}

/* The tree's text into key; 0 when it cannot be shared. */
static int key_expr(struct strbuf *key, const struct expr *e, const struct expr *param, int depth)
{
    if (!e || depth > 200)
        return 0;
    strbuf_printf(key, "(%d,%d", (int)e->kind, (int)e->type);
    key_span(key, e->span);
    switch (e->kind) {
    case EXPR_INT:
        strbuf_printf(key, " %lld", (long long)e->int_value);
        break;
    case EXPR_STRING:
        strbuf_printf(key, " %d:", e->string.len);
        for (int i = 0; i < e->string.len; i++)
            strbuf_putc(key, e->string.value[i]);
        break;
    case EXPR_IDENT:   /* the parameter, or a copy of it (a char array's bound read) */
        if (e != param && strcmp(e->ident.name, param->ident.name) != 0)
            return 0;
        break;
    case EXPR_UNARY:
        strbuf_printf(key, " %d", (int)e->unary.op);
        if (!key_expr(key, e->unary.operand, param, depth + 1))
            return 0;
        break;
    case EXPR_BINARY:
        strbuf_printf(key, " %d", (int)e->binary.op);
        if (!key_expr(key, e->binary.lhs, param, depth + 1) || !key_expr(key, e->binary.rhs, param, depth + 1))
            return 0;
        break;
    case EXPR_CALL: {
        if (!known_call(e->call.name))
            return 0;
        strbuf_printf(key, " %s/%d", e->call.name, e->call.arg_count);
        int count = 0;
        for (const struct expr *a = e->call.args; a; a = a->next, count++)
            if (!key_expr(key, a, param, depth + 1))
                return 0;
        if (count != e->call.arg_count)
            return 0;
        break;
    }
    case EXPR_USER_READ:
        strbuf_printf(key, " %d,%d,%d", e->user_read.size, e->user_read.is_signed, e->user_read.kernel);
        if (!key_expr(key, e->user_read.address, param, depth + 1))
            return 0;
        break;
    case EXPR_CTX_READ:
        if (e->ctx_read.kind != CTX_READ_KERNEL_LONG && e->ctx_read.kind != CTX_READ_KERNEL_CHARS)
            return 0;
        strbuf_printf(key, " %d,%d,%d,%d", (int)e->ctx_read.kind, e->ctx_read.offset, e->ctx_read.size,
                      e->ctx_read.is_signed);
        if (!key_expr(key, e->ctx_read.address, param, depth + 1))
            return 0;
        break;
    default:   /* registers, context fields, anything else: the probe's own */
        return 0;
    }
    strbuf_putc(key, ')');
    return 1;
}

static uint64_t hash_text(const char *text, size_t len)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
    return h;
}

struct expr *sema_pretty_parameter(struct sema *s, struct span span)
{
    struct expr *e = ast_expr(s->arena, EXPR_IDENT, span);
    e->ident.name = PRETTY_PARAM;
    e->type = TYPE_LONG;
    return e;
}

static struct function_decl *new_printer(struct sema *s, struct span span, struct expr *body, int faults_in)
{
    struct pretty_printers *printers = s->pretty_printers;
    const char *name;
    do
        name = arena_printf(s->arena, "__tap_pretty_%d", printers->next_name++);
    while (sema_find_function(s, name));
    struct param *param = ARENA_NEW(s->arena, struct param);
    param->name = PRETTY_PARAM;
    param->span = span;
    param->declared = PARAM_TYPE_LONG;
    struct stmt *ret = ast_stmt(s->arena, STMT_RETURN, span);
    ret->expr = body;
    struct stmt *block = ast_stmt(s->arena, STMT_BLOCK, span);
    block->block.body = ret;
    struct decl *decl = ast_decl(s->arena, DECL_FUNCTION, span);
    decl->function.name = name;
    decl->function.declared_return = PARAM_TYPE_STRING;
    decl->function.params = param;
    decl->function.param_count = 1;
    decl->function.body = block;
    sema_add_function(s, decl);
    struct function_decl *fn = decl->function.sema;
    if (!fn)
        return NULL;
    fn->is_builtin_tapset = 1;   /* resolved when called; never reported unused */
    fn->faults_in = faults_in;
    return fn;
}

struct expr *sema_share_pretty(struct sema *s, struct span span, struct expr *body, struct expr *param,
                               struct expr *address)
{
    if (!body || !address)
        return NULL;
    /* user string reads fault pages in where the inline code would: in a
     * sleepable uprobe's own code, not in a function's (codegen/probed_thread.c) */
    int in_function = s->function && s->function->decl;
    int faults_in = !in_function && s->probe ? probe_uprobe(s->probe)->sleepable : 0;
    struct strbuf key;
    strbuf_init(&key);
    strbuf_printf(&key, "%d", faults_in);
    if (!key_expr(&key, body, param, 0)) {
        strbuf_free(&key);
        return NULL;
    }
    if (!s->pretty_printers)
        s->pretty_printers = ARENA_NEW(s->arena, struct pretty_printers);
    struct pretty_printers *printers = s->pretty_printers;
    uint64_t hash = hash_text(key.data, key.len);
    struct function_decl *fn = NULL;
    for (int i = 0; i < printers->count && !fn; i++)
        if (printers->items[i].hash == hash && strcmp(printers->items[i].key, key.data) == 0)
            fn = printers->items[i].fn;
    if (!fn) {
        fn = new_printer(s, span, body, faults_in);
        if (!fn) {
            strbuf_free(&key);
            return NULL;
        }
        if (printers->count == printers->capacity) {
            int capacity = printers->capacity ? printers->capacity * 2 : 16;
            printers->items = arena_realloc(s->arena, printers->items,
                                            sizeof(*printers->items) * (size_t)printers->capacity,
                                            sizeof(*printers->items) * (size_t)capacity);
            printers->capacity = capacity;
        }
        printers->items[printers->count++] = (struct pretty_printer){hash, arena_strdup(s->arena, key.data), fn};
    }
    strbuf_free(&key);
    struct expr *call = ast_expr(s->arena, EXPR_CALL, span);
    call->call.name = fn->name;
    call->call.args = sema_clone_expr(s->arena, address);
    call->call.args->next = NULL;
    call->call.arg_count = 1;
    call->type = TYPE_STRING;
    return call;
}
