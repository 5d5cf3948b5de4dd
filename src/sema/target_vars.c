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

#include "base/grow.h"
#include "base/strbuf.h"
#include "kinds/kinds.h"
#include "sema/autocast.h"
#include "sema/builtins.h"
#include "sema/header_types.h"
#include "sema/target_internal.h"
#include "sema/usdt.h"

int target_lower_error(struct lowering *l, const char *fmt, ...)
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

/* --- variables in scope --------------------------------------------------- */

/* Names of inlined parameters live on their abstract origin. */
const char *target_die_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_name, &attr) ? dwarf_formstring(&attr) : NULL;
}

static void add_variable(struct variable_list *list, Dwarf_Die *die)
{
    const char *name = target_die_name(die);
    /* Compiler temporaries are artificial; so is C++'s `this`, a parameter
     * SystemTap reads as $this. */
    if (!name || (dwarf_hasattr(die, DW_AT_artificial) && dwarf_tag(die) != DW_TAG_formal_parameter))
        return;
    for (int i = 0; i < list->count; i++)
        if (strcmp(list->items[i].name, name) == 0)
            return;     /* shadowed by an inner scope */
    int n = list->count;
    if (n == 0 || (n >= 4 && (n & (n - 1)) == 0))     /* room for 4, then doubled */
        list->items = realloc(list->items, sizeof(*list->items) * (size_t)(n ? 2 * n : 4));
    list->items[list->count++] = (struct target_variable){name, *die};
}

/* Parameters in declaration order. An inlined instance's own DIEs may come
 * in another order (gcc puts constants first) or miss some: walk the
 * abstract origin's and use the instance's DIE for each where it has one. */
static int add_inlined_parameters(struct variable_list *list, Dwarf_Die *function)
{
    Dwarf_Attribute attr;
    Dwarf_Die origin, param, concrete;
    if (!dwarf_attr(function, DW_AT_abstract_origin, &attr) || !dwarf_formref_die(&attr, &origin) ||
        dwarf_child(&origin, &param) != 0)
        return 0;
    do {
        if (dwarf_tag(&param) != DW_TAG_formal_parameter)
            continue;
        Dwarf_Die chosen = param;
        if (dwarf_child(function, &concrete) == 0) {
            do {
                Dwarf_Die its_origin;
                if (dwarf_attr(&concrete, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &its_origin) &&
                    dwarf_dieoffset(&its_origin) == dwarf_dieoffset(&param))
                    chosen = concrete;
            } while (dwarf_siblingof(&concrete, &concrete) == 0);
        }
        add_variable(list, &chosen);
    } while (dwarf_siblingof(&param, &param) == 0);
    return 1;
}

/* The parameters and variables of the scopes holding the pc, each scope's
 * children read in one walk (libdw pays a few hundred instructions per DIE
 * step, and -L visits every function). */
struct scope_entry { Dwarf_Die die; int tag, depth; };
struct scope_entries { struct scope_entry *items; size_t count, capacity; };

/* Adds scope's parameters and variables at `depth`; returns whether a
 * lexical block holds the pc, in *inner. */
static int read_scope(struct scope_entries *entries, Dwarf_Die *scope, int depth, uint64_t pc, Dwarf_Die *inner)
{
    Dwarf_Die child;
    int found = 0;
    if (dwarf_child(scope, &child) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_lexical_block && !found && dwarf_haspc(&child, pc) == 1) {
            *inner = child;
            found = 1;
        } else if (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) {
            struct scope_entry *items = grow_for_one(entries->items, &entries->capacity, entries->count,
                                                     sizeof(*items), 16);
            if (!items)
                break;   /* out of memory: the variables found so far */
            entries->items = items;
            entries->items[entries->count++] = (struct scope_entry){child, tag, depth};
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return found;
}

static void add_entries(struct variable_list *list, const struct scope_entries *entries, int depth, int tag)
{
    for (size_t i = 0; i < entries->count; i++)
        if (entries->items[i].depth == depth && entries->items[i].tag == tag)
            add_variable(list, &entries->items[i].die);
}

/* Innermost scope first; in the function's own scope, parameters before
 * locals (the order -L prints). Only the function's own subtree is walked
 * (lexical blocks holding the pc): dwarf_getscopes would walk the whole CU,
 * which for 20k functions in one CU makes -L quadratic. */
int target_site_variables(struct uprobe_site *site, struct variable_list *list)
{
    memset(list, 0, sizeof(*list));
    Dwarf_Die scope, inner;
    if (!site->function || !dwarf_module_function_die(site->module, site->function, &scope))
        return 0;
    Dwarf_Die function = scope;
    struct scope_entries entries = {0};
    int depth = 0;
    while (depth < 31 && read_scope(&entries, &scope, depth, site->pc, &inner)) {
        scope = inner;
        depth++;
    }
    if (depth == 31)
        read_scope(&entries, &scope, depth, site->pc, &inner);
    for (int d = depth; d > 0; d--)
        add_entries(list, &entries, d, DW_TAG_variable);
    if (!add_inlined_parameters(list, &function))
        add_entries(list, &entries, 0, DW_TAG_formal_parameter);
    add_entries(list, &entries, 0, DW_TAG_variable);
    free(entries.items);
    return 1;
}

void uprobe_spell_variables(struct strbuf *sb, struct uprobe_site *site)
{
    struct variable_list list;
    target_site_variables(site, &list);
    for (int i = 0; i < list.count; i++) {
        Dwarf_Die type;
        if (site->is_return && dwarf_tag(&list.items[i].die) != DW_TAG_formal_parameter)
            continue;   /* a .return sees parameters (as at the call), not locals */
        strbuf_puts(sb, " $");
        strbuf_puts(sb, list.items[i].name);
        strbuf_putc(sb, ':');
        strbuf_puts(sb, dwarf_die_type(&list.items[i].die, &type)
                            ? dwarf_type_name(&site->module->type_names, &type) : "void");
    }
    free(list.items);
}

/* --- types ---------------------------------------------------------------- */

Dwarf_Word target_byte_size(Dwarf_Die *type)
{
    Dwarf_Attribute attr;
    Dwarf_Word size = 0;
    if (dwarf_attr_integrate(type, DW_AT_byte_size, &attr))
        dwarf_formudata(&attr, &size);
    return size;
}

const char *target_type_text(struct lowering *l, Dwarf_Die *type)
{
    struct strbuf sb;
    strbuf_init(&sb);
    dwarf_type_spell(&sb, type);
    const char *text = arena_strdup(l->s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

/* Scalar layout of a type: 0 when it is not a scalar. */
int target_scalar_of(Dwarf_Die *resolved, int *size, int *is_signed)
{
    Dwarf_Attribute attr;
    Dwarf_Word encoding = 0;
    *size = (int)target_byte_size(resolved);
    *is_signed = 0;
    switch (dwarf_tag(resolved)) {
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:          /* a C++ reference reads as the address it holds */
    case DW_TAG_rvalue_reference_type:
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

struct expr *target_place_value(struct lowering *l, struct place *p, const char *what)
{
    Dwarf_Die resolved;
    if (!p->has_type || !dwarf_type_resolve(&p->type, &resolved)) {
        target_lower_error(l, "%s has no type (void)", what);
        return NULL;
    }
    int tag = dwarf_tag(&resolved);
    if (tag == DW_TAG_array_type) {
        if (p->kind == PLACE_MEMORY)
            return p->address;      /* an array reads as its address, as in C */
        target_lower_error(l, "%s is an array held in registers: index it with a constant", what);
        return NULL;
    }
    int size, is_signed;
    if (!target_scalar_of(&resolved, &size, &is_signed)) {
        if (dwarf_tag_is_record(tag))
            target_lower_error(l, "%s is a %s: read a member (->name) or use %s$", what, target_type_text(l, &p->type), what);
        else
            target_lower_error(l, "%s has type %s, which tap cannot read as a long", what, target_type_text(l, &p->type));
        return NULL;
    }
    struct dwarf_eval *ev = &l->ev;
    if (p->kind == PLACE_PIECES)
        return target_pieces_value(l, p, p->bit_size ? p->bit_size : size * 8, is_signed, what);
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
            target_lower_error(l, "%s has an unusual size (%d bytes)", what, size);
            return NULL;
        }
        return dwarf_expr_read(ev, p->address, size, is_signed);
    case PLACE_REG:
        if (p->reg > DWARF_REG_IP) {
            target_lower_error(l, "%s is in DWARF register %d (vector or floating point), which tap cannot read",
                               what, p->reg);
            return NULL;
        }
        return dwarf_expr_narrow(ev, dwarf_expr_reg(ev, p->reg), size, is_signed);
    case PLACE_VALUE: return dwarf_expr_narrow(ev, p->value, size, is_signed);
    case PLACE_PIECES: break;
    }
    return NULL;
}

static int find_member(Dwarf_Die *aggregate, const char *name, Dwarf_Die *member, int64_t *offset)
{
    Dwarf_Die child;
    if (dwarf_child(aggregate, &child) != 0)
        return 0;
    do {
        /* a C++ base class is an unnamed member at its offset: searched as one */
        if (dwarf_tag(&child) != DW_TAG_member && dwarf_tag(&child) != DW_TAG_inheritance)
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
int target_apply_member(struct lowering *l, struct place *p, struct component *c, const char *what)
{
    Dwarf_Die resolved;
    if (!p->has_type || !dwarf_type_resolve(&p->type, &resolved))
        return target_lower_error(l, "%s has no type (void): cannot read member %s", what, c->member);
    if (dwarf_tag_is_pointer(dwarf_tag(&resolved))) {
        struct expr *pointer = target_place_value(l, p, what);
        Dwarf_Die target;
        if (!pointer)
            return 0;
        if (!dwarf_die_type(&resolved, &target))
            return target_lower_error(l, "%s is a void pointer: cannot read member %s (use @cast)", what, c->member);
        *p = (struct place){.kind = PLACE_MEMORY, .type = target, .has_type = 1, .address = pointer};
        if (!dwarf_type_resolve(&p->type, &resolved))
            return target_lower_error(l, "%s: cannot resolve the pointed-to type", what);
    }
    int tag = dwarf_tag(&resolved);
    if (!dwarf_tag_is_record(tag))
        return target_lower_error(l, "%s has type %s: it has no member %s", what, target_type_text(l, &p->type), c->member);
    target_place_to_pieces(l, p);
    Dwarf_Die member;
    int64_t offset = 0;
    if (!find_member(&resolved, c->member, &member, &offset))
        return target_lower_error(l, "unable to find member '%s' for %s (alternatives: %s)", c->member,
                           target_type_text(l, &p->type), member_names(l, &resolved));
    Dwarf_Attribute attr;
    Dwarf_Word bit_size = 0, bit_offset = 0;
    if (dwarf_attr_integrate(&member, DW_AT_bit_size, &attr))
        dwarf_formudata(&attr, &bit_size);
    if (bit_size && dwarf_attr_integrate(&member, DW_AT_data_bit_offset, &attr))
        dwarf_formudata(&attr, &bit_offset);
    if (p->kind == PLACE_PIECES) {
        p->piece_bit += (int)(offset * 8 + (int64_t)bit_offset);
        p->bit_size = (int)bit_size;
    } else {
        p->address = dwarf_expr_add(&l->ev, p->address, dwarf_expr_int(&l->ev, offset + (int64_t)(bit_offset / 8)));
        p->bit_size = (int)bit_size;
        p->bit_offset = (int)(bit_offset % 8);
    }
    p->has_type = dwarf_die_type(&member, &p->type);
    return 1;
}

int target_apply_index(struct lowering *l, struct place *p, struct component *c, const char *what)
{
    Dwarf_Die resolved, element, element_resolved;
    if (!p->has_type || !dwarf_type_resolve(&p->type, &resolved))
        return target_lower_error(l, "%s has no type (void): it cannot be indexed", what);
    int tag = dwarf_tag(&resolved);
    if ((tag != DW_TAG_array_type && tag != DW_TAG_pointer_type) || !dwarf_die_type(&resolved, &element))
        return target_lower_error(l, "%s has type %s: it cannot be indexed", what, target_type_text(l, &p->type));
    Dwarf_Word size = dwarf_type_resolve(&element, &element_resolved) ? target_byte_size(&element_resolved) : 0;
    if (dwarf_tag_is_pointer(dwarf_tag(&element_resolved)))
        size = 8;
    if (tag == DW_TAG_array_type)
        target_place_to_pieces(l, p);
    if (tag == DW_TAG_array_type && p->kind == PLACE_PIECES && c->index->kind == EXPR_INT) {
        p->piece_bit += (int)(c->index->int_value * (int64_t)size * 8);
        p->type = element;
        return 1;
    }
    struct expr *base = target_place_value(l, p, what);
    if (!base)
        return 0;
    struct dwarf_eval *ev = &l->ev;
    struct expr *offset = c->index->kind == EXPR_INT
        ? dwarf_expr_int(ev, c->index->int_value * (int64_t)size)
        : dwarf_expr_binary(ev, BINARY_MUL, c->index, dwarf_expr_int(ev, (int64_t)size));
    *p = (struct place){.kind = PLACE_MEMORY, .type = element, .has_type = 1,
                        .address = dwarf_expr_add(ev, base, offset)};
    return 1;
}

/* 0, or 1 for `$v$` (`@cast(...)$`, `@var(...)$`), 2 for `$v$$`. */
int target_pretty_level(const struct expr *e)
{
    switch (e->kind) {
    case EXPR_TARGET: return e->target.pretty;
    case EXPR_CAST: return e->cast.pretty;
    case EXPR_VAR: return e->var_at.pretty;
    case EXPR_AUTOCAST: return e->autocast.pretty;
    default: return 0;
    }
}

/* Components, then & or the value; rewrites l->e in place. */
static int finish(struct lowering *l, struct place *p, struct component *components, int address_of,
                  const char *what)
{
    for (struct component *c = components; c; c = c->next) {
        if (!(c->kind == COMPONENT_MEMBER ? target_apply_member(l, p, c, what) : target_apply_index(l, p, c, what)))
            return 0;
        what = c->kind == COMPONENT_MEMBER ? arena_printf(l->s->arena, "%s->%s", what, c->member)
             : c->index->kind == EXPR_INT ? arena_printf(l->s->arena, "%s[%lld]", what, (long long)c->index->int_value)
             : arena_printf(l->s->arena, "%s[...]", what);
    }
    if (target_pretty_level(l->e) && !address_of)
        return target_lower_pretty_value(l, l->e, p);
    struct expr *result;
    if (address_of) {
        if (p->kind != PLACE_MEMORY || p->bit_size)
            return target_lower_error(l, "cannot take the address of %s: it is not in memory", what);
        result = p->address;
    } else {
        result = target_place_value(l, p, what);
    }
    if (!result)
        return 0;
    struct expr *next = l->e->next;
    struct span span = l->e->span;
    *l->e = *result;
    l->e->next = next;
    l->e->span = span;
    if (p->has_type && !l->quiet)
        sema_note_dwarf_ctype(l->s, l->e, &p->type, address_of);
    return 1;
}

int target_place_of_location(struct lowering *l, struct dwarf_location *loc, struct place *p, const char *what)
{
    switch (loc->kind) {
    case LOC_REG: p->kind = PLACE_REG; p->reg = loc->reg; return 1;
    case LOC_MEMORY: p->kind = PLACE_MEMORY; p->address = loc->address; return 1;
    case LOC_VALUE: p->kind = PLACE_VALUE; p->value = loc->value; return 1;
    case LOC_PIECES: target_place_of_pieces(loc, p); return 1;
    case LOC_OPTIMIZED_OUT: break;
    }
    return target_optimized_out(l, what);
}

int target_optimized_out(struct lowering *l, const char *what)
{
    return target_lower_error(l, "%s is optimized out at pc 0x%llx in %s", what, (unsigned long long)l->ev.pc,
                              l->site && l->site->function ? l->site->function->name : "?");
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
        return target_lower_error(l, "no debug information for %s in %s: target variables need DWARF (-g)%s",
                           site->function ? site->function->name : "this address", site->module->path,
                           strcmp(name, "return") == 0 && site->is_return
                               ? "; returnval() reads the return register (rax) without it" : "");
    struct place p = {0};
    if (strcmp(name, "return") == 0) {
        if (!site->is_return)
            return target_lower_error(l, "$return is only available in .return probes");
        p.has_type = dwarf_die_type(&function, &p.type);
        if (!p.has_type)
            return target_lower_error(l, "%s returns void: there is no $return", site->function->name);
        p.kind = PLACE_REG;
        p.reg = 0;
        return finish(l, &p, e->target.components, e->target.address_of, what);
    }
    struct variable_list list;
    target_site_variables(site, &list);
    int found = -1;
    for (int i = 0; i < list.count && found < 0; i++)
        if (strcmp(list.items[i].name, name) == 0)
            found = i;
    if (found < 0) {
        struct strbuf sb;
        strbuf_init(&sb);
        for (int i = 0; i < list.count; i++)
            strbuf_printf(&sb, "%s$%s", i ? ", " : "", list.items[i].name);
        target_lower_error(l, "unable to find local '%s' near pc 0x%llx in %s %s (alternatives: %s)", name,
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
            ? target_snapshot(l, e)    /* parameters in .return are their values at the call */
            : target_lower_error(l, "%s is a local: in a .return probe only parameters, $return and @entry "
                          "values are available", what);
    p.has_type = dwarf_die_type(&var, &p.type);
    int reg = (site->at_entry && !site->is_statement && !site->is_return) || l->in_entry
        ? uprobe_entry_register(&function, name) : -1;
    if (l->in_entry && reg < 0 && !dwarf_location_in_registers(&var, site->pc))
        return target_lower_error(l, "@entry(%s): only parameters held in registers can be saved at the call", what);
    if (reg >= 0) {
        p.kind = PLACE_REG;
        p.reg = reg;
    } else {
        struct dwarf_location loc;
        if (!dwarf_variable_location(&l->ev, &var, &loc))
            return target_lower_error(l, "cannot locate %s at pc 0x%llx: %s", what, (unsigned long long)site->pc,
                               l->ev.error);
        if (!target_place_of_location(l, &loc, &p, what))
            return 0;
    }
    return finish(l, &p, e->target.components, e->target.address_of, what);
}

static void fold_to_int(struct expr *e, int64_t value)
{
    struct expr *next = e->next;
    struct span span = e->span;
    memset(e, 0, sizeof(*e));
    e->kind = EXPR_INT;
    e->int_value = value;
    e->type = TYPE_LONG;
    e->next = next;
    e->span = span;
}

/* --- @var, @cast ---------------------------------------------------------- */

/* The first DIE at the top of some CU that `match` accepts (it sees the CU
 * too): @var's globals and @cast's types are looked up this way. */
static int find_top_level(struct dwarf_module *m, int (*match)(Dwarf_Die *cu, Dwarf_Die *die, const void *ctx),
                          const void *ctx, Dwarf_Die *out)
{
    if (!m->dwarf)
        return 0;
    Dwarf_Off offset = 0, next;
    size_t header_size;
    for (; dwarf_nextcu(m->dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0; offset = next) {
        Dwarf_Die cu, child;
        if (!dwarf_offdie(m->dwarf, offset + header_size, &cu) || dwarf_child(&cu, &child) != 0)
            continue;
        do {
            if (match(&cu, &child, ctx)) {
                *out = child;
                return 1;
            }
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    return 0;
}

struct global_wanted { const char *name, *file; };

/* A variable with a location, in a CU whose name is `file` or ends in it. */
static int is_global_wanted(Dwarf_Die *cu, Dwarf_Die *die, const void *ctx)
{
    const struct global_wanted *want = ctx;
    const char *n = dwarf_diename(die);
    if (dwarf_tag(die) != DW_TAG_variable || !n || strcmp(n, want->name) != 0 ||
        !dwarf_hasattr(die, DW_AT_location))
        return 0;
    if (!want->file)
        return 1;
    const char *cu_file = dwarf_diename(cu);
    size_t cu_len = cu_file ? strlen(cu_file) : 0, len = strlen(want->file);
    return cu_file && cu_len >= len && strcmp(cu_file + cu_len - len, want->file) == 0;
}

static int find_global(struct dwarf_module *m, const char *name, const char *file, Dwarf_Die *out)
{
    struct global_wanted want = {name, file};
    return find_top_level(m, is_global_wanted, &want, out);
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
        m = dwarf_module_open(l->s->options->modules, e->var_at.module, error, sizeof(error));
        if (!m)
            return target_lower_error(l, "%s", error);
    }
    Dwarf_Die var;
    if (!find_global(m, name, at ? at + 1 : NULL, &var))
        return target_lower_error(l, "unable to find global '%s' in %s", spec, m->path);
    struct dwarf_location loc;
    struct dwarf_eval ev = l->ev;
    ev.module = m;
    if (!dwarf_variable_location(&ev, &var, &loc))
        return target_lower_error(l, "cannot locate %s: %s", what, ev.error);
    struct place p = {.has_type = dwarf_die_type(&var, &p.type)};
    if (!target_place_of_location(l, &loc, &p, what))
        return 0;
    return finish(l, &p, e->var_at.components, e->var_at.address_of, what);
}

struct type_wanted { const char *name; int tag; };

/* A definition with that name and tag (a typedef's name may be a base type's). */
static int is_type_wanted(Dwarf_Die *cu, Dwarf_Die *die, const void *ctx)
{
    (void)cu;
    const struct type_wanted *want = ctx;
    const char *n = dwarf_diename(die);
    int t = dwarf_tag(die);
    return n && strcmp(n, want->name) == 0 &&
           (t == want->tag || (want->tag == DW_TAG_typedef && t == DW_TAG_base_type)) &&
           !dwarf_hasattr(die, DW_AT_declaration);
}

/* A type by name at the top of some CU: "struct foo", "union u", "enum e",
 * a typedef or a base type ("foo_t", "unsigned int"). */
static int find_named_type(struct dwarf_module *m, const char *spelled, Dwarf_Die *out)
{
    int tag = DW_TAG_typedef;
    const char *name = spelled;
    if (strncmp(spelled, "struct ", 7) == 0) { tag = DW_TAG_structure_type; name = spelled + 7; }
    else if (strncmp(spelled, "union ", 6) == 0) { tag = DW_TAG_union_type; name = spelled + 6; }
    else if (strncmp(spelled, "enum ", 5) == 0) { tag = DW_TAG_enumeration_type; name = spelled + 5; }
    while (*name == ' ')
        name++;
    struct type_wanted want = {name, tag};
    return find_top_level(m, is_type_wanted, &want, out);
}

/* A pointer type to `target` in target's CU: "struct foo *" is cast to the
 * DIE the program's own `struct foo *` uses, so components and pretty
 * printing treat it as any pointer. */
static int find_pointer_to(Dwarf_Die *target, Dwarf_Die *out)
{
    Dwarf_Die cu, child;
    if (!dwarf_diecu(target, &cu, NULL, NULL) || dwarf_child(&cu, &child) != 0)
        return 0;
    do {
        Dwarf_Die pointee;
        if (dwarf_tag(&child) == DW_TAG_pointer_type && dwarf_die_type(&child, &pointee) &&
            dwarf_dieoffset(&pointee) == dwarf_dieoffset(target)) {
            *out = child;
            return 1;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* "struct foo", "foo_t", "struct foo *", "char **" in module m. */
static int find_cast_type(struct lowering *l, struct dwarf_module *m, const char *spelled, Dwarf_Die *out)
{
    size_t len = strlen(spelled);
    int stars = 0;
    while (len && (spelled[len - 1] == '*' || spelled[len - 1] == ' '))
        stars += spelled[--len] == '*';
    if (!find_named_type(m, arena_strndup(l->s->arena, spelled, len), out))
        return 0;
    for (int i = 0; i < stars; i++) {
        Dwarf_Die resolved;     /* "foo_t *": the program may only use `struct foo *` */
        if (!find_pointer_to(out, out) && !(dwarf_type_resolve(out, &resolved) && find_pointer_to(&resolved, out)))
            return 0;
    }
    return 1;
}

/* User-space headers ("<stdio.h>"): compiled for their DWARF. */
static int cast_header_type(struct lowering *l, const char *headers, const char *type, Dwarf_Die *out)
{
    char error[512];
    struct dwarf_module *m = header_module_open(l->s->options->modules, headers, error, sizeof(error));
    if (!m)
        return target_lower_error(l, "@cast(..., \"%s\", \"%s\"): %s", type, headers, error);
    if (!find_cast_type(l, m, type, out))
        return target_lower_error(l, "unable to find type '%s' in %s", type, headers);
    return 1;
}

/* @cast's module argument: a path, several joined by ':' (the first that
 * has the type wins), or headers, as in SystemTap; kernel headers are
 * refused (the kernel's own @cast reads BTF, not here). */
static int cast_module_type(struct lowering *l, const char *modules, const char *type, Dwarf_Die *out)
{
    if (modules[0] == '<')
        return cast_header_type(l, modules, type, out);
    if (strchr(modules, '<') || strcmp(modules, "kernel") == 0)
        return target_lower_error(l, "@cast(..., \"%s\", \"%s\"): tap reads types from the DWARF of user-space "
                                  "binaries and headers only (give the program's path or \"<header.h>\")", type,
                                  modules);
    const char *searched = "";
    for (const char *start = modules; *start;) {
        const char *end = strchr(start, ':');
        size_t n = end ? (size_t)(end - start) : strlen(start);
        char error[512];
        struct dwarf_module *m = dwarf_module_open(l->s->options->modules, arena_strndup(l->s->arena, start, n), error,
                                                   sizeof(error));
        if (!m)
            return target_lower_error(l, "%s", error);
        if (find_cast_type(l, m, type, out))
            return 1;
        searched = arena_printf(l->s->arena, "%s%s%s", searched, *searched ? ", " : "", m->path);
        start = end ? end + 1 : start + n;
    }
    return target_lower_error(l, "unable to find type '%s' in %s", type, searched);
}

/* @cast(p, "T")[i] of a T that is no pointer nor array is ((T *)p)[i], as in
 * SystemTap (the library's @cast_module_sizeof is &@cast(0, T, M)[1]):
 * moves p to element i and returns 0; 1 when T indexes itself. */
static int cast_index_element(struct lowering *l, struct place *p, struct component *index)
{
    Dwarf_Die resolved;
    if (!dwarf_type_resolve(&p->type, &resolved))
        return 1;
    int tag = dwarf_tag(&resolved);
    if (tag == DW_TAG_array_type || tag == DW_TAG_pointer_type)
        return 1;
    int64_t size = (int64_t)target_byte_size(&resolved);
    struct expr *offset = index->index->kind == EXPR_INT
        ? dwarf_expr_int(&l->ev, index->index->int_value * size)
        : dwarf_expr_binary(&l->ev, BINARY_MUL, index->index, dwarf_expr_int(&l->ev, size));
    p->address = dwarf_expr_add(&l->ev, p->address, offset);
    return 0;
}

static int lower_cast(struct lowering *l, struct expr *e)
{
    const char *type = e->cast.type_name;
    struct place p = {.kind = PLACE_MEMORY, .address = e->cast.address, .has_type = 1};
    if (e->cast.module) {
        if (!cast_module_type(l, e->cast.module, type, &p.type))
            return 0;
    } else if (!l->site) {
        return target_lower_error(l, "@cast needs a module outside process probes: @cast(p, \"%s\", \"PATH\")", type);
    } else if (!find_cast_type(l, l->site->module, type, &p.type)) {
        return target_lower_error(l, "unable to find type '%s' in %s", type, l->site->module->path);
    }
    const char *what = arena_printf(l->s->arena, "@cast(..., \"%s\")", type);
    struct component *components = e->cast.components;
    if (components && components->kind == COMPONENT_INDEX && !cast_index_element(l, &p, components))
        components = components->next;
    return finish(l, &p, components, e->cast.address_of, what);
}

/* --- @entry ----------------------------------------------------------------- */

/* Lowers every target in an @entry operand as at the call. Calls stay for
 * resolve (the entry program makes them at the call); script variables and
 * assignments have no value there. */
static int lower_at_entry(struct lowering *l, struct expr *e)
{
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_REGISTER: return 1;
    case EXPR_TARGET: case EXPR_VAR: case EXPR_CAST: case EXPR_DEFINED: {
        struct expr *saved = l->e;
        int ok = lower_one(l, e);
        l->e = saved;
        return ok && lower_at_entry(l, e);
    }
    case EXPR_USER_READ: return lower_at_entry(l, e->user_read.address);
    case EXPR_UNARY: return lower_at_entry(l, e->unary.operand);
    case EXPR_BINARY: return lower_at_entry(l, e->binary.lhs) && lower_at_entry(l, e->binary.rhs);
    case EXPR_TERNARY:
        return lower_at_entry(l, e->ternary.cond) && lower_at_entry(l, e->ternary.then_expr) &&
               lower_at_entry(l, e->ternary.else_expr);
    case EXPR_ENTRY: {   /* @entry(@entry(x)) is @entry(x) */
        struct expr *next = e->next;
        *e = *e->unary_at.operand;
        e->next = next;
        return lower_at_entry(l, e);
    }
    case EXPR_CALL:
        l->e = e;
        if (strcmp(e->call.name, "returnval") == 0 || strcmp(e->call.name, "returnstr") == 0)
            return target_lower_error(l, "@entry(%s(...)): the function has not returned at the call", e->call.name);
        for (struct expr *arg = e->call.args; arg; arg = arg->next)
            if (!lower_at_entry(l, arg))
                return 0;
        return 1;
    default:
        l->e = e;
        return target_lower_error(l, "@entry saves what can be computed at the call (target variables, "
                                  "arguments, function calls), not script variables or assignments");
    }
}

/* After resolve: the calls of an operand must give a value the entry
 * program can compute; stacks and symbols are taken where the probe fires.
 * Nonzero (and an error reported) when one cannot. */
static int entry_call_refused(struct expr *e, void *ctx)
{
    struct lowering *l = ctx;
    if (ast_expr_children(e, &(struct ast_visitor){entry_call_refused, NULL, l}))
        return 1;
    if (e->kind != EXPR_CALL)
        return 0;
    l->e = e;
    if (e->call.target != CALL_BUILTIN)
        return 0;   /* a script function, or an error already reported */
    const struct builtin *b = e->call.builtin;
    if (b->return_type == TYPE_VOID)
        return !target_lower_error(l, "@entry needs a value: %s() returns none", b->name);
    if (b->id >= BUILTIN_UBACKTRACE)
        return !target_lower_error(l, "@entry(%s(...)): stacks and symbols are read where the probe fires",
                                   b->name);
    return 0;
}

/* The value at the call, saved by an entry program keyed by thread and
 * stack frame (so recursion works): becomes target_snapshot register k. */
/* Registers a value the entry program saves; returns its pseudo register,
 * or -1 when the probe has no room left. The key is the probed frame's CFA:
 * rsp after a return (uretprobe), rsp + 8 at a ret, the CFI's CFA at any
 * other pc. */
static int add_snapshot(struct lowering *l, struct expr *value)
{
    struct probe *probe = l->s->probe;
    if (probe->entry_count == MAX_ENTRY_SNAPSHOTS)
        return -1;
    if (!probe->entry_key) {
        struct dwarf_eval ev = l->ev;
        ev.pc = l->site->pc;
        /* at a ret, as at the entry, the CFA is rsp + 8 */
        ev.at_entry = l->site->at_entry && (!l->site->is_return || l->site->at_returns);
        probe->entry_key = l->site->is_return && !l->site->at_returns ? dwarf_expr_reg(&ev, 7)
                                                                      : dwarf_frame_cfa_expr(&ev);
        if (!probe->entry_key)
            return -1;
        probe->uprobe.entry_vaddr = l->site->function ? l->site->function->entry : l->site->pc;
        probe->uprobe.entry_offset = dwarf_module_file_offset(l->site->module, probe->uprobe.entry_vaddr);
    }
    if (!probe->entry_values)
        probe->entry_values = ARENA_ARRAY(l->s->arena, struct expr *, MAX_ENTRY_SNAPSHOTS);
    probe->entry_values[probe->entry_count] = value;
    return DWARF_REG_ENTRY_SNAPSHOT + probe->entry_count++;
}

int target_snapshot(struct lowering *l, struct expr *e)
{
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
    int errors = l->s->diags->error_count;
    sema_resolve_expr(l->s, operand);
    if (l->s->diags->error_count != errors || entry_call_refused(operand, &inner))
        return 0;
    int reg = add_snapshot(l, operand);
    if (reg < 0)
        return target_lower_error(l, "too many @entry values in one probe (at most %d)", MAX_ENTRY_SNAPSHOTS);
    sema_become_snapshot(e, reg);
    e->ctype = operand->ctype;   /* the value at the call keeps its C type */
    return 1;
}

void sema_become_snapshot(struct expr *e, int reg)
{
    struct expr *next = e->next;
    struct span span = e->span;
    memset(e, 0, sizeof(*e));
    e->kind = EXPR_REGISTER;
    e->reg.number = reg;
    e->type = TYPE_UNKNOWN;   /* the operand's, once inferred (types.c) */
    e->next = next;
    e->span = span;
}

/* DW_OP_entry_value(regN) away from the entry (common at -O2 once a
 * parameter's register is reused): the entry program saves the register. */
static struct expr *entry_value(struct dwarf_eval *ev, int reg)
{
    struct lowering *l = ev->context;
    if (!l || !l->site || !l->site->function || l->site->function->is_inline_instance || l->site->module->is_kernel)
        return NULL;   /* a kernel statement has no entry program */
    if (l->quiet)
        return dwarf_expr_reg(ev, reg);
    int snapshot_reg = add_snapshot(l, dwarf_expr_reg(ev, reg));
    return snapshot_reg < 0 ? NULL : dwarf_expr_reg(ev, snapshot_reg);
}

/* The load bias in a uretprobe: bpf_get_func_ip answers 0 there before 6.6
 * (and regs->ip is the return address), so the entry program saves it, once
 * a probe, where regs->ip is the probed address. */
static struct expr *load_bias(struct dwarf_eval *ev)
{
    struct lowering *l = ev->context;
    struct expr *bias = dwarf_expr_reg(ev, DWARF_REG_LOAD_BIAS);
    if (!l || l->quiet || !l->site || !l->site->is_return || l->site->at_returns || !l->site->function ||
        l->site->function->is_inline_instance)
        return bias;
    const struct probe *probe = l->s->probe;
    for (int k = 0; k < probe->entry_count; k++) {
        const struct expr *saved = probe->entry_values[k];
        if (saved->kind == EXPR_REGISTER && saved->reg.number == DWARF_REG_LOAD_BIAS)
            return dwarf_expr_reg(ev, DWARF_REG_ENTRY_SNAPSHOT + k);
    }
    int reg = add_snapshot(l, bias);
    if (reg < 0)
        snprintf(ev->error, sizeof(ev->error), "too many @entry values in one probe (at most %d)",
                 MAX_ENTRY_SNAPSHOTS);
    return reg < 0 ? NULL : dwarf_expr_reg(ev, reg);
}

/* --- entry point ---------------------------------------------------------- */

static int lower_one(struct lowering *l, struct expr *e)
{
    l->e = e;
    switch (e->kind) {
    case EXPR_TARGET:
        if (l->site && l->site->mark)
            return usdt_lower_target(l->s, l->site, e, l->quiet);
        if (l->site && l->site->plt_name)
            return uprobe_plt_lower_target(l->s, e, l->quiet);
        if (e->target.name[0] == '$')
            return target_lower_pretty_list(l, e);
        return lower_variable(l, e);
    case EXPR_VAR: return lower_var_at(l, e);
    case EXPR_CAST: return lower_cast(l, e);
    case EXPR_ENTRY:
        if (!l->site || !l->site->is_return)
            return target_lower_error(l, "@entry is only available in .return probes");
        return target_snapshot(l, e);
    case EXPR_DEFINED: {
        struct expr *operand = e->unary_at.operand;
        int defined = 1;
        if (operand->kind == EXPR_TARGET || operand->kind == EXPR_VAR || operand->kind == EXPR_CAST) {
            struct lowering quiet = *l;
            quiet.quiet = 1;
            quiet.ev.context = &quiet;
            defined = quiet.site || operand->kind == EXPR_CAST ? lower_one(&quiet, sema_clone_expr(l->s->arena, operand)) : 0;
        }
        fold_to_int(e, defined);
        return 1;
    }
    default:
        return 1;
    }
}

int sema_target_defined(struct sema *s, struct uprobe_site *site, struct expr *operand)
{
    if (operand->kind == EXPR_AUTOCAST)
        return -1;   /* its operand's type is known once resolved: decided there */
    if (operand->kind != EXPR_TARGET && operand->kind != EXPR_VAR && operand->kind != EXPR_CAST)
        return 1;
    struct expr *copy = sema_clone_expr(s->arena, operand);
    struct lowering l = {.s = s, .e = copy, .site = site, .quiet = 1};
    l.ev.arena = s->arena;
    l.ev.span = copy->span;
    l.ev.entry_value = entry_value;
    l.ev.load_bias = load_bias;
    l.ev.context = &l;
    l.ev.module = site->module;
    l.ev.pc = site->pc;
    l.ev.at_entry = site->at_entry;
    Dwarf_Die function;
    if (site->function && dwarf_module_frame_die(site->module, site->function, &function))
        l.ev.function = &function;
    return lower_one(&l, copy);
}

/* @defined of a $variable the probe's kind lowers itself (a tracepoint's
 * $field or $arg->member, a kernel function's BTF-typed $argument), or of a
 * kernel @cast: 1 when a copy lowers without a diagnostic. A test reads
 * nothing: the probe is put back as it was (whatever its kind's lowering
 * chose, a tracepoint's fields or arguments, @entry snapshots). */
static int defined_by_trial(struct sema *s, struct expr *e, int own_target)
{
    struct expr *copy = sema_clone_expr(s->arena, e->unary_at.operand);
    struct diags quiet, *saved = s->diags;
    diags_init(&quiet);
    s->diags = &quiet;
    struct probe before = s->probe ? *s->probe : (struct probe){0};
    const struct probe_kind_ops *kind = own_target ? probe_kind_ops(s->probe->kind) : NULL;
    int lowered = !kind ? sema_lower_kernel_cast(s, copy)
                  : kind->flags & KIND_TARGET_DEFINED_UNLESS_REPORTED ? (kind->lower_target(s, copy), 1)
                  : kind->lower_target(s, copy);
    if (s->probe)
        *s->probe = before;
    s->diags = saved;
    int defined = lowered && quiet.error_count == 0;
    diags_free(&quiet);
    fold_to_int(e, defined);
    return 1;
}

/* The lowering of e where it is: its site when in a process probe's own
 * body (not a function's); 1 when in a probe's body. */
static int start_lowering(struct lowering *l, struct sema *s, struct expr *e)
{
    *l = (struct lowering){.s = s, .e = e};
    int in_probe = s->function && !s->function->decl;
    l->site = in_probe && s->probe ? probe_dwarf_site(s->probe) : NULL;
    l->ev.arena = s->arena;
    l->ev.span = e->span;
    l->ev.entry_value = entry_value;
    l->ev.load_bias = load_bias;
    l->ev.context = l;
    if (l->site) {
        l->ev.module = l->site->module;
        l->ev.pc = l->site->pc;
        l->ev.at_entry = l->site->at_entry;
    }
    return in_probe;
}

int sema_lower_target(struct sema *s, struct expr *e)
{
    if (sema_is_kernel_cast(e))
        return sema_lower_kernel_cast(s, e);
    if (e->kind == EXPR_DEFINED && e->unary_at.operand->kind == EXPR_AUTOCAST)
        return sema_autocast_defined(s, e);
    if (e->kind == EXPR_DEFINED) {
        struct expr *operand = e->unary_at.operand;
        /* kernel.function's $arguments (fentry, kprobes typed from BTF)
         * are their kind's to lower, as a tracepoint's fields are */
        int own_target = operand->kind == EXPR_TARGET && s->probe && s->frame == s->probe->frame &&
                         probe_kind_ops(s->probe->kind)->lower_target && !probe_dwarf_site(s->probe);
        if (own_target || sema_is_kernel_cast(operand))
            return defined_by_trial(s, e, own_target);
    }
    struct lowering l;
    int in_probe = start_lowering(&l, s, e);
    if (!l.site && e->kind != EXPR_DEFINED && e->kind != EXPR_CAST)
        return target_lower_error(&l, "target variables are only available in process probes%s",
                           in_probe ? "" : " (not in functions)");
    Dwarf_Die function;
    if (l.site && l.site->function && dwarf_module_frame_die(l.site->module, l.site->function, &function))
        l.ev.function = &function;
    return lower_one(&l, e);
}

/* `p->f` where p's value has DWARF type `type` (autocast.c): the value is a
 * pointer (or the address of an object, `&$v->g`, or of an array) and the
 * components walk it as they walk a $variable's. */
int target_lower_autocast(struct sema *s, struct expr *e, const struct c_type *type, const char *what)
{
    struct lowering l;
    start_lowering(&l, s, e);
    Dwarf_Die resolved;
    struct place p = {.kind = PLACE_VALUE, .type = type->die, .has_type = 1, .value = e->autocast.operand};
    if (type->address_of || (dwarf_type_resolve(&p.type, &resolved) && dwarf_tag(&resolved) == DW_TAG_array_type)) {
        p.kind = PLACE_MEMORY;
        p.address = e->autocast.operand;
        p.value = NULL;
    }
    return finish(&l, &p, e->autocast.components, e->autocast.address_of, what);
}
