/* dwarf_module_decl_file() reads only the line table's header: it must name
 * the same file as libdw's dwarf_decl_file() for every DIE with a
 * DW_AT_decl_file, in DWARF 5 (gcc's default) and DWARF 4 test programs. */
#include <dwarf.h>
#include <string.h>

#include "base/arena.h"
#include "check.h"
#include "sema/dwarf.h"

/* Compares every DIE under `parent`; returns how many named a file. */
static int compare_tree(struct arena *arena, struct dwarf_module *m, Dwarf_Die *parent, int depth)
{
    Dwarf_Die child;
    int compared = 0;
    if (depth > 32 || dwarf_child(parent, &child) != 0)
        return 0;
    do {
        if (dwarf_hasattr_integrate(&child, DW_AT_decl_file)) {
            const char *ours = dwarf_module_decl_file(arena, m, &child);
            const char *libdw = dwarf_decl_file(&child);
            CHECK((ours == NULL) == (libdw == NULL));
            if (ours && libdw)
                CHECK_STR(ours, libdw);
            compared += libdw != NULL;
        }
        compared += compare_tree(arena, m, &child, depth + 1);
    } while (dwarf_siblingof(&child, &child) == 0);
    return compared;
}

static void check_program(struct dwarf_modules *modules, const char *path)
{
    char error[256];
    struct dwarf_module *m = dwarf_module_open(modules, path, error, sizeof(error));
    CHECK(m != NULL && m->dwarf != NULL);
    if (!m || !m->dwarf)
        return;
    Dwarf_Off offset = 0, next;
    size_t header_size;
    int compared = 0;
    while (dwarf_nextcu(m->dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(m->dwarf, offset + header_size, &cu))
            compared += compare_tree(modules->arena, m, &cu, 0);
        offset = next;
    }
    if (compared < 3)
        fprintf(stderr, "%s: only %d DIEs name a file\n", path, compared);
    CHECK(compared >= 3);   /* a test that compared nothing proves nothing */
}

int main(void)
{
    struct arena arena;
    arena_init(&arena);
    struct dwarf_modules modules = {.arena = &arena};
    check_program(&modules, TAP_TEST_PROGRAMS "/t_args");
    check_program(&modules, TAP_TEST_PROGRAMS "/t_args_dwarf4");
    check_program(&modules, TAP_TEST_PROGRAMS "/t_inlined_o2");
    check_program(&modules, TAP_TEST_PROGRAMS "/libt_lib.so");
    dwarf_modules_close(&modules);
    arena_free(&arena);
    return check_summary();
}
