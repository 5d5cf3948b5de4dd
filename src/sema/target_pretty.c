/* Pretty forms of target variables: $$parms, $$locals, $$vars, $$return
 * ("a=0x1 b=0xa", structs {...}) and $v$, $v$$ ({.x=1, .name="head"}),
 * built as __tap_format calls (bpf_snprintf in codegen) joined by `.`. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "sema/target_internal.h"

struct pretty {
    struct lowering *l;
    struct pretty_text text;
    int full;                    /* $$: nested structs and arrays too */
    int args;                    /* values so far (SystemTap stops members at 32) */
};

static void pretty_init(struct pretty *p, struct lowering *l, int full)
{
    *p = (struct pretty){.l = l, .full = full};
    pretty_text_init(&p->text, l->s, l->e->span);
}

static void pretty_literal(struct pretty *p, const char *text)
{
    pretty_text_literal(&p->text, text);
}

static void pretty_value(struct pretty *p, const char *conversion, struct expr *value)
{
    pretty_text_value(&p->text, conversion, value);
    p->args++;
}

/* A string-valued call (user_string_quoted, sprintf) appended to the
 * concatenation. */
static void pretty_call(struct pretty *p, const char *name, struct expr *args, int arg_count)
{
    struct expr *call = ast_expr(p->l->s->arena, EXPR_CALL, p->l->e->span);
    call->call.name = name;
    call->call.args = args;
    call->call.arg_count = arg_count;
    pretty_text_string(&p->text, call);
    p->args++;
}

/* DW_AT_encoding of a base type; -1 for others (enums). */
static int base_encoding(Dwarf_Die *type)
{
    Dwarf_Attribute attr;
    Dwarf_Word encoding;
    if (dwarf_attr_integrate(type, DW_AT_encoding, &attr) && dwarf_formudata(&attr, &encoding) == 0)
        return (int)encoding;
    return -1;
}

/* A one-byte character type, printed as a string through a pointer or in
 * an array (SystemTap's print_chars; wider ones stay numbers here). */
static int is_char_type(Dwarf_Die *type)
{
    Dwarf_Die resolved;
    if (!dwarf_type_resolve(type, &resolved) || dwarf_tag(&resolved) != DW_TAG_base_type)
        return 0;
    int encoding = base_encoding(&resolved);
    Dwarf_Attribute attr;
    Dwarf_Word size = 0;
    if (dwarf_attr_integrate(&resolved, DW_AT_byte_size, &attr))
        dwarf_formudata(&attr, &size);
    return (encoding == DW_ATE_signed_char || encoding == DW_ATE_unsigned_char || encoding == DW_ATE_UTF) &&
        size == 1;
}

/* The place's value read quietly; NULL when it has none. */
static struct expr *quiet_value(struct pretty *p, struct place *place)
{
    int quiet = p->l->quiet;
    p->l->quiet = 1;
    struct expr *value = target_place_value(p->l, place, "value");
    p->l->quiet = quiet;
    return value;
}

/* SystemTap's push_deref: the value with a conversion, "?" without one. */
static void pretty_number(struct pretty *p, struct place *place, const char *conversion)
{
    struct expr *value = quiet_value(p, place);
    if (value)
        pretty_value(p, conversion, value);
    else
        pretty_literal(p, "?");
}

/* user_string_quoted of the place's value: the string, or its address in
 * hex where it cannot be read (NULL), as SystemTap prints a char pointer.
 * A char array's (LENGTH bytes, 0 for a pointer's) stops at its end: its
 * last byte need not be a NUL. */
static void pretty_chars(struct pretty *p, struct place *place, Dwarf_Word length)
{
    struct expr *value = quiet_value(p, place);
    if (!value) {
        pretty_literal(p, "?");
        return;
    }
    if (!length) {
        pretty_call(p, "user_string_quoted", value, 1);
        return;
    }
    struct expr *bound = ast_expr(p->l->s->arena, EXPR_INT, p->l->e->span);
    bound->int_value = (int64_t)length;
    bound->type = TYPE_LONG;
    value->next = bound;
    pretty_call(p, "user_string_n_quoted", value, 2);
}

/* A base type or enum (recurse_base, recurse_bitfield): floats "?", chars
 * '%#c' (_tap_char_quoted; a bitfield's stays a number), else %u or %i. */
static void pretty_base(struct pretty *p, struct place *place, Dwarf_Die *type, int bitfield)
{
    int encoding = base_encoding(type);
    if (encoding == DW_ATE_float || encoding == DW_ATE_complex_float) {
        pretty_literal(p, "?");
        return;
    }
    int is_char = encoding == DW_ATE_signed_char || encoding == DW_ATE_unsigned_char || encoding == DW_ATE_UTF;
    if (is_char && !bitfield) {
        struct expr *value = quiet_value(p, place);
        if (!value) {
            pretty_literal(p, "?");
            return;
        }
        pretty_call(p, "_tap_char_quoted", value, 1);
        return;
    }
    int is_unsigned = encoding == DW_ATE_unsigned || encoding == DW_ATE_unsigned_char || encoding == DW_ATE_boolean;
    pretty_number(p, place, is_unsigned ? "%llu" : "%lld");
}

static void pretty_place(struct pretty *p, struct place *place, Dwarf_Die *type, int top, int bitfield);

/* The label of an unnamed member, as SystemTap spells it (struct and class
 * swapped as there). */
static const char *anonymous_label(Dwarf_Die *member_type)
{
    Dwarf_Die resolved;
    if (!dwarf_type_resolve(member_type, &resolved))
        return "";
    switch (dwarf_tag(&resolved)) {
    case DW_TAG_union_type: return "<union>";
    case DW_TAG_structure_type: return "<class>";
    case DW_TAG_class_type: return "<struct>";
    default: return "";
    }
}

static int is_bitfield(Dwarf_Die *member)
{
    return dwarf_hasattr_integrate(member, DW_AT_bit_offset) ||
        dwarf_hasattr_integrate(member, DW_AT_data_bit_offset);
}

/* The members of a struct or union (recurse_struct_members): static ones,
 * vtable pointers and masked duplicates skipped, "..." once the format has
 * 32 values. An unnamed member's members are the parent's. */
static void pretty_members(struct pretty *p, struct place *place, Dwarf_Die *record, int *count)
{
    Dwarf_Die child;
    if (dwarf_child(record, &child) != 0)
        return;
    do {
        if (dwarf_hasattr(&child, DW_AT_declaration) || dwarf_tag(&child) != DW_TAG_member)
            continue;
        const char *name = dwarf_diename(&child);
        Dwarf_Die member_type;
        if (!dwarf_die_type(&child, &member_type) || (name && strncmp(name, "_vptr.", 6) == 0))
            continue;
        if (++*count > 1)
            pretty_literal(p, ", ");
        if (p->args >= 32) {
            pretty_literal(p, "...");
            return;
        }
        struct place member = *place;
        if (name) {
            pretty_literal(p, ".");
            pretty_literal(p, name);
            struct component c = {.kind = COMPONENT_MEMBER, .member = name};
            int quiet = p->l->quiet;
            p->l->quiet = 1;
            int found = target_apply_member(p->l, &member, &c, name);
            p->l->quiet = quiet;
            if (!found) {
                pretty_literal(p, "=?");
                continue;
            }
        } else {
            pretty_literal(p, anonymous_label(&member_type));
        }
        pretty_literal(p, "=");
        pretty_place(p, &member, &member_type, 0, is_bitfield(&child));
    } while (dwarf_siblingof(&child, &child) == 0);
}

/* The members of a record in memory at the top of a variable, printed by a
 * function of its address that every identical printer shares
 * (pretty_share.c); 0 when it stays inline. */
static int shared_record(struct pretty *p, struct place *place, Dwarf_Die *record)
{
    /* (an @entry operand's runs in the entry program, sleepable on its own terms: inline) */
    if (place->kind != PLACE_MEMORY || place->bit_size || !place->address || p->args || p->l->in_entry)
        return 0;
    struct lowering *l = p->l;
    struct pretty inner;
    pretty_init(&inner, l, p->full);
    struct expr *param = sema_pretty_parameter(l->s, l->e->span);
    struct place at = *place;
    at.address = param;
    int count = 0;
    pretty_literal(&inner, "{");
    pretty_members(&inner, &at, record, &count);
    pretty_literal(&inner, "}");
    struct expr *call = sema_share_pretty(l->s, l->e->span, pretty_text_finish(&inner.text), param,
                                          place->address);
    if (!call)
        return 0;
    pretty_text_string(&p->text, call);
    p->args += inner.args;
    return 1;
}

static void pretty_record(struct pretty *p, struct place *place, Dwarf_Die *record, int top)
{
    if (!top && !p->full) {
        pretty_literal(p, "{...}");
        return;
    }
    if (dwarf_hasattr(record, DW_AT_declaration) && !dwarf_haschildren(record)) {
        pretty_literal(p, "{...}");
        return;
    }
    /* the members of a struct reached through a pointer (at the top) */
    Dwarf_Die resolved;
    if (place->has_type && dwarf_type_resolve(&place->type, &resolved) &&
        dwarf_tag_is_pointer(dwarf_tag(&resolved))) {
        struct expr *pointer = quiet_value(p, place);
        if (!pointer) {
            pretty_literal(p, "{...}");
            return;
        }
        *place = (struct place){.kind = PLACE_MEMORY, .type = *record, .has_type = 1, .address = pointer};
    }
    if (top && shared_record(p, place, record))
        return;
    int count = 0;
    pretty_literal(p, "{");
    pretty_members(p, place, record, &count);
    pretty_literal(p, "}");
}

/* recurse_array: "[...]" below the top of $v$; chars as a string; else the
 * first element, then ", ..." (SystemTap prints one element). */
static void pretty_array(struct pretty *p, struct place *place, Dwarf_Die *array, int top)
{
    if (!top && !p->full) {
        pretty_literal(p, "[...]");
        return;
    }
    Dwarf_Die element;
    if (!dwarf_die_type(array, &element)) {
        pretty_literal(p, "?");
        return;
    }
    if (is_char_type(&element)) {
        Dwarf_Word length;
        pretty_chars(p, place, dwarf_aggregate_size(array, &length) == 0 && length ? length : 0);
        return;
    }
    pretty_literal(p, "[");
    if (p->args < 32) {
        struct place item = *place;
        struct component c = {.kind = COMPONENT_INDEX, .index = dwarf_expr_int(&p->l->ev, 0)};
        int quiet = p->l->quiet;
        p->l->quiet = 1;
        int found = target_apply_index(p->l, &item, &c, "element");
        p->l->quiet = quiet;
        if (found)
            pretty_place(p, &item, &element, 0, 0);
        else
            pretty_literal(p, "?");
    }
    pretty_literal(p, ", ...]");
}

/* recurse_pointer: chars as a string; at the top, what it points to (a
 * struct's members through it; for other types, as SystemTap, the formats
 * of the pointed-to type applied to the pointer's own value); else hex. */
static void pretty_pointer(struct pretty *p, struct place *place, Dwarf_Die *pointer, int top)
{
    Dwarf_Die pointee, resolved;
    int is_void = !dwarf_die_type(pointer, &pointee) || !dwarf_type_resolve(&pointee, &resolved);
    if (!is_void && is_char_type(&pointee)) {
        pretty_chars(p, place, 0);
        return;
    }
    if (!is_void && top) {
        pretty_place(p, place, &pointee, 1, 0);
        return;
    }
    pretty_number(p, place, "0x%llx");
}

/* SystemTap's dwarf_pretty_print::recurse: the place formatted as `type`
 * (the place's own type, or what a top-level pointer points to). */
static void pretty_place(struct pretty *p, struct place *place, Dwarf_Die *type, int top, int bitfield)
{
    Dwarf_Die resolved;
    if (!type || !dwarf_type_resolve(type, &resolved)) {
        pretty_number(p, place, "0x%llx");   /* void: %p */
        return;
    }
    switch (dwarf_tag(&resolved)) {
    case DW_TAG_base_type:
    case DW_TAG_enumeration_type:
        pretty_base(p, place, &resolved, bitfield);
        return;
    case DW_TAG_array_type:
        pretty_array(p, place, &resolved, top);
        return;
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
        pretty_pointer(p, place, &resolved, top);
        return;
    case DW_TAG_subroutine_type:
        pretty_literal(p, "<function>:");
        pretty_number(p, place, "0x%llx");
        return;
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_class_type:
        pretty_record(p, place, &resolved, top);
        return;
    default:
        pretty_literal(p, "?");
        return;
    }
}

/* $$parms without $: "{...}" for structs, "[...]" for arrays, else %#x. */
static void list_place(struct pretty *p, struct place *place)
{
    Dwarf_Die resolved;
    if (place->has_type && dwarf_type_resolve(&place->type, &resolved)) {
        int tag = dwarf_tag(&resolved);
        if (dwarf_tag_is_record(tag)) {
            pretty_literal(p, "{...}");
            return;
        }
        if (tag == DW_TAG_array_type) {
            pretty_literal(p, "[...]");
            return;
        }
    }
    pretty_number(p, place, "0x%llx");
}

/* One variable's place; 0 when it has none here (optimized out). */
static int variable_place(struct lowering *l, Dwarf_Die *var, struct place *p)
{
    memset(p, 0, sizeof(*p));
    p->has_type = dwarf_die_type(var, &p->type);
    const char *name = target_die_name(var);
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
    int ok = target_place_of_location(l, &loc, p, name ? name : "?");
    l->quiet = quiet;
    return ok;
}

/* Replaces e with the concatenation built. */
static int pretty_finish(struct pretty *p, struct expr *e)
{
    struct expr *result = pretty_text_finish(&p->text);
    struct expr *next = e->next;
    struct span span = e->span;
    *e = *result;
    e->next = next;
    e->span = span;
    return 1;
}

/* A parameter in a .return probe: its value at the call (a snapshot),
 * which is all a number needs; a pretty form that reads memory would read
 * it at the return, so it is refused. */
static int list_saved_parameter(struct pretty *p, struct expr *e, struct target_variable *var, int pretty)
{
    struct lowering *l = p->l;
    Dwarf_Die type, resolved;
    int has_type = dwarf_die_type(&var->die, &type) && dwarf_type_resolve(&type, &resolved);
    int tag = has_type ? dwarf_tag(&resolved) : 0;
    if (!pretty && (dwarf_tag_is_record(tag) || tag == DW_TAG_array_type)) {
        pretty_literal(p, dwarf_tag_is_record(tag) ? "{...}" : "[...]");
        return 1;
    }
    if (pretty && tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type)
        return target_lower_error(l, "$$%s%s in a .return probe: $%s$ reads memory at the return, not at the "
                                  "call; print it in the entry probe", e->target.name + 1,
                                  pretty == 2 ? "$$" : "$", var->name);
    struct expr *target = ast_expr(l->s->arena, EXPR_TARGET, e->span);
    target->target.name = var->name;
    if (!target_snapshot(l, target)) {
        pretty_literal(p, "?");
        return 1;
    }
    int encoding = base_encoding(&resolved);
    if (pretty && (encoding == DW_ATE_float || encoding == DW_ATE_complex_float))
        pretty_literal(p, "?");
    else if (pretty && (encoding == DW_ATE_signed_char || encoding == DW_ATE_unsigned_char))
        pretty_call(p, "_tap_char_quoted", target, 1);
    else
        pretty_value(p, !pretty ? "0x%llx" : encoding == DW_ATE_unsigned ? "%llu" : "%lld", target);
    return 1;
}

/* $$parms, $$locals, $$vars: "name=value" of each, values as $name$ (or
 * $name$$) with a pretty form, else %#x with "{...}" and "[...]". */
static int list_variables(struct pretty *p, struct expr *e, int want_params, int want_locals)
{
    struct lowering *l = p->l;
    struct uprobe_site *site = l->site;
    int pretty = target_pretty_level(e);
    struct variable_list list;
    target_site_variables(site, &list);
    int first = 1, ok = 1;
    for (int i = 0; i < list.count && ok; i++) {
        int is_param = dwarf_tag(&list.items[i].die) == DW_TAG_formal_parameter;
        if ((is_param && !want_params) || (!is_param && !want_locals))
            continue;
        pretty_literal(p, first ? "" : " ");
        first = 0;
        pretty_literal(p, list.items[i].name);
        pretty_literal(p, "=");
        struct place place;
        if (site->is_return && is_param)
            ok = list_saved_parameter(p, e, &list.items[i], pretty);
        else if (site->is_return || !variable_place(l, &list.items[i].die, &place))
            pretty_literal(p, "?");
        else if (pretty)
            pretty_place(p, &place, place.has_type ? &place.type : NULL, 1, 0);
        else
            list_place(p, &place);
        p->args = 0;   /* each variable is its own format in SystemTap */
    }
    free(list.items);
    return ok;
}

int target_lower_pretty_list(struct lowering *l, struct expr *e)
{
    const char *which = e->target.name + 1;      /* "parms", "locals", "vars", "return" */
    struct uprobe_site *site = l->site;
    Dwarf_Die function;
    if (!site->function || !dwarf_module_function_die(site->module, site->function, &function))
        return target_lower_error(l, "no debug information for %s: $$%s needs DWARF (-g)",
                           site->function ? site->function->name : "this address", which);
    if (e->target.address_of)
        return target_lower_error(l, "cannot take address of context variable");
    struct pretty p;
    pretty_init(&p, l, target_pretty_level(e) == 2);
    int ok = 1;
    if (strcmp(which, "return") == 0) {
        if (!site->is_return) {
            pretty_text_discard(&p.text);
            return target_lower_error(l, "$$return is only available in .return probes");
        }
        struct place place = {.kind = PLACE_REG, .reg = 0};
        place.has_type = dwarf_die_type(&function, &place.type);
        if (place.has_type) {
            pretty_literal(&p, "return=");
            if (target_pretty_level(e))
                pretty_place(&p, &place, &place.type, 1, 0);
            else
                list_place(&p, &place);
        }
    } else if (strcmp(which, "parms") == 0 || strcmp(which, "locals") == 0 || strcmp(which, "vars") == 0) {
        ok = list_variables(&p, e, strcmp(which, "locals") != 0, strcmp(which, "parms") != 0);
    } else {
        pretty_text_discard(&p.text);
        return target_lower_error(l, "unknown target variable $$%s (use $$parms, $$locals, $$vars or $$return)", which);
    }
    if (!ok) {
        pretty_text_discard(&p.text);
        return 0;
    }
    return pretty_finish(&p, e);
}

/* $v$ and $v$$: the place after the components, printed whole (the top of
 * SystemTap's recursion). */
int target_lower_pretty_value(struct lowering *l, struct expr *e, struct place *place)
{
    struct pretty p;
    pretty_init(&p, l, target_pretty_level(e) == 2);
    pretty_place(&p, place, place->has_type ? &place->type : NULL, 1, 0);
    return pretty_finish(&p, e);
}
