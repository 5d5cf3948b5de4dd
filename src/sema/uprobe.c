/* process("PATH").function("PAT")[.call|.return|.inline|.exported] and
 * process("PATH").statement("PAT"|ADDR): one probe per matched function or
 * line, each with its own copy of the body (target variables are lowered
 * per address). Where an entry probe sits is a cost decision: the first
 * instruction (an emulated push, cheap) when the handler reads only
 * integer-class parameters, which are in the ABI registers there; after the
 * prologue (single-stepped, 18 times dearer) when it needs anything else. */
#include <dwarf.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/demangle.h"
#include "base/strbuf.h"
#include "sema/process_glob.h"
#include "sema/uprobe_returns.h"
#include "sema/usdt.h"

static int point_error(struct sema *s, struct probe_point *point, struct span span, const char *message)
{
    if (!point->optional)
        diag_error(s->diags, span, "%s", message);
    return 0;
}

/* "A::B::f" into scopes "A", "B" and the name "f", as SystemTap's
 * parse_function_spec does; a mangled name stays whole. */
static void split_scopes(struct arena *arena, const char *name, struct function_pattern *out)
{
    out->function = name;
    out->mangled = demangle_is_mangled(name);
    if (out->mangled)
        return;
    int count = 0;
    for (const char *p = demangle_next_separator(name); p; p = demangle_next_separator(p + 2))
        count++;
    if (!count)
        return;
    out->scopes = ARENA_ARRAY(arena, const char *, count);
    const char *start = name;
    for (const char *p = demangle_next_separator(name); p; p = demangle_next_separator(start)) {
        out->scopes[out->scope_count++] = arena_strndup(arena, start, (size_t)(p - start));
        start = p + 2;
    }
    out->function = start;
}

void uprobe_parse_pattern(struct arena *arena, const char *text, struct function_pattern *out)
{
    memset(out, 0, sizeof(*out));
    const char *at = strchr(text, '@');
    if (!at) {
        split_scopes(arena, text, out);
        return;
    }
    split_scopes(arena, arena_strndup(arena, text, (size_t)(at - text)), out);
    const char *colon = strrchr(at, ':');
    if (!colon) {
        out->file = at + 1;
        return;
    }
    out->file = arena_strndup(arena, at + 1, (size_t)(colon - at - 1));
    if (strcmp(colon + 1, "*") == 0)
        out->any_line = 1;
    else if (strspn(colon + 1, "0123456789") == strlen(colon + 1))
        out->line = atoi(colon + 1);
    else
        out->line_text = colon + 1;
}

/* process("PATH"), process(PID), or process with -c/-x naming the binary. */
const char *uprobe_process_path(struct sema *s, const struct probe_component *c)
{
    if (c->arg_kind == PROBE_ARG_STRING)
        return c->arg_string;
    int pid = c->arg_kind == PROBE_ARG_INT ? (int)c->arg_int : s->options->target_pid;
    if (pid > 0)
        return arena_printf(s->arena, "/proc/%d/exe", pid);
    const char *command = s->options->target_command;
    if (!command)
        return NULL;
    while (*command == ' ' || *command == '\t')
        command++;
    size_t len = strcspn(command, " \t");
    return len ? arena_strndup(s->arena, command, len) : NULL;
}

static int read_point(struct sema *s, struct probe_point *point, struct process_point *out)
{
    memset(out, 0, sizeof(*out));
    struct probe_component *c = point->components;
    out->path = uprobe_process_path(s, c);
    if (!out->path)
        return point_error(s, point, c->span,
                           "while resolving probe point: process probes need a path, as in process(\"./prog\"), "
                           "or -c CMD / -x PID");
    c = c->next;
    if (c && strcmp(c->name, "library") == 0 && c->arg_kind == PROBE_ARG_STRING) {
        out->library = c->arg_string;
        c = c->next;
    }
    if (c && strcmp(c->name, "provider") == 0 && c->arg_kind == PROBE_ARG_STRING) {
        out->provider = c->arg_string;
        c = c->next;
    }
    int mark = c && strcmp(c->name, "mark") == 0 && c->arg_kind == PROBE_ARG_STRING;
    if (!c || (strcmp(c->name, "function") != 0 && strcmp(c->name, "statement") != 0 && !mark) ||
        c->arg_kind == PROBE_ARG_NONE || (out->provider && !mark))
        return point_error(s, point, c ? c->span : point->components->span,
                           arena_printf(s->arena, "while resolving probe point: process probe %s is not supported "
                                        "(use .function(\"PAT\"), .statement(\"PAT\") or .mark(\"NAME\"))",
                                        c ? c->name : "without a function"));
    out->kind = c->name;
    out->kind_component = c;
    if (c->arg_kind == PROBE_ARG_INT) {
        out->has_address = 1;
        out->address = (uint64_t)c->arg_int;
    } else {
        uprobe_parse_pattern(s->arena, c->arg_string, &out->pattern);
    }
    c = c->next;
    if (c && mark)
        return point_error(s, point, c->span,
                           arena_printf(s->arena, "while resolving probe point: unknown process probe "
                                        "component %s after .mark", c->name));
    if (c) {
        static const char *suffixes[] = {"call", "return", "inline", "exported"};
        for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
            if (strcmp(c->name, suffixes[i]) == 0 && c->arg_kind == PROBE_ARG_NONE &&
                strcmp(out->kind, "function") == 0)
                out->suffix = suffixes[i];
        if (!out->suffix || c->next)
            return point_error(s, point, c->span,
                               arena_printf(s->arena, "while resolving probe point: unknown process probe "
                                            "component %s", c->name));
    }
    return 1;
}

/* fnmatch with SystemTap's {a,b} alternatives (probes.md): the first
 * brace group is expanded and each alternative matched in turn. */
static int pattern_matches(const char *pattern, const char *text)
{
    const char *open = strchr(pattern, '{');
    const char *close = open ? strchr(open, '}') : NULL;
    if (!close)
        return fnmatch(pattern, text, 0) == 0;
    size_t prefix = (size_t)(open - pattern);
    for (const char *alt = open + 1; alt <= close;) {
        const char *end = alt;
        while (end < close && *end != ',')
            end++;
        size_t alt_len = (size_t)(end - alt), rest = strlen(close + 1);
        char *expanded = malloc(prefix + alt_len + rest + 1);
        memcpy(expanded, pattern, prefix);
        memcpy(expanded + prefix, alt, alt_len);
        memcpy(expanded + prefix + alt_len, close + 1, rest + 1);
        int matched = pattern_matches(expanded, text);
        free(expanded);
        if (matched)
            return 1;
        alt = end + 1;
    }
    return 0;
}

static int file_matches(const char *pattern, const char *file)
{
    if (!pattern)
        return 1;
    if (!file)
        return 0;
    if (pattern_matches(pattern, file))
        return 1;
    /* "t.c" names ".../t.c": compare against each path suffix after a '/'. */
    for (const char *p = strchr(file, '/'); p; p = strchr(p + 1, '/'))
        if (pattern_matches(pattern, p + 1))
            return 1;
    return 0;
}

/* "20", "2*" (a wildcard on the digits) or "20-30" (a range). */
int uprobe_line_matches(const struct function_pattern *pattern, int line)
{
    if (pattern->any_line)
        return 1;
    if (!pattern->line_text)
        return !pattern->line || line == pattern->line;
    int low, high;
    char text[16];
    if (sscanf(pattern->line_text, "%d-%d", &low, &high) == 2)
        return line >= low && line <= high;
    snprintf(text, sizeof(text), "%d", line);
    return fnmatch(pattern->line_text, text, 0) == 0;
}

enum { MAX_SCOPE_PARTS = 32 };

/* The parts of `scope` ("shop", "Cart"), outermost first. */
static int scope_parts(const char *scope, const char **starts, size_t *lens)
{
    int count = 0;
    for (const char *start = scope; start && count < MAX_SCOPE_PARTS;) {
        const char *p = demangle_next_separator(start);
        starts[count] = start;
        lens[count++] = p ? (size_t)(p - start) : strlen(start);
        start = p ? p + 2 : NULL;
    }
    return count;
}

/* SystemTap's function_scope_matches: each scope the pattern names matches
 * the function's enclosing one at that depth, innermost last; past the
 * global scope there is one more, named "" ("*::f" and "::f" match a
 * global f). */
static int scopes_match(const struct function_pattern *pattern, const char *scope)
{
    const char *starts[MAX_SCOPE_PARTS];
    size_t lens[MAX_SCOPE_PARTS];
    int have = scope_parts(scope, starts, lens);
    for (int i = 0; i < pattern->scope_count; i++) {   /* i: 0 is the innermost */
        const char *want = pattern->scopes[pattern->scope_count - 1 - i];
        char name[256] = "";
        if (i < have)
            snprintf(name, sizeof(name), "%.*s", (int)lens[have - 1 - i], starts[have - 1 - i]);
        int matched = strpbrk(want, "*?[{") ? pattern_matches(want, name) : strcmp(want, name) == 0;
        if (!matched || (i >= have && i + 1 < pattern->scope_count))
            return 0;
    }
    return 1;
}

static int name_matches(const struct function_pattern *pattern, const struct dwarf_function *f)
{
    if (pattern->mangled)
        return f->linkage_name && pattern_matches(pattern->function, f->linkage_name);
    /* a demangled symbol's name holds its scope too ("shop::Cart::add") */
    const char *name = f->die_offset || !f->scope ? f->name : f->name + strlen(f->scope) + 2;
    return pattern_matches(pattern->function, name) && (!pattern->scope_count || scopes_match(pattern, f->scope));
}

int uprobe_function_matches(const struct function_pattern *pattern, const struct dwarf_function *f)
{
    if (!name_matches(pattern, f))
        return 0;
    if (pattern->file && !file_matches(pattern->file, f->decl_file))
        return 0;
    return uprobe_line_matches(pattern, f->decl_line);
}

const char *uprobe_function_point_name(struct arena *arena, const struct function_pattern *pattern,
                                       const struct dwarf_function *f)
{
    if (pattern->mangled && f->linkage_name)
        return f->linkage_name;
    if (!f->die_offset || !pattern->scope_count)
        return f->name;
    const char *starts[MAX_SCOPE_PARTS];
    size_t lens[MAX_SCOPE_PARTS];
    int have = scope_parts(f->scope, starts, lens);
    struct strbuf sb;
    strbuf_init(&sb);
    for (int i = pattern->scope_count - 1; i >= 0; i--) {   /* the innermost scope_count, outermost first */
        if (i < have)
            strbuf_append(&sb, starts[have - 1 - i], lens[have - 1 - i]);
        strbuf_puts(&sb, "::");
    }
    strbuf_puts(&sb, f->name);
    const char *name = arena_strdup(arena, sb.data);
    strbuf_free(&sb);
    return name;
}

/* --- which targets the handler reads, to place the entry probe ------------ */

struct target_use {
    int any;                     /* reads a target of any kind */
    int needs_frame;             /* something beyond parameters held in registers */
    int all_parameters;          /* $$parms */
    int reads_strings;           /* calls user_string*, user_buffer*: a sleepable program can fault pages in */
    int entry_reads_strings;     /* the same in an @entry operand */
    const char **names;
    int count, capacity;
    int skip_defined;            /* names only tested by @defined are not read */
};

static void note_name(struct target_use *use, const char *name)
{
    if (use->count == use->capacity) {
        use->capacity = use->capacity ? use->capacity * 2 : 8;
        use->names = realloc(use->names, sizeof(*use->names) * (size_t)use->capacity);
    }
    use->names[use->count++] = name;
}

static int note_expr(struct expr *e, void *ctx);

static int note_stmt(struct stmt *st, void *ctx)
{
    return ast_stmt_children(st, &(struct ast_visitor){note_expr, note_stmt, ctx});
}

static int note_expr(struct expr *e, void *ctx)
{
    struct target_use *use = ctx;
    struct ast_visitor children = {note_expr, NULL, use};
    switch (e->kind) {
    case EXPR_TARGET:
        use->any = 1;
        if (strcmp(e->target.name, "$parms") == 0)
            use->all_parameters = 1;
        else if (e->target.name[0] == '$' || e->target.address_of)
            use->needs_frame = 1;
        if (e->target.name[0] == '$' || e->target.pretty)
            use->reads_strings = 1;     /* pretty forms read char pointers as strings */
        else if (strcmp(e->target.name, "return") != 0)
            note_name(use, e->target.name);
        break;
    case EXPR_VAR: case EXPR_CAST: case EXPR_AUTOCAST:
        use->any = 1;
        break;
    case EXPR_ENTRY: {
        use->any = 1;   /* each site has its own entry program: @entry(gettimeofday_ns()) too */
        int reads_strings = use->reads_strings;
        ast_expr_children(e, &children);
        use->entry_reads_strings |= use->reads_strings;   /* the entry program reads them */
        use->reads_strings = reads_strings;
        return 0;
    }
    case EXPR_DEFINED:
        if (use->skip_defined)
            return 0;
        break;
    case EXPR_CALL:
        if (strncmp(e->call.name, "user_string", 11) == 0 || strncmp(e->call.name, "user_buffer", 11) == 0)
            use->reads_strings = 1;
        break;
    default:
        break;
    }
    return ast_expr_children(e, &children);
}

/* Notes what a handler and its condition read. */
static void note_handler(struct target_use *use, struct stmt *body, struct expr *condition)
{
    ast_stmt_list(body, &(struct ast_visitor){note_expr, note_stmt, use});
    if (condition)
        note_expr(condition, use);
}

int sema_target_names(struct stmt *body, struct expr *condition, const char ***names)
{
    struct target_use use = {.skip_defined = 1};
    note_handler(&use, body, condition);
    *names = use.names;
    return use.count;
}

/* The ABI register of an integer-class parameter at the entry, or -1. */
int uprobe_entry_register(Dwarf_Die *function, const char *name)
{
    static const int abi[6] = {5, 4, 1, 2, 8, 9};   /* rdi rsi rdx rcx r8 r9 (DWARF numbers) */
    Dwarf_Die child;
    int index = 0;
    if (dwarf_child(function, &child) != 0)
        return -1;
    do {
        if (dwarf_tag(&child) != DW_TAG_formal_parameter)
            continue;
        Dwarf_Die type, resolved;
        if (!dwarf_die_type(&child, &type) || !dwarf_type_resolve(&type, &resolved))
            return -1;
        int tag = dwarf_tag(&resolved);
        Dwarf_Word size = 0;
        Dwarf_Attribute attr;
        if (dwarf_attr_integrate(&resolved, DW_AT_byte_size, &attr))
            dwarf_formudata(&attr, &size);
        int integer_class = tag == DW_TAG_pointer_type || tag == DW_TAG_enumeration_type ||
            (tag == DW_TAG_base_type && size <= 8 && dwarf_diename(&resolved) &&
             !strstr(dwarf_diename(&resolved), "float") && !strstr(dwarf_diename(&resolved), "double"));
        if (!integer_class || index >= 6)
            return -1;      /* later parameters' registers are no longer simple to tell */
        const char *param = dwarf_diename(&child);
        if (param && strcmp(param, name) == 0)
            return abi[index];
        index++;
    } while (dwarf_siblingof(&child, &child) == 0);
    return -1;
}

/* A parameter is readable at the first instruction when it is integer-class
 * (its ABI register) or DWARF puts it in registers there (a struct passed
 * by value: DW_OP_reg5 DW_OP_piece 8 DW_OP_reg4 DW_OP_piece 8). Locals and
 * -O0 frame slots are not written yet. */
static int readable_at_entry(Dwarf_Die *function, const char *name, uint64_t entry)
{
    if (uprobe_entry_register(function, name) >= 0)
        return 1;
    Dwarf_Die child;
    if (dwarf_child(function, &child) != 0)
        return 0;
    do {
        const char *param = dwarf_diename(&child);
        if (dwarf_tag(&child) == DW_TAG_formal_parameter && param && strcmp(param, name) == 0)
            return dwarf_location_in_registers(&child, entry);
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

static int entry_is_enough(struct dwarf_module *m, const struct dwarf_function *f, struct stmt *body,
                           struct expr *condition)
{
    struct target_use use = {0};
    note_handler(&use, body, condition);
    int enough = !use.needs_frame;
    Dwarf_Die die, child;
    if (enough && (use.count || use.all_parameters) && !dwarf_module_function_die(m, f, &die))
        enough = 0;
    for (int i = 0; enough && i < use.count; i++)
        enough = readable_at_entry(&die, use.names[i], f->entry);
    if (enough && use.all_parameters && dwarf_child(&die, &child) == 0) {
        do {
            const char *param = dwarf_diename(&child);
            if (dwarf_tag(&child) == DW_TAG_formal_parameter && param)
                enough = readable_at_entry(&die, param, f->entry);
        } while (enough && dwarf_siblingof(&child, &child) == 0);
    }
    free(use.names);
    return enough;
}

/* --- @defined: decided per site before names are resolved, so that the
 * branch it guards is dropped where the variable does not exist --------- */

struct site_of { struct sema *s; struct uprobe_site *site; };

static int site_defines(void *context, struct expr *operand)
{
    struct site_of *at = context;
    return sema_target_defined(at->s, at->site, operand);
}

/* --- building probes ------------------------------------------------------ */

/* process("PATH").function("NAME@FILE:LINE")[.SUFFIX], assembled without
 * printf: -L builds one per function, 20k of them. */
static const char *function_point_text(struct sema *s, const struct dwarf_module *m,
                                       const struct dwarf_function *f, const char *name, const char *suffix)
{
    struct strbuf sb;
    strbuf_init(&sb);
    strbuf_puts(&sb, "process(\"");
    strbuf_puts(&sb, m->path);
    strbuf_puts(&sb, "\").function(\"");
    strbuf_puts(&sb, name);
    if (f->decl_file) {
        char digits[16];
        int n = 0;
        unsigned line = f->decl_line > 0 ? (unsigned)f->decl_line : 0;
        do
            digits[n++] = (char)('0' + line % 10);
        while ((line /= 10) && n < 15);
        strbuf_putc(&sb, '@');
        strbuf_puts(&sb, f->decl_file);
        strbuf_putc(&sb, ':');
        while (n > 0)
            strbuf_putc(&sb, digits[--n]);
    }
    strbuf_puts(&sb, "\")");
    if (suffix) {
        strbuf_putc(&sb, '.');
        strbuf_puts(&sb, suffix);
    }
    const char *text = arena_strndup(s->arena, sb.data, sb.len);
    strbuf_free(&sb);
    return text;
}

/* A probe reading no target variable generates the same code wherever it
 * sits: it joins the group of the first such probe of its point. */
static void join_group(struct sema *s, struct probe *probe, struct probe **leader)
{
    struct probe *l = *leader;
    if (!l || l->kind != probe->kind || strcmp(l->uprobe.path, probe->uprobe.path) != 0) {
        *leader = probe;
        return;
    }
    sema_join_group(s, l, probe);
}

/* The kind of a site's probe: a uprobe, or a uretprobe at a function's
 * return (a uprobe where it is placed at the returns); at a PLT stub, the
 * plt kinds (kinds/plt.c), which are those too. */
static enum probe_kind site_kind(const struct uprobe_site *site)
{
    int at_return = site->is_return && !site->at_returns;
    if (site->plt_name)
        return at_return ? PROBE_PLT_RETURN : PROBE_PLT;
    return at_return ? PROBE_URETPROBE : PROBE_UPROBE;
}

struct probe *uprobe_add_site(struct sema *s, struct stmt *body, struct probe_point *point,
                             struct frame_layout *frame, struct uprobe_site *site, const char *text,
                             struct probe **leader)
{
    struct probe *probe = sema_new_probe(s, point, body, frame, text);
    probe->body = sema_clone_stmt(s->arena, body);
    probe->condition = point->condition ? sema_clone_expr(s->arena, point->condition) : NULL;
    probe->kind = site_kind(site);
    probe->uprobe.at_returns = site->at_returns;
    probe->uprobe.path = site->module->path;
    probe->function = site->function ? site->function->name : "";
    probe->uprobe.site = site;
    struct site_of at = {s, site};
    sema_fold_defined(probe->body, probe->condition, site_defines, &at);
    if (site->choose_entry && entry_is_enough(site->module, site->function, probe->body, probe->condition)) {
        site->at_entry = 1;
        site->pc = site->function->entry;
    }
    struct target_use use = {0};
    note_handler(&use, probe->body, probe->condition);
    probe->uprobe.sleepable = use.reads_strings;
    probe->uprobe.entry_sleepable = use.entry_reads_strings;
    free(use.names);
    probe->uprobe.vaddr = site->pc;
    probe->uprobe.offset = dwarf_module_file_offset(site->module, site->pc);
    sema_add_probe(s, probe);
    if (!use.any && !(site->exits && site->exits->tail_count))   /* a tail chain's probe keys its own records */
        join_group(s, probe, leader);
    return probe;
}

static const char *closest_functions(struct sema *s, struct dwarf_module *m, const char *name);

/* A handler reading no target variable sits at the entry (entry_is_enough),
 * so the prologue's end, a line-table search, need not be looked up. */
static int reads_targets(struct stmt *body, struct expr *condition)
{
    struct target_use use = {0};
    note_handler(&use, body, condition);
    free(use.names);
    return use.any;
}

static int compare_root_key(const void *key, const void *item)
{
    return strcmp(key, *(const char *const *)item);
}

/* Whether an inlined instance could match: each is named after an abstract
 * root the index saw (dwarf_index.c), so the walk for them is skipped when
 * the pattern names none. A pattern without wildcards is a lookup. */
static int may_match_inlined(const struct dwarf_module *m, const char *pattern)
{
    if (!m->inline_roots_known)
        return 1;
    if (!m->inline_root_count)
        return 0;
    if (!strpbrk(pattern, "*?[{\\"))
        return bsearch(pattern, m->inline_roots, (size_t)m->inline_root_count, sizeof(*m->inline_roots),
                       compare_root_key) != NULL;
    for (int i = 0; i < m->inline_root_count; i++)
        if (pattern_matches(pattern, m->inline_roots[i]))
            return 1;
    return 0;
}

/* An alias (dwarf_index.c) is a DWARF function under a symbol's name: when
 * the pattern also matches the function's own name, or an alias before it,
 * that one probes the address (one probe per call). */
static int probed_under_another_name(const struct dwarf_module *m, const struct function_pattern *pattern,
                                     int index)
{
    const struct dwarf_function *f = &m->functions[index];
    for (int i = 0; f->is_alias && i < m->function_count; i++) {
        const struct dwarf_function *g = &m->functions[i];
        if (i != index && g->die_offset == f->die_offset && g->entry == f->entry && (!g->is_alias || i < index) &&
            uprobe_function_matches(pattern, g))
            return 1;
    }
    return 0;
}

static int resolve_functions(struct sema *s, struct stmt *body, struct probe_point *point,
                             struct frame_layout *frame, struct dwarf_module *m, struct process_point *pp)
{
    int added = 0;
    struct probe *leader = NULL;
    int is_return = pp->suffix && strcmp(pp->suffix, "return") == 0;
    int unwinds = is_return && uprobe_module_unwinds(m);   /* C++: any frame may be unwound through */
    int needs_prologue = reads_targets(body, point->condition);
    for (int i = 0; i < m->function_count; i++) {
        const struct dwarf_function *f = &m->functions[i];
        if (!uprobe_function_matches(&pp->pattern, f) || probed_under_another_name(m, &pp->pattern, i))
            continue;
        if (pp->suffix && strcmp(pp->suffix, "exported") == 0 && !f->is_external)
            continue;
        if (pp->suffix && strcmp(pp->suffix, "inline") == 0)
            continue;   /* .inline: only the inlined instances, below */
        struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
        site->module = m;
        site->function = f;
        site->is_return = is_return;
        if (is_return) {
            /* decided before lowering: the @entry key differs at a ret */
            site->exits = ARENA_NEW(s->arena, struct function_exits);
            uprobe_function_exits(s->arena, m, f, site->exits);
            site->exits->module_unwinds = unwinds;
            site->at_returns = uprobe_exits_at_returns(site->exits);
        }
        site->at_entry = is_return || !f->die_offset;
        site->pc = site->at_entry || !needs_prologue ? f->entry : dwarf_module_after_prologue(m, f);
        site->choose_entry = !site->at_entry;
        site->out_of_line = 1;
        const char *name = uprobe_function_point_name(s->arena, &pp->pattern, f);
        struct probe *probe =
            uprobe_add_site(s, body, point, frame, site, function_point_text(s, m, f, name, pp->suffix), &leader);
        probe->function = name;
        added++;
    }
    int wants_inline = !pp->suffix || strcmp(pp->suffix, "inline") == 0;
    if (wants_inline && m->dwarf && may_match_inlined(m, pp->pattern.function)) {
        dwarf_module_index_inlines(s->arena, m);
        for (int i = 0; i < m->inline_count; i++) {
            const struct dwarf_function *f = &m->inlines[i];
            if (!uprobe_function_matches(&pp->pattern, f))
                continue;
            /* Inlined code has no call: the parameters are wherever DWARF
             * says at the instance's first address. */
            struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
            site->module = m;
            site->function = f;
            site->pc = f->entry;
            const char *name = uprobe_function_point_name(s->arena, &pp->pattern, f);
            struct probe *probe =
                uprobe_add_site(s, body, point, frame, site, function_point_text(s, m, f, name, pp->suffix), &leader);
            probe->function = name;
            added++;
        }
    }
    if (!added && !point->optional) {
        const char *similar = closest_functions(s, m, pp->pattern.function);
        diag_error(s->diags, (struct span){0},
                   "while resolving probe point: no match for function \"%s\" in %s%s%s%s",
                   pp->kind_component->arg_string, m->path, *similar ? " (similar functions: " : "",
                   similar, *similar ? ")" : "");
    }
    return added;
}

/* --- statements ----------------------------------------------------------- */

static const struct dwarf_function *function_at(struct dwarf_module *m, uint64_t pc)
{
    const struct dwarf_function *best = NULL;
    for (int i = 0; i < m->function_count; i++) {
        const struct dwarf_function *f = &m->functions[i];
        if (f->entry <= pc && (!best || f->entry > best->entry)) {
            Dwarf_Die die;
            Dwarf_Addr low, high;
            if (dwarf_module_function_die(m, f, &die) && dwarf_lowpc(&die, &low) == 0 &&
                dwarf_highpc(&die, &high) == 0 && (pc < low || pc >= high))
                continue;
            best = f;
        }
    }
    return best;
}

/* The first address of each line of `f` (is_stmt rows only), sorted by line. */
int uprobe_function_lines(struct dwarf_module *m, const struct dwarf_function *f, struct line_address **out)
{
    Dwarf_Die die, cu;
    Dwarf_Lines *lines;
    size_t count;
    Dwarf_Addr low, high;
    *out = NULL;
    if (!dwarf_module_function_die(m, f, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
        dwarf_getsrclines(&cu, &lines, &count) != 0 || dwarf_lowpc(&die, &low) != 0 ||
        dwarf_highpc(&die, &high) != 0)
        return 0;
    struct line_address *result = calloc(count + 1, sizeof(*result));
    int n = 0;
    for (size_t i = 0; i < count; i++) {
        Dwarf_Line *line = dwarf_onesrcline(lines, i);
        Dwarf_Addr addr;
        int lineno;
        bool is_stmt = true;
        if (!line || dwarf_lineaddr(line, &addr) != 0 || dwarf_lineno(line, &lineno) != 0 ||
            addr < low || addr >= high)
            continue;
        dwarf_linebeginstatement(line, &is_stmt);
        const char *file = dwarf_linesrc(line, NULL, NULL);
        if (!is_stmt || !file || !f->decl_file || strcmp(file, f->decl_file) != 0)
            continue;
        int seen = 0;
        for (int k = 0; k < n; k++) {
            if (result[k].line == lineno) {
                if (addr < result[k].pc)
                    result[k].pc = addr;
                seen = 1;
            }
        }
        if (!seen)
            result[n++] = (struct line_address){lineno, addr};
    }
    for (int i = 1; i < n; i++)      /* few lines: insertion sort */
        for (int k = i; k > 0 && result[k - 1].line > result[k].line; k--) {
            struct line_address t = result[k];
            result[k] = result[k - 1];
            result[k - 1] = t;
        }
    *out = result;
    return n;
}

static int resolve_statements(struct sema *s, struct stmt *body, struct probe_point *point,
                              struct frame_layout *frame, struct dwarf_module *m, struct process_point *pp)
{
    int added = 0;
    if (pp->has_address) {
        struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
        site->module = m;
        site->pc = pp->address;
        site->function = function_at(m, pp->address);
        site->is_statement = 1;
        site->at_entry = site->function && site->function->entry == pp->address;
        struct probe *leader = NULL;
        uprobe_add_site(s, body, point, frame, site,
                 arena_printf(s->arena, "process(\"%s\").statement(0x%llx)", m->path,
                              (unsigned long long)pp->address), &leader);
        return 1;
    }
    struct probe *leader = NULL;
    struct function_pattern fp = pp->pattern;
    fp.line = 0;
    fp.line_text = NULL;
    fp.any_line = 0;
    for (int i = 0; i < m->function_count; i++) {
        const struct dwarf_function *f = &m->functions[i];
        if (!f->die_offset || !uprobe_function_matches(&fp, f) || probed_under_another_name(m, &fp, i))
            continue;
        struct line_address *lines;
        int n = uprobe_function_lines(m, f, &lines);
        for (int k = 0; k < n; k++) {
            if (!uprobe_line_matches(&pp->pattern, lines[k].line))
                continue;
            struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
            site->module = m;
            site->function = f;
            site->pc = lines[k].pc;
            site->line = lines[k].line;
            site->is_statement = 1;
            site->at_entry = site->pc == f->entry;
            const char *name = uprobe_function_point_name(s->arena, &fp, f);
            struct probe *probe = uprobe_add_site(s, body, point, frame, site,
                     arena_printf(s->arena, "process(\"%s\").statement(\"%s@%s:%d\")", m->path, name,
                                  f->decl_file, lines[k].line), &leader);
            probe->function = name;
            added++;
        }
        free(lines);
    }
    if (!added && !point->optional)
        diag_error(s->diags, (struct span){0},
                   "while resolving probe point: no match for statement \"%s\" in %s",
                   pp->kind_component->arg_string, m->path);
    return added;
}

static struct expr *new_expr(struct sema *s, enum expr_kind kind, struct span span)
{
    struct expr *e = ast_expr(s->arena, kind, span);
    e->type = TYPE_LONG;
    return e;
}

/* process(PID): the uprobe is on the binary, so the handler checks the pid. */
void uprobe_only_in_process(struct sema *s, struct probe *probe, const struct probe_component *c)
{
    struct expr *call = new_expr(s, EXPR_CALL, c->span);
    call->call.name = "pid";
    struct expr *pid = new_expr(s, EXPR_INT, c->span);
    pid->int_value = c->arg_int;
    struct expr *same = new_expr(s, EXPR_BINARY, c->span);
    same->binary.op = BINARY_EQ;
    same->binary.lhs = call;
    same->binary.rhs = pid;
    if (probe->condition) {
        struct expr *both = new_expr(s, EXPR_BINARY, c->span);
        both->binary.op = BINARY_LOGAND;
        both->binary.lhs = same;
        both->binary.rhs = probe->condition;
        same = both;
    }
    probe->condition = same;
}

/* What a process point resolves in each file its path names. */
struct process_in {
    struct stmt *body;
    struct frame_layout *frame;
    struct process_point *pp;
    const char **libraries;      /* resolved already: a library that several files of a */
    int library_count;           /* process glob load is probed once */
};

/* Whether the library m was resolved for this point already; remembers it. */
static int library_done(struct sema *s, struct process_in *in, const struct dwarf_module *m)
{
    for (int i = 0; i < in->library_count; i++)
        if (strcmp(in->libraries[i], m->path) == 0)
            return 1;
    in->libraries = arena_realloc(s->arena, in->libraries, sizeof(*in->libraries) * (size_t)in->library_count,
                                  sizeof(*in->libraries) * (size_t)(in->library_count + 1));
    in->libraries[in->library_count++] = m->path;
    return 0;
}

static int resolve_in_file(struct sema *s, struct probe_point *point, const char *path, void *data);

/* One library a .library("GLOB") matched, named by its path. */
static int resolve_in_library(struct sema *s, struct probe_point *point, const char *library, void *data)
{
    struct process_in *in = data;
    const char *pattern = in->pp->library;
    in->pp->library = library;
    int added = resolve_in_file(s, point, library, data);
    in->pp->library = pattern;
    return added;
}

static int resolve_in_file(struct sema *s, struct probe_point *point, const char *path, void *data)
{
    const struct process_in *in = data;
    struct process_point *pp = in->pp;
    if (pp->library && process_glob_is_pattern(pp->library))
        return library_glob_resolve(s, point, path, pp->library, resolve_in_library, data);
    char error[512];
    struct dwarf_module *m = pp->library
        ? dwarf_module_open_library(s->options->modules, path, pp->library, error, sizeof(error))
        : dwarf_module_open(s->options->modules, path, error, sizeof(error));
    if (!m)
        return point_error(s, point, point->components->span,
                           arena_printf(s->arena, "while resolving probe point: %s", error));
    if (pp->library && library_done(s, data, m))
        return 0;
    int first = s->script->probe_count;
    int added = strcmp(pp->kind, "statement") == 0 ? resolve_statements(s, in->body, point, in->frame, m, pp)
              : strcmp(pp->kind, "mark") == 0 ? sema_resolve_marks(s, in->body, point, in->frame, m, pp)
                                              : resolve_functions(s, in->body, point, in->frame, m, pp);
    const char *pattern = pp->kind_component->arg_kind == PROBE_ARG_STRING ? pp->kind_component->arg_string : "";
    int may_skip = point->optional || strpbrk(pattern, "*?[{") != NULL;
    for (int i = first; i < s->script->probe_count; i++) {
        if (point->components->arg_kind == PROBE_ARG_INT)
            uprobe_only_in_process(s, s->script->probes[i], point->components);
        s->script->probes[i]->may_skip = may_skip;
    }
    return added;
}

int sema_resolve_process(struct sema *s, struct stmt *body, struct probe_point *point,
                         struct frame_layout *frame)
{
    struct process_point pp;
    if (!read_point(s, point, &pp))
        return 0;
    struct process_in in = {body, frame, &pp, NULL, 0};
    if (process_glob_names_pattern(point->components))
        return process_glob_resolve(s, point, resolve_in_file, &in);
    return resolve_in_file(s, point, pp.path, &in);
}

/* --- suggestions ---------------------------------------------------------- */

/* The three closest names by edit distance, shorter names first on ties. */
static const char *closest_functions(struct sema *s, struct dwarf_module *m, const char *name)
{
    const struct dwarf_function *best[3] = {0};
    int best_distance[3] = {0};
    for (int i = 0; i < m->function_count; i++) {
        const struct dwarf_function *f = &m->functions[i];
        if (i > 0 && strcmp(m->functions[i - 1].name, f->name) == 0)
            continue;
        int d = sema_edit_distance(name, f->name);
        for (int k = 0; k < 3; k++) {
            if (!best[k] || d < best_distance[k] ||
                (d == best_distance[k] && strlen(f->name) < strlen(best[k]->name))) {
                for (int j = 2; j > k; j--) {
                    best[j] = best[j - 1];
                    best_distance[j] = best_distance[j - 1];
                }
                best[k] = f;
                best_distance[k] = d;
                break;
            }
        }
    }
    struct strbuf sb;
    strbuf_init(&sb);
    for (int k = 0; k < 3 && best[k]; k++)
        strbuf_printf(&sb, "%s%s", k ? ", " : "", best[k]->name);
    const char *result = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return result;
}
