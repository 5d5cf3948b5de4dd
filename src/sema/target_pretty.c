/* Pretty forms of target variables: $$parms, $$locals, $$vars, $$return
 * ("a=0x1 b=0xa", structs {...}) and $v$, $v$$ ({.x=1, .name="head"}),
 * built as __tap_format calls (bpf_snprintf in codegen) joined by `.`. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "sema/target_internal.h"

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

/* A char pointer as a quoted string (escaped as string_quoted does), read
 * by user_string2 (a sleepable probe faults the page in; an unreadable one
 * shows as ""). */
static void pretty_string(struct pretty *p, struct expr *address, int64_t length)
{
    struct lowering *l = p->l;
    pretty_flush(p);
    struct expr *read = ast_expr(l->s->arena, EXPR_CALL, l->e->span);
    /* a char array holds at most its length, NUL or not */
    read->call.name = length > 0 ? "user_string_n" : "user_string2";
    read->call.args = address;
    address->next = length > 0 ? dwarf_expr_int(&l->ev, length) : string_literal(l, "");
    read->call.arg_count = 2;
    read->type = TYPE_STRING;
    struct expr *call = ast_expr(l->s->arena, EXPR_CALL, l->e->span);
    call->call.name = "string_quoted";
    call->call.args = read;
    call->call.arg_count = 1;
    call->type = TYPE_STRING;
    if (!p->result) {
        p->result = call;
        return;
    }
    struct expr *concat = ast_expr(l->s->arena, EXPR_BINARY, l->e->span);
    concat->binary.op = BINARY_CONCAT;
    concat->binary.lhs = p->result;
    concat->binary.rhs = call;
    concat->type = TYPE_STRING;
    p->result = concat;
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
    if (dwarf_tag_is_record(tag)) {
        if (list || depth > (target_pretty_level(l->e) == 2 ? 3 : 0)) {
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
                if (target_apply_member(l, &member, &c, name))
                    pretty_place(p, &member, 0, depth + 1);
                else
                    pretty_text(p, "?");
            } while (dwarf_siblingof(&child, &child) == 0);
        }
        pretty_text(p, "}");
        return;
    }
    Dwarf_Die target, target_resolved;
    const char *element = (dwarf_tag_is_pointer(tag) || tag == DW_TAG_array_type) &&
        dwarf_die_type(&resolved, &target) && dwarf_type_resolve(&target, &target_resolved) &&
        dwarf_tag(&target_resolved) == DW_TAG_base_type ? dwarf_diename(&target_resolved) : NULL;
    int is_char_pointer = element && strcmp(element, "char") == 0;
    int64_t length = tag == DW_TAG_array_type ? array_length(&resolved) : -1;
    if (!list && tag == DW_TAG_array_type && length > 0 && !is_char_pointer) {
        pretty_text(p, "[");
        for (int64_t i = 0; i < length && i < 16; i++) {
            struct place item = *place;
            struct component c = {.kind = COMPONENT_INDEX, .index = dwarf_expr_int(&l->ev, i)};
            pretty_text(p, i ? ", " : "");
            if (target_apply_index(l, &item, &c, "element"))
                pretty_place(p, &item, 0, depth + 1);
        }
        pretty_text(p, length > 16 ? ", ...]" : "]");
        return;
    }
    int quiet = l->quiet;
    l->quiet = 1;
    struct expr *value = target_place_value(l, place, "value");
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
    else if (dwarf_tag_is_pointer(tag) || tag == DW_TAG_array_type)
        pretty_value(p, "0x%llx", value);
    else
        pretty_value(p, target_scalar_of(&resolved, &size, &is_signed) && !is_signed ? "%llu" : "%lld", value);
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

int target_lower_pretty_list(struct lowering *l, struct expr *e)
{
    const char *which = e->target.name + 1;      /* "parms", "locals", "vars", "return" */
    struct uprobe_site *site = l->site;
    Dwarf_Die function;
    if (!site->function || !dwarf_module_function_die(site->module, site->function, &function))
        return target_lower_error(l, "no debug information for %s: $$%s needs DWARF (-g)",
                           site->function ? site->function->name : "this address", which);
    struct pretty p = {.l = l};
    strbuf_init(&p.format);
    if (strcmp(which, "return") == 0) {
        if (!site->is_return)
            return target_lower_error(l, "$$return is only available in .return probes");
        struct place place = {.kind = PLACE_REG, .reg = 0};
        place.has_type = dwarf_die_type(&function, &place.type);
        if (place.has_type) {
            pretty_text(&p, "return=");
            pretty_place(&p, &place, 1, 0);
        }
    } else if (strcmp(which, "parms") == 0 || strcmp(which, "locals") == 0 || strcmp(which, "vars") == 0) {
        int want_params = strcmp(which, "locals") != 0, want_locals = strcmp(which, "parms") != 0;
        struct variable_list list;
        target_site_variables(site, &list);
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
                    dwarf_tag_is_record(dwarf_tag(&resolved)))
                    pretty_text(&p, "{...}");
                else if (target_snapshot(l, target))
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
        return target_lower_error(l, "unknown target variable $$%s (use $$parms, $$locals, $$vars or $$return)", which);
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
int target_lower_pretty_value(struct lowering *l, struct expr *e, struct place *place)
{
    /* A top-level pointer to a struct shows the struct, as in SystemTap. */
    Dwarf_Die resolved, target, target_resolved;
    if (place->has_type && dwarf_type_resolve(&place->type, &resolved) &&
        dwarf_tag_is_pointer(dwarf_tag(&resolved)) && dwarf_die_type(&resolved, &target) &&
        dwarf_type_resolve(&target, &target_resolved) &&
        dwarf_tag_is_record(dwarf_tag(&target_resolved))) {
        struct expr *pointer = target_place_value(l, place, "value");
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

