/* DWARF types: names spelled as SystemTap spells them in listings
 * ("char const*", "struct point*", "int[]", "int (*) (int)"), and the
 * stripping of typedefs and qualifiers that member access needs. */
#include <dwarf.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "sema/dwarf.h"

int dwarf_die_type(Dwarf_Die *die, Dwarf_Die *type)
{
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, type);
}

int dwarf_type_resolve(Dwarf_Die *type, Dwarf_Die *out)
{
    Dwarf_Die current = *type;
    for (int depth = 0; depth < 32; depth++) {
        int tag = dwarf_tag(&current);
        if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
            tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type) {
            *out = current;
            return 1;
        }
        Dwarf_Die next;
        if (!dwarf_die_type(&current, &next))
            return 0;
        current = next;
    }
    return 0;
}

static void spell_function_pointer(struct strbuf *sb, Dwarf_Die *function)
{
    Dwarf_Die ret;
    if (dwarf_die_type(function, &ret))
        dwarf_type_spell(sb, &ret);
    else
        strbuf_puts(sb, "void");
    strbuf_puts(sb, " (*) (");
    Dwarf_Die child;
    int first = 1;
    if (dwarf_child(function, &child) == 0) {
        do {
            if (dwarf_tag(&child) != DW_TAG_formal_parameter)
                continue;
            Dwarf_Die param;
            if (!first)
                strbuf_puts(sb, ", ");
            first = 0;
            if (dwarf_die_type(&child, &param))
                dwarf_type_spell(sb, &param);
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    strbuf_putc(sb, ')');
}

void dwarf_type_spell(struct strbuf *sb, Dwarf_Die *type)
{
    Dwarf_Die target;
    int has_target = dwarf_die_type(type, &target);
    const char *name = dwarf_diename(type);
    switch (dwarf_tag(type)) {
    case DW_TAG_base_type:
    case DW_TAG_typedef:
        strbuf_puts(sb, name ? name : "?");
        return;
    case DW_TAG_structure_type: strbuf_printf(sb, "struct %s", name ? name : "{...}"); return;
    case DW_TAG_class_type: strbuf_printf(sb, "class %s", name ? name : "{...}"); return;
    case DW_TAG_union_type: strbuf_printf(sb, "union %s", name ? name : "{...}"); return;
    case DW_TAG_enumeration_type: strbuf_printf(sb, "enum %s", name ? name : "{...}"); return;
    case DW_TAG_pointer_type:
        if (has_target && dwarf_tag(&target) == DW_TAG_subroutine_type) {
            spell_function_pointer(sb, &target);
            return;
        }
        if (has_target)
            dwarf_type_spell(sb, &target);
        else
            strbuf_puts(sb, "void");
        strbuf_putc(sb, '*');
        return;
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
        if (has_target)
            dwarf_type_spell(sb, &target);
        strbuf_puts(sb, dwarf_tag(type) == DW_TAG_reference_type ? "&" : "&&");
        return;
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
        if (has_target)
            dwarf_type_spell(sb, &target);
        else
            strbuf_puts(sb, "void");
        strbuf_puts(sb, dwarf_tag(type) == DW_TAG_const_type ? " const" : " volatile");
        return;
    case DW_TAG_restrict_type:
        if (has_target)
            dwarf_type_spell(sb, &target);
        strbuf_puts(sb, " restrict");
        return;
    case DW_TAG_array_type:
        if (has_target)
            dwarf_type_spell(sb, &target);
        strbuf_puts(sb, "[]");
        return;
    case DW_TAG_subroutine_type:
        spell_function_pointer(sb, type);
        return;
    default:
        strbuf_puts(sb, name ? name : "?");
    }
}

int dwarf_tag_is_record(int tag)
{
    return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type;
}

int dwarf_tag_is_pointer(int tag)
{
    return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type || tag == DW_TAG_rvalue_reference_type;
}

/* --- spelled names, cached ------------------------------------------------ */

static size_t name_slot(const struct dwarf_type_names *names, const void *die)
{
    uint64_t h = (uint64_t)(uintptr_t)die * 0x9e3779b97f4a7c15ull;   /* Fibonacci hashing */
    size_t i = (size_t)(h >> 32) & (names->capacity - 1);
    while (names->slots[i].die && names->slots[i].die != die)
        i = (i + 1) & (names->capacity - 1);
    return i;
}

static void grow_names(struct dwarf_type_names *names)
{
    struct dwarf_type_names grown = *names;
    grown.capacity = names->capacity ? names->capacity * 2 : 16;
    grown.slots = ARENA_ARRAY(names->arena, struct dwarf_type_name, grown.capacity);
    for (size_t i = 0; i < names->capacity; i++)
        if (names->slots[i].die)
            grown.slots[name_slot(&grown, names->slots[i].die)] = names->slots[i];
    *names = grown;
}

const char *dwarf_type_name(struct dwarf_type_names *names, Dwarf_Die *type)
{
    if (2 * (names->count + 1) > names->capacity)
        grow_names(names);
    size_t i = name_slot(names, type->addr);
    if (names->slots[i].die)
        return names->slots[i].text;
    struct strbuf sb;
    strbuf_init(&sb);
    dwarf_type_spell(&sb, type);
    names->slots[i] = (struct dwarf_type_name){type->addr, arena_strndup(names->arena, sb.data ? sb.data : "", sb.len)};
    names->count++;
    strbuf_free(&sb);
    return names->slots[i].text;
}
