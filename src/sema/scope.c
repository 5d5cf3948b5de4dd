/* Symbols: globals, functions, and the locals of each probe or function body. */
#include <string.h>

#include "base/strbuf.h"
#include "sema/builtins.h"
#include "sema/sema_internal.h"

#define GROW(s, array, count, capacity)                                                   \
    do {                                                                                  \
        if ((count) == (capacity)) {                                                      \
            int new_capacity = (capacity) ? (capacity) * 2 : 16;                          \
            (array) = arena_realloc((s)->arena, (array), sizeof(*(array)) * (size_t)(capacity), \
                                    sizeof(*(array)) * (size_t)new_capacity);             \
            (capacity) = new_capacity;                                                    \
        }                                                                                 \
    } while (0)

struct symbol *sema_find_global(struct sema *s, const char *name)
{
    for (int i = 0; i < s->script->global_count; i++)
        if (strcmp(s->script->globals[i]->name, name) == 0)
            return s->script->globals[i];
    return NULL;
}

struct function_decl *sema_find_function(struct sema *s, const char *name)
{
    for (int i = 0; i < s->script->function_count; i++)
        if (strcmp(s->script->functions[i]->name, name) == 0)
            return s->script->functions[i];
    return NULL;
}

/* The first function NAME taking ARITY arguments: the head of its chain of
 * same-signature overloads. */
struct function_decl *sema_find_overload(struct sema *s, const char *name, int arity)
{
    for (int i = 0; i < s->script->function_count; i++) {
        struct function_decl *fn = s->script->functions[i];
        if (fn->param_count == arity && strcmp(fn->name, name) == 0)
            return fn;
    }
    return NULL;
}

static int function_name_count(struct sema *s, const char *name)
{
    int count = 0;
    for (int i = 0; i < s->script->function_count; i++)
        count += strcmp(s->script->functions[i]->name, name) == 0;
    return count;
}

struct symbol *sema_find_local(struct frame_layout *frame, const char *name)
{
    for (int i = 0; i < frame->local_count; i++)
        if (strcmp(frame->locals[i]->name, name) == 0)
            return frame->locals[i];
    return NULL;
}

struct symbol *sema_add_local(struct sema *s, struct frame_layout *frame, enum symbol_kind kind,
                              const char *name, struct span span)
{
    struct symbol *sym = ARENA_NEW(s->arena, struct symbol);
    sym->kind = kind;
    sym->name = name;
    sym->span = span;
    sym->local_index = frame->local_count;
    GROW(s, frame->locals, frame->local_count, frame->local_capacity);
    frame->locals[frame->local_count++] = sym;
    return sym;
}

static enum value_type literal_type(const struct expr *e)
{
    if (!e)
        return TYPE_UNKNOWN;
    return e->kind == EXPR_STRING ? TYPE_STRING : TYPE_LONG;
}

void sema_add_global(struct sema *s, struct decl *decl)
{
    struct symbol *old = sema_find_global(s, decl->global.name);
    if (old) {
        diag_error(s->diags, decl->span, "duplicate global variable '%s'", decl->global.name);
        return;
    }
    struct symbol *sym = ARENA_NEW(s->arena, struct symbol);
    sym->kind = SYMBOL_GLOBAL;
    sym->name = decl->global.name;
    sym->span = decl->span;
    sym->is_array = decl->global.is_array;
    sym->max_entries = decl->global.max_entries;
    sym->wrap = decl->global.wrap;
    sym->init = decl->global.init;
    sym->type = literal_type(decl->global.init);
    sym->global_index = s->script->global_count;
    decl->global.symbol = sym;
    struct script *script = s->script;
    GROW(s, script->globals, script->global_count, s->global_capacity);
    script->globals[script->global_count++] = sym;
}

static enum value_type declared_type(enum param_type_decl declared)
{
    switch (declared) {
    case PARAM_TYPE_LONG: return TYPE_LONG;
    case PARAM_TYPE_STRING: return TYPE_STRING;
    case PARAM_TYPE_NONE: break;
    }
    return TYPE_UNKNOWN;
}

void sema_add_function(struct sema *s, struct decl *decl)
{
    if (builtin_lookup(decl->function.name)) {
        diag_error(s->diags, decl->span, "function '%s' has the name of a built-in function",
                   decl->function.name);
        return;
    }
    struct function_decl *fn = ARENA_NEW(s->arena, struct function_decl);
    fn->decl = decl;
    fn->name = decl->function.name;
    fn->return_type = declared_type(decl->function.declared_return);
    fn->is_builtin_tapset = decl->span.file && decl->span.file->is_tapset;
    fn->params = ARENA_ARRAY(s->arena, struct symbol *, decl->function.param_count + 1);
    for (struct param *p = decl->function.params; p; p = p->next) {
        if (sema_find_local(&fn->frame, p->name)) {
            diag_error(s->diags, p->span, "duplicate parameter '%s'", p->name);
            continue;
        }
        struct symbol *sym = sema_add_local(s, &fn->frame, SYMBOL_PARAM, p->name, p->span);
        sym->type = declared_type(p->declared);
        p->symbol = sym;
        fn->params[fn->param_count++] = sym;
    }
    decl->function.sema = fn;
    fn->overload_index = function_name_count(s, fn->name);
    struct function_decl *same = sema_find_overload(s, fn->name, fn->param_count);
    while (same && same->next_overload)
        same = same->next_overload;
    if (same)
        same->next_overload = fn;
    struct script *script = s->script;
    GROW(s, script->functions, script->function_count, s->function_capacity);
    script->functions[script->function_count++] = fn;
}

/* Levenshtein distance, capped: enough to suggest near-misses. */
int sema_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *sema_similar_names(struct sema *s, const char *name, int functions)
{
    struct strbuf sb;
    strbuf_init(&sb);
    int found = 0;
    int limit = (int)strlen(name) / 3 + 1;
    if (functions) {
        for (int i = 0; i < s->script->function_count && found < 5; i++) {
            const char *candidate = s->script->functions[i]->name;
            if (sema_edit_distance(name, candidate) <= limit) {
                strbuf_printf(&sb, "%s%s", found++ ? ", " : "", candidate);
            }
        }
        const struct builtin *b;
        for (int i = 0; (b = builtin_at(i)) && found < 5; i++)
            if (sema_edit_distance(name, b->name) <= limit)
                strbuf_printf(&sb, "%s%s", found++ ? ", " : "", b->name);
    } else {
        for (int i = 0; i < s->script->global_count && found < 5; i++) {
            const char *candidate = s->script->globals[i]->name;
            if (sema_edit_distance(name, candidate) <= limit)
                strbuf_printf(&sb, "%s%s", found++ ? ", " : "", candidate);
        }
    }
    const char *result = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return result;
}
