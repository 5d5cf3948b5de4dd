/* The C++ (and Rust) scope of a function: "shop::Cart" for Cart::add,
 * "(anonymous namespace)" as the demangler spells it. DWARF puts a
 * method's declaration in its class and the definition at the CU level
 * (DW_AT_specification back to it), and libdw gives no parent links, so
 * one walk per module maps every subprogram DIE under a named scope to
 * that scope; a definition finds it through its specification or
 * abstract origin. The walk only enters namespaces and types, never
 * function bodies, and skips C units, which have no scopes. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "sema/dwarf.h"

struct scope_walk {
    struct arena *arena;
    struct dwarf_scope_map *map;
    int capacity;
};

static void note_scope(struct scope_walk *w, const void *die, const char *scope)
{
    struct dwarf_scope_map *map = w->map;
    if (map->count == w->capacity) {
        int capacity = w->capacity ? w->capacity * 2 : 256;
        map->entries = arena_realloc(w->arena, map->entries, sizeof(*map->entries) * (size_t)w->capacity,
                                     sizeof(*map->entries) * (size_t)capacity);
        w->capacity = capacity;
    }
    map->entries[map->count++] = (struct dwarf_scope_entry){die, scope};
}

static int is_scope_tag(int tag)
{
    return tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
           tag == DW_TAG_union_type;
}

static void walk_scope(struct scope_walk *w, Dwarf_Die *parent, const char *scope, int depth)
{
    Dwarf_Die child;
    if (depth > 32 || dwarf_child(parent, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram && scope) {
            note_scope(w, child.addr, scope);
        } else if (is_scope_tag(tag) && dwarf_haschildren(&child)) {
            const char *name = dwarf_diename(&child);
            if (!name && tag != DW_TAG_namespace)
                continue;   /* an anonymous struct names no scope a function could be called by */
            if (!name)
                name = "(anonymous namespace)";
            const char *inner = scope ? arena_printf(w->arena, "%s::%s", scope, name) : name;
            walk_scope(w, &child, inner, depth + 1);
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

static int is_c_unit(Dwarf_Die *unit)
{
    switch (dwarf_srclang(unit)) {
    case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
    case DW_LANG_Mips_Assembler:
        return 1;
    default:
        return 0;
    }
}

static void walk_units(struct scope_walk *w, Dwarf *dwarf)
{
    Dwarf_Off offset = 0, next;
    size_t header_size;
    while (dwarf_nextcu(dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die unit;
        if (dwarf_offdie(dwarf, offset + header_size, &unit) && !is_c_unit(&unit))
            walk_scope(w, &unit, NULL, 0);
        offset = next;
    }
}

static int compare_entries(const void *a, const void *b)
{
    const char *x = ((const struct dwarf_scope_entry *)a)->die, *y = ((const struct dwarf_scope_entry *)b)->die;
    return x < y ? -1 : x > y;
}

static void build_map(struct arena *arena, struct dwarf_module *m)
{
    struct scope_walk w = {.arena = arena, .map = &m->scopes};
    m->scopes.built = 1;
    if (!m->dwarf)
        return;
    walk_units(&w, m->dwarf);
    if (dwarf_getalt(m->dwarf))   /* a dwz file's partial units hold shared classes */
        walk_units(&w, dwarf_getalt(m->dwarf));
    if (m->scopes.count)
        qsort(m->scopes.entries, (size_t)m->scopes.count, sizeof(*m->scopes.entries), compare_entries);
}

static const char *lookup(const struct dwarf_scope_map *map, const void *die)
{
    struct dwarf_scope_entry key = {die, NULL};
    const struct dwarf_scope_entry *hit =
        bsearch(&key, map->entries, (size_t)map->count, sizeof(*map->entries), compare_entries);
    return hit ? hit->scope : NULL;
}

const char *dwarf_module_scope(struct arena *arena, struct dwarf_module *m, Dwarf_Die *die)
{
    if (!m->scopes.built)
        build_map(arena, m);
    if (!m->scopes.count)
        return NULL;
    Dwarf_Die current = *die;
    for (int hops = 0; hops < 4; hops++) {   /* instance -> abstract root -> declaration */
        const char *scope = lookup(&m->scopes, current.addr);
        if (scope)
            return scope;
        Dwarf_Attribute attr;
        if (!dwarf_attr(&current, DW_AT_specification, &attr) && !dwarf_attr(&current, DW_AT_abstract_origin, &attr))
            return NULL;
        if (!dwarf_formref_die(&attr, &current))
            return NULL;
    }
    return NULL;
}
