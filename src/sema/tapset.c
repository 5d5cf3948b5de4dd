/* Tapsets and probe aliases. Every *.tp / *.stp file of the tapset
 * directories is parsed once, the first time a script names something it does
 * not define itself (an alias or a function). A file is brought into the
 * script (its globals and functions) only when one of its names is used;
 * functions are then resolved lazily, when first called (resolve.c).
 *
 * `probe NAME = PP { prologue }` and `probe NAME += PP { epilogue }`: a user
 * probe on NAME (wildcards allowed: syscall.*) becomes a probe on PP whose body
 * is a fresh copy of prologue + handler (or handler + epilogue), with one
 * frame, so the alias's locals (name, argstr ...) are the handler's too. */
#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "parser/parse.h"
#include "sema/sema_internal.h"

#define MAX_ALIAS_DEPTH 16

struct tapset_file {
    const char *base;            /* file name without the directory */
    struct ast *ast;
    int loaded;                  /* its globals and functions are in the script */
};

struct alias_def {
    struct decl *decl;
    struct tapset_file *file;    /* NULL for the user's own aliases */
};

struct tapsets {
    struct tapset_file *files;
    int file_count;
    int scanned;
    struct alias_def *aliases;
    int alias_count, alias_capacity;
    int depth;                   /* alias expansion nesting */
    struct decl **pending;       /* probes of files loaded, not resolved yet */
    int pending_count;
};

static struct tapsets *tapsets_of(struct sema *s)
{
    if (!s->tapsets)
        s->tapsets = ARENA_NEW(s->arena, struct tapsets);
    return s->tapsets;
}

static void add_alias(struct sema *s, struct decl *decl, struct tapset_file *file)
{
    struct tapsets *t = tapsets_of(s);
    if (t->alias_count == t->alias_capacity) {
        int capacity = t->alias_capacity ? t->alias_capacity * 2 : 256;
        t->aliases = arena_realloc(s->arena, t->aliases, sizeof(*t->aliases) * (size_t)t->alias_capacity,
                                   sizeof(*t->aliases) * (size_t)capacity);
        t->alias_capacity = capacity;
    }
    t->aliases[t->alias_count++] = (struct alias_def){decl, file};
}

void sema_add_alias(struct sema *s, struct decl *decl)
{
    add_alias(s, decl, NULL);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_tapset_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 3 &&
           (strcmp(name + n - 3, ".tp") == 0 || (n > 4 && strcmp(name + n - 4, ".stp") == 0));
}

/* Files of one directory, in name order, so loading is deterministic. */
static void scan_dir(struct sema *s, const char *dir)
{
    struct tapsets *t = tapsets_of(s);
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    int count = 0, capacity = 0;
    for (struct dirent *entry; (entry = readdir(d));) {
        if (!is_tapset_name(entry->d_name))
            continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            names = realloc(names, sizeof(*names) * (size_t)capacity);
        }
        names[count++] = arena_printf(s->arena, "%s/%s", dir, entry->d_name);
    }
    closedir(d);
    if (count)
        qsort(names, (size_t)count, sizeof(*names), compare_names);
    for (int i = 0; i < count; i++) {
        /* A file name seen in an earlier directory is overridden there (-I
         * first; an installed copy and the source tree are not both loaded). */
        const char *base = strrchr(names[i], '/') + 1;
        int seen = 0;
        for (int j = 0; j < t->file_count && !seen; j++)
            seen = strcmp(t->files[j].base, base) == 0;
        if (seen)
            continue;
        struct source_file *file = source_from_path(s->arena, names[i]);
        if (!file)
            continue;
        file->is_tapset = 1;
        struct parse_options options = {.args = s->options->args, .arg_count = s->options->arg_count};
        struct ast *ast = parse_source(s->arena, s->diags, file, &options);
        if (!ast)
            continue;
        t->files = arena_realloc(s->arena, t->files, sizeof(*t->files) * (size_t)t->file_count,
                                 sizeof(*t->files) * (size_t)(t->file_count + 1));
        t->files[t->file_count++] = (struct tapset_file){.base = base, .ast = ast};
    }
    free(names);
}

static void scan(struct sema *s)
{
    struct tapsets *t = tapsets_of(s);
    if (t->scanned)
        return;
    t->scanned = 1;
    /* -I directories come first: their definitions win. */
    for (int i = 0; i < s->options->tapset_dir_count; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= strcmp(s->options->tapset_dirs[i], s->options->tapset_dirs[j]) == 0;
        if (!seen)
            scan_dir(s, s->options->tapset_dirs[i]);
    }
    for (int i = 0; i < t->file_count; i++)
        for (struct decl *d = t->files[i].ast->decls; d; d = d->next)
            if (d->kind == DECL_ALIAS)
                add_alias(s, d, &t->files[i]);
}

/* A probe resolved by sema_resolve_tapset_probes, outside the body being
 * resolved. */
static void add_pending(struct sema *s, struct decl *d)
{
    struct tapsets *t = tapsets_of(s);
    t->pending = arena_realloc(s->arena, t->pending, sizeof(*t->pending) * (size_t)t->pending_count,
                               sizeof(*t->pending) * (size_t)(t->pending_count + 1));
    t->pending[t->pending_count++] = d;
}

/* Brings a tapset file's globals and functions into the script. */
static void load_file(struct sema *s, struct tapset_file *file)
{
    if (!file || file->loaded)
        return;
    file->loaded = 1;
    for (struct decl *d = file->ast->decls; d; d = d->next) {
        switch (d->kind) {
        case DECL_GLOBAL:
            if (!sema_find_global(s, d->global.name))
                sema_add_global(s, d);
            break;
        case DECL_FUNCTION:
            if (!sema_find_overload(s, d->function.name, d->function.param_count))   /* the user's own wins */
                sema_add_function(s, d);
            break;
        case DECL_EMBEDDED:
            diag_error(s->diags, d->span,
                       "embedded C (%%{ %%}) is not available: tap runs scripts as BPF programs, with no guru mode");
            break;
        case DECL_PROBE:
            /* its own probes (SystemTap's target_set.stp has some) */
            add_pending(s, d);
            break;
        case DECL_ALIAS:
            break;
        }
    }
}

int sema_resolve_tapset_probes(struct sema *s)
{
    struct tapsets *t = tapsets_of(s);
    int resolved = 0;
    while (resolved < t->pending_count)
        sema_resolve_probe(s, t->pending[resolved++]);
    t->pending_count = 0;
    return resolved;
}

/* Loads the tapset file that declares a public NAME of this kind; 0 when none does. */
static int load_declaring_file(struct sema *s, enum decl_kind kind, const char *name)
{
    scan(s);
    struct tapsets *t = tapsets_of(s);
    for (int i = 0; i < t->file_count; i++) {
        for (struct decl *d = t->files[i].ast->decls; d; d = d->next) {
            const char *declared = d->kind == DECL_FUNCTION ? d->function.name
                                   : d->kind == DECL_GLOBAL ? d->global.name : NULL;
            if (d->kind == kind && !(kind == DECL_GLOBAL && d->is_private) && strcmp(declared, name) == 0) {
                load_file(s, &t->files[i]);
                return 1;
            }
        }
    }
    return 0;
}

struct function_decl *sema_tapset_function(struct sema *s, const char *name)
{
    return load_declaring_file(s, DECL_FUNCTION, name) ? sema_find_function(s, name) : NULL;
}

struct symbol *sema_tapset_global(struct sema *s, const char *name)
{
    return load_declaring_file(s, DECL_GLOBAL, name) ? sema_find_global(s, name) : NULL;
}

void sema_tapset_each_decl(struct sema *s, void (*visit)(void *context, const struct decl *decl), void *context)
{
    scan(s);
    struct tapsets *t = tapsets_of(s);
    for (int i = 0; i < t->file_count; i++)
        for (const struct decl *d = t->files[i].ast->decls; d; d = d->next)
            visit(context, d);
}

/* Does the user's point (wildcards allowed) start with this alias's name?
 * *suffix: the point's components after it (NULL: the point is the name). */
static int alias_prefix_matches(const struct probe_point *name, const struct probe_point *point,
                                const struct probe_component **suffix)
{
    const struct probe_component *a = name->components, *p = point->components;
    for (; a && p; a = a->next, p = p->next) {
        if (fnmatch(p->name, a->name, 0) != 0 || a->arg_kind != p->arg_kind)
            return 0;
        if (a->arg_kind == PROBE_ARG_INT && a->arg_int != p->arg_int)
            return 0;
        if (a->arg_kind == PROBE_ARG_STRING && strcmp(a->arg_string, p->arg_string) != 0)
            return 0;
    }
    *suffix = p;
    return !a;
}

/* Does the user's point (wildcards allowed) name this alias? */
static int alias_name_matches(const struct probe_point *name, const struct probe_point *point)
{
    const struct probe_component *suffix;
    return alias_prefix_matches(name, point, &suffix) && !suffix;
}

/* `miscellany.return` on `miscellany = syscall.{open,close}`: the alias's
 * target point with the user's suffix after it (syscall.open.return). */
static struct probe_component *with_suffix(struct sema *s, const struct probe_component *target,
                                           struct probe_component *suffix)
{
    if (!target)
        return suffix;
    struct probe_component *copy = ARENA_NEW(s->arena, struct probe_component);
    *copy = *target;
    copy->next = with_suffix(s, target->next, suffix);
    return copy;
}

/* The alias this point names, or failing that (SystemTap's alias suffixes)
 * the alias its first components name: -1 when none. */
static int find_alias(struct tapsets *t, const struct probe_point *point, int from, int by_prefix,
                      const struct probe_component **suffix)
{
    for (int i = from; i < t->alias_count; i++)
        for (struct probe_point *name = t->aliases[i].decl->alias.names; name; name = name->next)
            if (alias_prefix_matches(name, point, suffix) && (by_prefix ? *suffix != NULL : *suffix == NULL))
                return i;
    return -1;
}

static struct stmt *block_of(struct sema *s, struct stmt *first, struct stmt *second, struct span span)
{
    struct stmt *block = ARENA_NEW(s->arena, struct stmt);
    block->kind = STMT_BLOCK;
    block->span = span;
    first->next = second;
    block->block.body = first;
    return block;
}

/* prologue + handler, or handler + epilogue, in fresh nodes. The alias's
 * own @entry values at `target`, a syscall's return, are taken at its entry
 * (syscall_entry.c): by a probe of this expansion's, with its maps. */
static struct stmt *compose(struct sema *s, const struct decl *alias, const struct stmt *body,
                            const struct probe_point *target)
{
    struct stmt *own = sema_clone_stmt(s->arena, alias->alias.body);
    for (struct decl *d = sema_take_entry_values(s, target, target->next, own), *next; d; d = next) {
        next = d->next;
        d->next = NULL;
        if (d->kind == DECL_GLOBAL)
            sema_add_global(s, d);
        else
            add_pending(s, d);
    }
    struct stmt *user = sema_clone_stmt(s->arena, body);
    return alias->alias.is_epilogue ? block_of(s, user, own, body->span)
                                    : block_of(s, own, user, body->span);
}

static const struct probe_point *name_of(const struct decl *alias, const struct probe_point *point)
{
    for (const struct probe_point *name = alias->alias.names; name; name = name->next)
        if (alias_name_matches(name, point))
            return name;
    return alias->alias.names;
}

int sema_expand_alias(struct sema *s, struct probe_point *point, struct stmt *body)
{
    const char *head = point->components->name;
    if (strchr(head, '*') || strchr(head, '?') || strchr(head, '['))
        return -1;   /* keep scans for names that could be aliases */
    scan(s);
    struct tapsets *t = tapsets_of(s);
    int matched = 0, added = 0;
    const struct probe_component *suffix;
    int by_prefix = find_alias(t, point, 0, 0, &suffix) < 0;
    for (int i = find_alias(t, point, 0, by_prefix, &suffix); i >= 0;
         i = find_alias(t, point, i + 1, by_prefix, &suffix)) {
        struct decl *alias = t->aliases[i].decl;
        matched = 1;
        if (t->depth >= MAX_ALIAS_DEPTH) {
            diag_error(s->diags, point->span, "probe alias expansion is too deep (recursive alias?)");
            return 0;
        }
        load_file(s, t->aliases[i].file);
        int first = s->script->probe_count, errors = s->diags->error_count;
        t->depth++;
        for (struct probe_point *target = alias->alias.points; target; target = target->next) {
            struct probe_point inner = *target;
            if (suffix)   /* copied: each target point gets its own */
                inner.components = with_suffix(s, target->components,
                                               with_suffix(s, suffix, NULL));
            if (point->condition)   /* the user's `if`: one copy per expansion, bound in its frame */
                inner.condition = sema_clone_expr(s->arena, point->condition);
            inner.optional |= point->optional;
            int n = sema_resolve_point(s, &inner, compose(s, alias, body, &inner),
                                       ARENA_NEW(s->arena, struct frame_layout));
            added += n;
            if (n && target->sufficient)
                break;
        }
        t->depth--;
        /* the error is at the alias's point in a tapset: say which alias of
         * the user's script led there */
        if (s->diags->error_count > errors && t->depth == 0)
            diag_error(s->diags, point->span, "probe alias %s cannot be used here (its points failed above)",
                       sema_point_text(s, name_of(alias, point)));
        /* the outermost alias names the probes (listings) */
        for (int p = first; p < s->script->probe_count; p++)
            s->script->probes[p]->alias_point = sema_point_text(s, name_of(alias, point));
    }
    return matched ? added : -1;
}
