/* Target variables lowered into generic reads at one probe address:
 * `$var` from its DWARF location (or, at a function's first instruction,
 * from the ABI register of an integer-class parameter), then `->member`,
 * `[index]` and `&` walk the DWARF type; the final value is a register,
 * a user-memory read of the declared width and signedness, or a constant.
 * @var, @cast and @defined go the same way. */
#include <dwarf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "sema/uprobe.h"

/* A typed place while components are applied. */
enum place_kind { PLACE_MEMORY, PLACE_REG, PLACE_VALUE };
struct place {
    enum place_kind kind;
    Dwarf_Die type;              /* as declared (typedefs kept for messages) */
    int has_type;
    struct expr *address;        /* PLACE_MEMORY */
    int reg;                     /* PLACE_REG */
    struct expr *value;          /* PLACE_VALUE */
    int bit_size, bit_offset;    /* a bitfield member: bits within the bytes at address */
};

struct lowering {
    struct sema *s;
    struct expr *e;              /* reported at */
    struct dwarf_eval ev;
    struct uprobe_site *site;
    int quiet;                   /* @defined: no diagnostics */
    int in_entry;                /* lowering an @entry operand: at the call, not the return */
};

static int lower_error(struct lowering *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int lower_error(struct lowering *l, const char *fmt, ...)
{
    if (l->quiet)
        return 0;
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    diag_error(l->s->diags, l->e->span, "%s", message);
    return 0;
}

static int snapshot(struct lowering *l, struct expr *e);

/* --- variables in scope --------------------------------------------------- */

struct variable_list {
    struct target_variable { const char *name; Dwarf_Die die; } *items;
    int count;
};

/* Names of inlined parameters live on their abstract origin. */
static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_name, &attr) ? dwarf_formstring(&attr) : NULL;
}

static void add_variable(struct variable_list *list, Dwarf_Die *die)
{
    const char *name = die_name(die);
    if (!name || dwarf_hasattr(die, DW_AT_artificial))
        return;
    for (int i = 0; i < list->count; i++)
        if (strcmp(list->items[i].name, name) == 0)
            return;     /* shadowed by an inner scope */
    list->items = realloc(list->items, sizeof(*list->items) * (size_t)(list->count + 1));
    list->items[list->count++] = (struct target_variable){name, *die};
}

static void add_children(struct variable_list *list, Dwarf_Die *scope, int tag)
{
    Dwarf_Die child;
    if (dwarf_child(scope, &child) != 0)
        return;
    do {
        if (dwarf_tag(&child) == tag)
            add_variable(list, &child);
    } while (dwarf_siblingof(&child, &child) == 0);
}

/* Innermost scope first; in the function's own scope, parameters before
 * locals (the order -L prints). Only the function's own subtree is walked
 * (lexical blocks holding the pc): dwarf_getscopes would walk the whole CU,
 * which for 20k functions in one CU makes -L quadratic. */
static int site_variables(struct uprobe_site *site, struct variable_list *list)
{
    memset(list, 0, sizeof(*list));
    Dwarf_Die scopes[32];
    if (!site->function || !dwarf_module_function_die(site->module, site->function, &scopes[0]))
        return 0;
    int depth = 1;
    while (depth < 32) {
        Dwarf_Die child;
        int found = 0;
        if (dwarf_child(&scopes[depth - 1], &child) == 0) {
            do {
                if (dwarf_tag(&child) == DW_TAG_lexical_block && dwarf_haspc(&child, site->pc) == 1) {
                    scopes[depth++] = child;
                    found = 1;
                    break;
                }
            } while (dwarf_siblingof(&child, &child) == 0);
        }
        if (!found)
            break;
    }
    for (int i = depth - 1; i > 0; i--)
        add_children(list, &scopes[i], DW_TAG_variable);
    add_children(list, &scopes[0], DW_TAG_formal_parameter);
    add_children(list, &scopes[0], DW_TAG_variable);
    return 1;
}

void uprobe_spell_variables(struct strbuf *sb, struct uprobe_site *site)
{
    struct variable_list list;
    site_variables(site, &list);
    for (int i = 0; i < list.count; i++) {
        Dwarf_Die type;
        if (site->is_return && dwarf_tag(&list.items[i].die) != DW_TAG_formal_parameter)
            continue;   /* a .return sees parameters (as at the call), not locals */
        strbuf_printf(sb, " $%s:", list.items[i].name);
        if (dwarf_die_type(&list.items[i].die, &type))
            dwarf_type_spell(sb, &type);
        else
            strbuf_puts(sb, "void");
    }
    free(list.items);
}

/* --- types ---------------------------------------------------------------- */

static Dwarf_Word byte_size(Dwarf_Die *type)
{
    Dwarf_Attribute attr;
    Dwarf_Word size = 0;
    if (dwarf_attr_integrate(type, DW_AT_byte_size, &attr))
        dwarf_formudata(&attr, &size);
    return size;
}

static const char *type_text(struct lowering *l, Dwarf_Die *type)
{
    struct strbuf sb;
    strbuf_init(&sb);
    dwarf_type_spell(&sb, type);
    const char *text = arena_strdup(l->s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

/* Scalar layout of a type: 0 when it is not a scalar. */
static int scalar_of(Dwarf_Die *resolved, int *size, int *is_signed)
{
    Dwarf_Attribute attr;
    Dwarf_Word encoding = 0;
    *size = (int)byte_size(resolved);
    *is_signed = 0;
    switch (dwarf_tag(resolved)) {
    case DW_TAG_pointer_type:
        *size = 8;
        return 1;
    case DW_TAG_enumeration_type: {
        Dwarf_Die underlying, base;
        if (dwarf_die_type(resolved, &underlying) && dwarf_type_resolve(&underlying, &base) &&
            dwarf_attr_integrate(&base, DW_AT_encoding, &attr) && dwarf_formudata(&attr, &encoding) == 0)
            *is_signed = encoding == DW_ATE_signed || encoding == DW_ATE_signed_char;
        return *size > 0 && *size <= 8;
    }
    case DW_TAG_base_type:
        if (dwarf_attr_integrate(resolved, DW_AT_encoding, &attr))
            dwarf_formudata(&attr, &encoding);
        if (encoding == DW_ATE_float || encoding == DW_ATE_complex_float)
            return 0;
        *is_signed = encoding == DW_ATE_signed || encoding == DW_ATE_signed_char;
        return *size > 0 && *size <= 8;
    default:
        return 0;
    }
}

/* --- places --------------------------------------------------------------- */

static struct expr *place_value(struct lowering *l, struct place *p, const char *what)
{
    Dwarf_Die resolved;
    if (!p->has_type || !dwarf_type_resolve(&p->type, &resolved)) {
        lower_error(l, "%s has no type (void)", what);
        return NULL;
    }
    int tag = dwarf_tag(&resolved);
    if (tag == DW_TAG_array_type) {
        if (p->kind == PLACE_MEMORY)
            return p->address;      /* an array reads as its address, as in C */
        lower_error(l, "%s is an array held in registers", what);
        return NULL;
    }
    int size, is_signed;
    if (!scalar_of(&resolved, &size, &is_signed)) {
        if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type)
            lower_error(l, "%s is a %s: read a member (->name) or use %s$", what, type_text(l, &p->type), what);
        else
            lower_error(l, "%s has type %s, which tap cannot read as a long", what, type_text(l, &p->type));
        return NULL;
    }
    struct dwarf_eval *ev = &l->ev;
    if (p->bit_size) {
        struct expr *word = dwarf_expr_read(ev, p->address, 8, 0);
        struct expr *shifted = dwarf_expr_binary(ev, BINARY_SHL, word, dwarf_expr_int(ev, 64 - p->bit_offset - p->bit_size));
        struct expr *shift = dwarf_expr_int(ev, 64 - p->bit_size);
        if (is_signed)
            return dwarf_expr_binary(ev, BINARY_SHR, shifted, shift);
        /* logical shift: arithmetic shift, then mask */
        return dwarf_expr_binary(ev, BINARY_BITAND, dwarf_expr_binary(ev, BINARY_SHR, shifted, shift),
                                 dwarf_expr_int(ev, (int64_t)((1ull << p->bit_size) - 1)));
    }
    switch (p->kind) {
    case PLACE_MEMORY:
        if (size != 1 && size != 2 && size != 4 && size != 8) {
            lower_error(l, "%s has an unusual size (%d bytes)", what, size);
            return NULL;
        }
        return dwarf_expr_read(ev, p->address, size, is_signed);
    case PLACE_REG: return dwarf_expr_narrow(ev, dwarf_expr_reg(ev, p->reg), size, is_signed);
    case PLACE_VALUE: return dwarf_expr_narrow(ev, p->value, size, is_signed);
    }
    return NULL;
}

static int find_member(Dwarf_Die *aggregate, const char *name, Dwarf_Die *member, int64_t *offset)
{
    Dwarf_Die child;
    if (dwarf_child(aggregate, &child) != 0)
        return 0;
    do {
        if (dwarf_tag(&child) != DW_TAG_member)
            continue;
        Dwarf_Attribute attr;
        Dwarf_Word here = 0;
        if (dwarf_attr_integrate(&child, DW_AT_data_member_location, &attr))
            dwarf_formudata(&attr, &here);
        const char *child_name = dwarf_diename(&child);
        if (child_name && strcmp(child_name, name) == 0) {
            *member = child;
            *offset += (int64_t)here;
            return 1;
        }
        Dwarf_Die type, resolved;
        if (!child_name && dwarf_die_type(&child, &type) && dwarf_type_resolve(&type, &resolved)) {
            int64_t inner = *offset + (int64_t)here;
            if (find_member(&resolved, name, member, &inner)) {
                *offset = inner;
                return 1;
            }
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

static const char *member_names(struct lowering *l, Dwarf_Die *aggregate)
{
    struct strbuf sb;
    strbuf_init(&sb);
    Dwarf_Die child;
    if (dwarf_child(aggregate, &child) == 0) {
        do {
            const char *name = dwarf_diename(&child);
            if (dwarf_tag(&child) == DW_TAG_member && name)
                strbuf_printf(&sb, "%s%s", sb.len ? " " : "", name);
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    const char *text = arena_strdup(l->s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

/* Pointers are followed: p->f and p.f both work, as in SystemTap. */
static int apply_member(struct lowering *l, struct place *p, struct component *c, const char *what)
{
    Dwarf_Die resolved;
    if (!p->has_type || !dwarf_type_resolve(&p->type, &resolved))
        return lower_error(l, "%s has no type (void): cannot read member %s", what, c->member);
    if (dwarf_tag(&resolved) == DW_TAG_pointer_type) {
        struct expr *pointer = place_value(l, p, what);
        Dwarf_Die target;
        if (!pointer)
            return 0;
        if (!dwarf_die_type(&resolved, &target))
            return lower_error(l, "%s is a void pointer: cannot read member %s (use @cast)", what, c->member);
        *p = (struct place){.kind = PLACE_MEMORY, .type = target, .has_type = 1, .address = pointer};
        if (!dwarf_type_resolve(&p->type, &resolved))
            return lower_error(l, "%s: cannot resolve the pointed-to type", what);
    }
    int tag = dwarf_tag(&resolved);
    if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
        return lower_error(l, "%s has type %s: it has no member %s", what, type_text(l, &p->type), c->member);
    if (p->kind != PLACE_MEMORY)
        return lower_error(l, "%s is held in registers: its members cannot be read", what);
    Dwarf_Die member;
    int64_t offset = 0;
    if (!find_member(&resolved, c->member, &member, &offset))
        return lower_error(l, "unable to find member '%s' for %s (alternatives: %s)", c->member,
                           type_text(l, &p->type), member_names(l, &resolved));
    Dwarf_Attribute attr;
    Dwarf_Word bit_size = 0, bit_offset = 0;
    if (dwarf_attr_integrate(&member, DW_AT_bit_size, &attr))
        dwarf_formudata(&attr, &bit_size);
    if (bit_size && dwarf_attr_integrate(&member, DW_AT_data_bit_offset, &attr))
        dwarf_formudata(&attr, &bit_offset);
    p->address = dwarf_expr_add(&l->ev, p->address, dwarf_expr_int(&l->ev, offset + (int64_t)(bit_offset / 8)));
    p->bit_size = (int)bit_size;
    p->bit_offset = (int)(bit_offset % 8);
    p->has_type = dwarf_die_type(&member, &p->type);
    return 1;
}

static int apply_index(struct lowering *l, struct place *p, struct component *c, const char *what)
{
    Dwarf_Die resolved, element, element_resolved;
    if (!p->has_type || !dwarf_type_resolve(&p->type, &resolved))
        return lower_error(l, "%s has no type (void): it cannot be indexed", what);
    int tag = dwarf_tag(&resolved);
    if ((tag != DW_TAG_array_type && tag != DW_TAG_pointer_type) || !dwarf_die_type(&resolved, &element))
        return lower_error(l, "%s has type %s: it cannot be indexed", what, type_text(l, &p->type));
    struct expr *base = place_value(l, p, what);
    if (!base)
        return 0;
    Dwarf_Word size = dwarf_type_resolve(&element, &element_resolved) ? byte_size(&element_resolved) : 0;
    if (dwarf_tag(&element_resolved) == DW_TAG_pointer_type)
        size = 8;
    struct dwarf_eval *ev = &l->ev;
    struct expr *offset = c->index->kind == EXPR_INT
        ? dwarf_expr_int(ev, c->index->int_value * (int64_t)size)
        : dwarf_expr_binary(ev, BINARY_MUL, c->index, dwarf_expr_int(ev, (int64_t)size));
    *p = (struct place){.kind = PLACE_MEMORY, .type = element, .has_type = 1,
                        .address = dwarf_expr_add(ev, base, offset)};
    return 1;
}

static int lower_pretty_value(struct lowering *l, struct expr *e, struct place *place);

/* Components, then & or the value; rewrites l->e in place. */
static int finish(struct lowering *l, struct place *p, struct component *components, int address_of,
                  const char *what)
{
    for (struct component *c = components; c; c = c->next) {
        if (!(c->kind == COMPONENT_MEMBER ? apply_member(l, p, c, what) : apply_index(l, p, c, what)))
            return 0;
    }
    if (l->e->kind == EXPR_TARGET && l->e->target.pretty && !address_of)
        return lower_pretty_value(l, l->e, p);
    struct expr *result;
    if (address_of) {
        if (p->kind != PLACE_MEMORY || p->bit_size)
            return lower_error(l, "cannot take the address of %s: it is not in memory", what);
        result = p->address;
    } else {
        result = place_value(l, p, what);
    }
    if (!result)
        return 0;
    struct expr *next = l->e->next;
    struct span span = l->e->span;
    *l->e = *result;
    l->e->next = next;
    l->e->span = span;
    return 1;
}

static int place_of_location(struct lowering *l, struct dwarf_location *loc, struct place *p, const char *what)
{
    switch (loc->kind) {
    case LOC_REG: p->kind = PLACE_REG; p->reg = loc->reg; return 1;
    case LOC_MEMORY: p->kind = PLACE_MEMORY; p->address = loc->address; return 1;
    case LOC_VALUE: p->kind = PLACE_VALUE; p->value = loc->value; return 1;
    case LOC_OPTIMIZED_OUT: break;
    }
    return lower_error(l, "%s is optimized out at pc 0x%llx in %s", what, (unsigned long long)l->ev.pc,
                       l->site->function ? l->site->function->name : "?");
}

static const char *cu_name(Dwarf_Die *function)
{
    Dwarf_Die cu;
    const char *name = dwarf_diecu(function, &cu, NULL, NULL) ? dwarf_diename(&cu) : NULL;
    return name ? name : "?";
}

static int lower_one(struct lowering *l, struct expr *e);

static int lower_variable(struct lowering *l, struct expr *e)
{
    struct uprobe_site *site = l->site;
    const char *name = e->target.name;
    const char *what = arena_printf(l->s->arena, "$%s", name);
    Dwarf_Die function;
    if (!site->function || !dwarf_module_function_die(site->module, site->function, &function))
        return lower_error(l, "no debug information for %s in %s: target variables need DWARF (-g)",
                           site->function ? site->function->name : "this address", site->module->path);
    struct place p = {0};
    if (strcmp(name, "return") == 0) {
        if (!site->is_return)
            return lower_error(l, "$return is only available in .return probes");
        p.has_type = dwarf_die_type(&function, &p.type);
        if (!p.has_type)
            return lower_error(l, "%s returns void: there is no $return", site->function->name);
        p.kind = PLACE_REG;
        p.reg = 0;
        return finish(l, &p, e->target.components, e->target.address_of, what);
    }
    struct variable_list list;
    site_variables(site, &list);
    int found = -1;
    for (int i = 0; i < list.count && found < 0; i++)
        if (strcmp(list.items[i].name, name) == 0)
            found = i;
    if (found < 0) {
        struct strbuf sb;
        strbuf_init(&sb);
        for (int i = 0; i < list.count; i++)
            strbuf_printf(&sb, "%s$%s", i ? ", " : "", list.items[i].name);
        lower_error(l, "unable to find local '%s' near pc 0x%llx in %s %s (alternatives: %s)", name,
                    (unsigned long long)site->pc, site->function->name, cu_name(&function),
                    sb.data ? sb.data : "");
        strbuf_free(&sb);
        free(list.items);
        return 0;
    }
    Dwarf_Die var = list.items[found].die;
    free(list.items);
    if (site->is_return && !l->in_entry)
        return dwarf_tag(&var) == DW_TAG_formal_parameter
            ? snapshot(l, e)    /* parameters in .return are their values at the call */
            : lower_error(l, "%s is a local: in a .return probe only parameters, $return and @entry "
                          "values are available", what);
    p.has_type = dwarf_die_type(&var, &p.type);
    int reg = (site->at_entry && !site->is_statement && !site->is_return) || l->in_entry
        ? uprobe_entry_register(&function, name) : -1;
    if (l->in_entry && reg < 0)
        return lower_error(l, "@entry(%s): only integer-class parameters can be saved at the call", what);
    if (reg >= 0) {
        p.kind = PLACE_REG;
        p.reg = reg;
    } else {
        struct dwarf_location loc;
        if (!dwarf_variable_location(&l->ev, &var, &loc))
            return lower_error(l, "cannot locate %s at pc 0x%llx: %s", what, (unsigned long long)site->pc,
                               l->ev.error);
        if (!place_of_location(l, &loc, &p, what))
            return 0;
    }
    return finish(l, &p, e->target.components, e->target.address_of, what);
}

/* --- @var, @cast ---------------------------------------------------------- */

static int find_global(struct dwarf_module *m, const char *name, const char *file, Dwarf_Die *out)
{
    if (!m->dwarf)
        return 0;
    Dwarf_Off offset = 0, next;
    size_t header_size;
    while (dwarf_nextcu(m->dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu, child;
        if (dwarf_offdie(m->dwarf, offset + header_size, &cu) && dwarf_child(&cu, &child) == 0) {
            const char *cu_file = dwarf_diename(&cu);
            int file_ok = !file || (cu_file && (strcmp(cu_file, file) == 0 ||
                                                (strlen(cu_file) > strlen(file) &&
                                                 strcmp(cu_file + strlen(cu_file) - strlen(file), file) == 0)));
            do {
                const char *n = dwarf_diename(&child);
                if (file_ok && dwarf_tag(&child) == DW_TAG_variable && n && strcmp(n, name) == 0 &&
                    dwarf_hasattr(&child, DW_AT_location)) {
                    *out = child;
                    return 1;
                }
            } while (dwarf_siblingof(&child, &child) == 0);
        }
        offset = next;
    }
    return 0;
}

static int lower_var_at(struct lowering *l, struct expr *e)
{
    const char *spec = e->var_at.name;
    const char *at = strchr(spec, '@');
    const char *name = at ? arena_strndup(l->s->arena, spec, (size_t)(at - spec)) : spec;
    const char *what = arena_printf(l->s->arena, "@var(\"%s\")", spec);
    struct dwarf_module *m = l->site->module;
    if (e->var_at.module) {
        char error[512];
        m = dwarf_module_open(l->s->arena, e->var_at.module, error, sizeof(error));
        if (!m)
            return lower_error(l, "%s", error);
    }
    Dwarf_Die var;
    if (!find_global(m, name, at ? at + 1 : NULL, &var))
        return lower_error(l, "unable to find global '%s' in %s", spec, m->path);
    struct dwarf_location loc;
    struct dwarf_eval ev = l->ev;
    ev.module = m;
    if (!dwarf_variable_location(&ev, &var, &loc))
        return lower_error(l, "cannot locate %s: %s", what, ev.error);
    struct place p = {.has_type = dwarf_die_type(&var, &p.type)};
    if (!place_of_location(l, &loc, &p, what))
        return 0;
    return finish(l, &p, e->var_at.components, e->var_at.address_of, what);
}

static int find_named_type(struct dwarf_module *m, const char *spelled, Dwarf_Die *out)
{
    int tag = DW_TAG_typedef;
    const char *name = spelled;
    if (strncmp(spelled, "struct ", 7) == 0) { tag = DW_TAG_structure_type; name = spelled + 7; }
    else if (strncmp(spelled, "union ", 6) == 0) { tag = DW_TAG_union_type; name = spelled + 6; }
    else if (strncmp(spelled, "enum ", 5) == 0) { tag = DW_TAG_enumeration_type; name = spelled + 5; }
    if (!m->dwarf)
        return 0;
    Dwarf_Off offset = 0, next;
    size_t header_size;
    while (dwarf_nextcu(m->dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu, child;
        if (dwarf_offdie(m->dwarf, offset + header_size, &cu) && dwarf_child(&cu, &child) == 0) {
            do {
                const char *n = dwarf_diename(&child);
                int t = dwarf_tag(&child);
                if (n && strcmp(n, name) == 0 && (t == tag || (tag == DW_TAG_typedef && t == DW_TAG_base_type)) &&
                    !dwarf_hasattr(&child, DW_AT_declaration)) {
                    *out = child;
                    return 1;
                }
            } while (dwarf_siblingof(&child, &child) == 0);
        }
        offset = next;
    }
    return 0;
}

static int lower_cast(struct lowering *l, struct expr *e)
{
    struct dwarf_module *m = l->site ? l->site->module : NULL;
    if (e->cast.module) {
        char error[512];
        m = dwarf_module_open(l->s->arena, e->cast.module, error, sizeof(error));
        if (!m)
            return lower_error(l, "%s", error);
    }
    if (!m)
        return lower_error(l, "@cast needs a module outside process probes: @cast(p, \"%s\", \"PATH\")",
                           e->cast.type_name);
    const char *what = arena_printf(l->s->arena, "@cast(..., \"%s\")", e->cast.type_name);
    struct place p = {.kind = PLACE_MEMORY, .address = e->cast.address, .has_type = 1};
    if (!find_named_type(m, e->cast.type_name, &p.type))
        return lower_error(l, "unable to find type '%s' in %s", e->cast.type_name, m->path);
    return finish(l, &p, e->cast.components, e->cast.address_of, what);
}

/* --- pretty forms: $$parms, $$locals, $$vars, $$return, $v$, $v$$ ----------
 * Built as calls to __tap_format (bpf_snprintf, at most 12 values each),
 * concatenated: "a=0x1 b=0xa", "{.x=1, .y=2, .name="head", .next=0x...}". */

#define FORMAT_MAX_VALUES 12

struct pretty {
    struct lowering *l;
    struct strbuf format;
    struct expr *values[FORMAT_MAX_VALUES];
    int count;
    struct expr *result;         /* the concatenation so far */
};

static struct expr *string_literal(struct lowering *l, const char *text)
{
    struct expr *e = ast_expr(l->s->arena, EXPR_STRING, l->e->span);
    e->string.value = arena_strdup(l->s->arena, text);
    e->string.len = (int)strlen(text);
    e->type = TYPE_STRING;
    return e;
}

static void pretty_flush(struct pretty *p)
{
    if (!p->format.len)
        return;
    struct lowering *l = p->l;
    struct expr *call = ast_expr(l->s->arena, EXPR_CALL, l->e->span);
    call->call.name = "__tap_format";
    call->call.args = string_literal(l, p->format.data);
    struct expr **tail = &call->call.args->next;
    for (int i = 0; i < p->count; i++) {
        *tail = p->values[i];
        tail = &p->values[i]->next;
    }
    *tail = NULL;
    call->call.arg_count = p->count + 1;
    call->type = TYPE_STRING;
    if (p->result) {
        struct expr *concat = ast_expr(l->s->arena, EXPR_BINARY, l->e->span);
        concat->binary.op = BINARY_CONCAT;
        concat->binary.lhs = p->result;
        concat->binary.rhs = call;
        concat->type = TYPE_STRING;
        call = concat;
    }
    p->result = call;
    strbuf_reset(&p->format);
    p->count = 0;
}

static void pretty_text(struct pretty *p, const char *text)
{
    for (; *text; text++) {
        if (*text == '%')
            strbuf_putc(&p->format, '%');
        strbuf_putc(&p->format, *text);
    }
}

static void pretty_value(struct pretty *p, const char *conversion, struct expr *value)
{
    if (p->count == FORMAT_MAX_VALUES)
        pretty_flush(p);
    strbuf_puts(&p->format, conversion);
    p->values[p->count++] = value;
}

/* Elements of an array type with a known bound; -1 when unknown. */
static int64_t array_length(Dwarf_Die *array)
{
    Dwarf_Die child;
    if (dwarf_child(array, &child) != 0 || dwarf_tag(&child) != DW_TAG_subrange_type)
        return -1;
    Dwarf_Attribute attr;
    Dwarf_Word value;
    if (dwarf_attr_integrate(&child, DW_AT_count, &attr) && dwarf_formudata(&attr, &value) == 0)
        return (int64_t)value;
    if (dwarf_attr_integrate(&child, DW_AT_upper_bound, &attr) && dwarf_formudata(&attr, &value) == 0)
        return (int64_t)value + 1;
    return -1;
}

/* A char pointer as a quoted string, read by user_string2 (a sleepable
 * probe faults the page in; an unreadable one shows as empty). */
static void pretty_string(struct pretty *p, struct expr *address, int64_t length)
{
    struct lowering *l = p->l;
    pretty_text(p, "\"");
    pretty_flush(p);
    struct expr *call = ast_expr(l->s->arena, EXPR_CALL, l->e->span);
    /* a char array holds at most its length, NUL or not */
    call->call.name = length > 0 ? "user_string_n" : "user_string2";
    call->call.args = address;
    address->next = length > 0 ? dwarf_expr_int(&l->ev, length) : string_literal(l, "");
    call->call.arg_count = 2;
    call->type = TYPE_STRING;
    struct expr *concat = ast_expr(l->s->arena, EXPR_BINARY, l->e->span);
    concat->binary.op = BINARY_CONCAT;
    concat->binary.lhs = p->result;
    concat->binary.rhs = call;
    concat->type = TYPE_STRING;
    p->result = concat;
    pretty_text(p, "\"");
}

/* A place in the pretty form: hex in $$ lists; in $v$ decimal integers,
 * quoted strings for char pointers and arrays, hex pointers, structs
 * member by member (nested ones only with $$). */
static void pretty_place(struct pretty *p, struct place *place, int list, int depth)
{
    struct lowering *l = p->l;
    Dwarf_Die resolved;
    if (!place->has_type || !dwarf_type_resolve(&place->type, &resolved)) {
        pretty_text(p, "?");
        return;
    }
    int tag = dwarf_tag(&resolved);
    if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
        if (list || depth > (l->e->target.pretty == 2 ? 3 : 0) || place->kind != PLACE_MEMORY) {
            pretty_text(p, "{...}");
            return;
        }
        pretty_text(p, "{");
        Dwarf_Die child;
        int first = 1;
        if (dwarf_child(&resolved, &child) == 0) {
            do {
                const char *name = dwarf_diename(&child);
                if (dwarf_tag(&child) != DW_TAG_member || !name)
                    continue;
                struct place member = *place;
                struct component c = {.kind = COMPONENT_MEMBER, .member = name};
                pretty_text(p, first ? "." : ", .");
                first = 0;
                pretty_text(p, name);
                pretty_text(p, "=");
                if (apply_member(l, &member, &c, name))
                    pretty_place(p, &member, 0, depth + 1);
                else
                    pretty_text(p, "?");
            } while (dwarf_siblingof(&child, &child) == 0);
        }
        pretty_text(p, "}");
        return;
    }
    Dwarf_Die target, target_resolved;
    const char *element = (tag == DW_TAG_pointer_type || tag == DW_TAG_array_type) &&
        dwarf_die_type(&resolved, &target) && dwarf_type_resolve(&target, &target_resolved) &&
        dwarf_tag(&target_resolved) == DW_TAG_base_type ? dwarf_diename(&target_resolved) : NULL;
    int is_char_pointer = element && strcmp(element, "char") == 0;
    int64_t length = tag == DW_TAG_array_type ? array_length(&resolved) : -1;
    if (!list && tag == DW_TAG_array_type && place->kind == PLACE_MEMORY && length > 0 && !is_char_pointer) {
        pretty_text(p, "[");
        for (int64_t i = 0; i < length && i < 16; i++) {
            struct place item = *place;
            struct component c = {.kind = COMPONENT_INDEX, .index = dwarf_expr_int(&l->ev, i)};
            pretty_text(p, i ? ", " : "");
            if (apply_index(l, &item, &c, "element"))
                pretty_place(p, &item, 0, depth + 1);
        }
        pretty_text(p, length > 16 ? ", ...]" : "]");
        return;
    }
    int quiet = l->quiet;
    l->quiet = 1;
    struct expr *value = place_value(l, place, "value");
    l->quiet = quiet;
    if (!value) {
        pretty_text(p, tag == DW_TAG_array_type ? "[...]" : "?");
        return;
    }
    int size, is_signed;
    if (list)
        pretty_value(p, "0x%llx", value);
    else if (is_char_pointer)
        pretty_string(p, value, length);
    else if (tag == DW_TAG_pointer_type || tag == DW_TAG_array_type)
        pretty_value(p, "0x%llx", value);
    else
        pretty_value(p, scalar_of(&resolved, &size, &is_signed) && !is_signed ? "%llu" : "%lld", value);
}

/* One variable's place; 0 when it has none here (optimized out). */
static int variable_place(struct lowering *l, Dwarf_Die *var, struct place *p)
{
    memset(p, 0, sizeof(*p));
    p->has_type = dwarf_die_type(var, &p->type);
    const char *name = die_name(var);
    Dwarf_Die function;
    int reg = -1;
    if (l->site->at_entry && !l->site->is_statement && !l->site->is_return && name &&
        dwarf_module_function_die(l->site->module, l->site->function, &function))
        reg = uprobe_entry_register(&function, name);
    if (reg >= 0) {
        p->kind = PLACE_REG;
        p->reg = reg;
        return 1;
    }
    struct dwarf_location loc;
    if (!dwarf_variable_location(&l->ev, var, &loc))
        return 0;
    int quiet = l->quiet;
    l->quiet = 1;
    int ok = place_of_location(l, &loc, p, name ? name : "?");
    l->quiet = quiet;
    return ok;
}

static int lower_pretty_list(struct lowering *l, struct expr *e)
{
    const char *which = e->target.name + 1;      /* "parms", "locals", "vars", "return" */
    struct uprobe_site *site = l->site;
    Dwarf_Die function;
    if (!site->function || !dwarf_module_function_die(site->module, site->function, &function))
        return lower_error(l, "no debug information for %s: $$%s needs DWARF (-g)",
                           site->function ? site->function->name : "this address", which);
    struct pretty p = {.l = l};
    strbuf_init(&p.format);
    if (strcmp(which, "return") == 0) {
        if (!site->is_return)
            return lower_error(l, "$$return is only available in .return probes");
        struct place place = {.kind = PLACE_REG, .reg = 0};
        place.has_type = dwarf_die_type(&function, &place.type);
        if (place.has_type) {
            pretty_text(&p, "return=");
            pretty_place(&p, &place, 1, 0);
        }
    } else if (strcmp(which, "parms") == 0 || strcmp(which, "locals") == 0 || strcmp(which, "vars") == 0) {
        int want_params = strcmp(which, "locals") != 0, want_locals = strcmp(which, "parms") != 0;
        struct variable_list list;
        site_variables(site, &list);
        int first = 1;
        for (int i = 0; i < list.count; i++) {
            int is_param = dwarf_tag(&list.items[i].die) == DW_TAG_formal_parameter;
            if ((is_param && !want_params) || (!is_param && !want_locals))
                continue;
            pretty_text(&p, first ? "" : " ");
            first = 0;
            pretty_text(&p, list.items[i].name);
            pretty_text(&p, "=");
            if (site->is_return && is_param) {
                /* a parameter in .return: its value at the call */
                struct expr *target = ast_expr(l->s->arena, EXPR_TARGET, e->span);
                target->target.name = list.items[i].name;
                Dwarf_Die type, resolved;
                if (dwarf_die_type(&list.items[i].die, &type) && dwarf_type_resolve(&type, &resolved) &&
                    (dwarf_tag(&resolved) == DW_TAG_structure_type || dwarf_tag(&resolved) == DW_TAG_union_type))
                    pretty_text(&p, "{...}");
                else if (snapshot(l, target))
                    pretty_value(&p, "0x%llx", target);
                else
                    pretty_text(&p, "?");
                continue;
            }
            if (site->is_return) {
                pretty_text(&p, "?");
                continue;
            }
            struct place place;
            if (variable_place(l, &list.items[i].die, &place))
                pretty_place(&p, &place, 1, 0);
            else
                pretty_text(&p, "?");
        }
        free(list.items);
    } else {
        strbuf_free(&p.format);
        return lower_error(l, "unknown target variable $$%s (use $$parms, $$locals, $$vars or $$return)", which);
    }
    pretty_flush(&p);
    strbuf_free(&p.format);
    struct expr *result = p.result ? p.result : string_literal(l, "");
    struct expr *next = e->next;
    struct span span = e->span;
    *e = *result;
    e->next = next;
    e->span = span;
    return 1;
}

/* $v$ and $v$$: the place after the components, printed whole. */
static int lower_pretty_value(struct lowering *l, struct expr *e, struct place *place)
{
    /* A top-level pointer to a struct shows the struct, as in SystemTap. */
    Dwarf_Die resolved, target, target_resolved;
    if (place->has_type && dwarf_type_resolve(&place->type, &resolved) &&
        dwarf_tag(&resolved) == DW_TAG_pointer_type && dwarf_die_type(&resolved, &target) &&
        dwarf_type_resolve(&target, &target_resolved) &&
        (dwarf_tag(&target_resolved) == DW_TAG_structure_type || dwarf_tag(&target_resolved) == DW_TAG_union_type)) {
        struct expr *pointer = place_value(l, place, "value");
        if (!pointer)
            return 0;
        *place = (struct place){.kind = PLACE_MEMORY, .type = target, .has_type = 1, .address = pointer};
    }
    struct pretty p = {.l = l};
    strbuf_init(&p.format);
    pretty_place(&p, place, 0, 0);
    pretty_flush(&p);
    strbuf_free(&p.format);
    struct expr *result = p.result ? p.result : string_literal(l, "");
    struct expr *next = e->next;
    struct span span = e->span;
    *e = *result;
    e->next = next;
    e->span = span;
    return 1;
}

/* --- @entry ----------------------------------------------------------------- */

/* Lowers every target in an @entry operand as at the call; anything else
 * (script variables, calls) has no value at the call. */
static int lower_at_entry(struct lowering *l, struct expr *e)
{
    switch (e->kind) {
    case EXPR_INT: case EXPR_REGISTER: return 1;
    case EXPR_TARGET: case EXPR_VAR: case EXPR_CAST: case EXPR_DEFINED: {
        struct expr *saved = l->e;
        int ok = lower_one(l, e);
        l->e = saved;
        return ok && lower_at_entry(l, e);
    }
    case EXPR_USER_READ: return lower_at_entry(l, e->user_read.address);
    case EXPR_UNARY: return lower_at_entry(l, e->unary.operand);
    case EXPR_BINARY:
        return e->binary.op != BINARY_CONCAT && lower_at_entry(l, e->binary.lhs) && lower_at_entry(l, e->binary.rhs);
    case EXPR_TERNARY:
        return lower_at_entry(l, e->ternary.cond) && lower_at_entry(l, e->ternary.then_expr) &&
               lower_at_entry(l, e->ternary.else_expr);
    case EXPR_ENTRY: return lower_at_entry(l, e->unary_at.operand);
    default:
        l->e = e;
        return lower_error(l, "@entry can only save target-variable values (integers), not this expression");
    }
}

/* The value at the call, saved by an entry program keyed by thread and
 * stack frame (so recursion works): becomes snapshot register k. */
/* Registers a value the entry program saves; returns its pseudo register,
 * or -1 when the probe has no room left. The key is the probed frame's CFA:
 * rsp after a return, the CFI's CFA at any other pc. */
static int add_snapshot(struct lowering *l, struct expr *value)
{
    struct probe *probe = l->s->probe;
    if (probe->entry_count == MAX_ENTRY_SNAPSHOTS)
        return -1;
    if (!probe->entry_key) {
        struct dwarf_eval ev = l->ev;
        ev.pc = l->site->pc;
        ev.at_entry = l->site->at_entry && !l->site->is_return;
        probe->entry_key = l->site->is_return ? dwarf_expr_reg(&ev, 7) : dwarf_frame_cfa_expr(&ev);
        if (!probe->entry_key)
            return -1;
        probe->entry_vaddr = l->site->function ? l->site->function->entry : l->site->pc;
        probe->entry_offset = dwarf_module_file_offset(l->site->module, probe->entry_vaddr);
    }
    if (!probe->entry_values)
        probe->entry_values = ARENA_ARRAY(l->s->arena, struct expr *, MAX_ENTRY_SNAPSHOTS);
    probe->entry_values[probe->entry_count] = value;
    return DWARF_REG_ENTRY_SNAPSHOT + probe->entry_count++;
}

static int snapshot(struct lowering *l, struct expr *e)
{
    struct probe *probe = l->s->probe;
    struct expr *operand = e->kind == EXPR_ENTRY ? e->unary_at.operand : sema_clone_expr(l->s->arena, e);
    struct uprobe_site entry = *l->site;
    entry.is_return = 0;
    entry.at_entry = 1;
    entry.pc = l->site->function ? l->site->function->entry : l->site->pc;
    struct lowering inner = *l;
    inner.ev.context = &inner;
    inner.site = &entry;
    inner.in_entry = 1;
    inner.ev.pc = entry.pc;
    inner.ev.at_entry = 1;
    if (!lower_at_entry(&inner, operand))
        return 0;
    if (l->quiet)
        return 1;   /* @defined asks only whether it could be lowered */
    int reg = add_snapshot(l, operand);
    if (reg < 0)
        return lower_error(l, "too many @entry values in one probe (at most %d)", MAX_ENTRY_SNAPSHOTS);
    (void)probe;
    struct expr *next = e->next;
    struct span span = e->span;
    memset(e, 0, sizeof(*e));
    e->kind = EXPR_REGISTER;
    e->reg.number = reg;
    e->type = TYPE_LONG;
    e->next = next;
    e->span = span;
    return 1;
}

/* DW_OP_entry_value(regN) away from the entry (common at -O2 once a
 * parameter's register is reused): the entry program saves the register. */
static struct expr *entry_value(struct dwarf_eval *ev, int reg)
{
    struct lowering *l = ev->context;
    if (!l || !l->site || !l->site->function || l->site->function->is_inline_instance)
        return NULL;
    if (l->quiet)
        return dwarf_expr_reg(ev, reg);
    int snapshot_reg = add_snapshot(l, dwarf_expr_reg(ev, reg));
    return snapshot_reg < 0 ? NULL : dwarf_expr_reg(ev, snapshot_reg);
}

/* --- entry point ---------------------------------------------------------- */

static int lower_one(struct lowering *l, struct expr *e)
{
    l->e = e;
    switch (e->kind) {
    case EXPR_TARGET:
        if (e->target.name[0] == '$')
            return lower_pretty_list(l, e);
        return lower_variable(l, e);
    case EXPR_VAR: return lower_var_at(l, e);
    case EXPR_CAST: return lower_cast(l, e);
    case EXPR_ENTRY:
        if (!l->site || !l->site->is_return)
            return lower_error(l, "@entry is only available in .return probes");
        return snapshot(l, e);
    case EXPR_DEFINED: {
        struct expr *operand = e->unary_at.operand;
        int defined = 1;
        if (operand->kind == EXPR_TARGET || operand->kind == EXPR_VAR || operand->kind == EXPR_CAST) {
            struct lowering quiet = *l;
            quiet.quiet = 1;
            quiet.ev.context = &quiet;
            defined = quiet.site || operand->kind == EXPR_CAST ? lower_one(&quiet, sema_clone_expr(l->s->arena, operand)) : 0;
        }
        struct expr *next = e->next;
        struct span span = e->span;
        memset(e, 0, sizeof(*e));
        e->kind = EXPR_INT;
        e->int_value = defined;
        e->type = TYPE_LONG;
        e->next = next;
        e->span = span;
        return 1;
    }
    default:
        return 1;
    }
}

int sema_target_defined(struct sema *s, struct uprobe_site *site, struct expr *operand)
{
    if (operand->kind != EXPR_TARGET && operand->kind != EXPR_VAR && operand->kind != EXPR_CAST)
        return 1;
    struct expr *copy = sema_clone_expr(s->arena, operand);
    struct lowering l = {.s = s, .e = copy, .site = site, .quiet = 1};
    l.ev.arena = s->arena;
    l.ev.span = copy->span;
    l.ev.entry_value = entry_value;
    l.ev.context = &l;
    l.ev.module = site->module;
    l.ev.pc = site->pc;
    l.ev.at_entry = site->at_entry;
    Dwarf_Die function;
    if (site->function && dwarf_module_frame_die(site->module, site->function, &function))
        l.ev.function = &function;
    return lower_one(&l, copy);
}

int sema_lower_target(struct sema *s, struct expr *e)
{
    struct lowering l = {.s = s, .e = e};
    struct probe *probe = s->probe;
    int in_probe = s->function && !s->function->decl;
    l.site = in_probe && probe ? probe->site : NULL;
    if (!l.site && e->kind != EXPR_DEFINED && e->kind != EXPR_CAST)
        return lower_error(&l, "target variables are only available in process probes%s",
                           in_probe ? "" : " (not in functions)");
    l.ev.arena = s->arena;
    l.ev.span = e->span;
    l.ev.entry_value = entry_value;
    l.ev.context = &l;
    if (l.site) {
        l.ev.module = l.site->module;
        l.ev.pc = l.site->pc;
        l.ev.at_entry = l.site->at_entry;
    }
    Dwarf_Die function;
    if (l.site && l.site->function && dwarf_module_frame_die(l.site->module, l.site->function, &function))
        l.ev.function = &function;
    return lower_one(&l, e);
}
