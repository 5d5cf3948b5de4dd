/* The running kernel's DWARF: /usr/lib/debug/boot/vmlinux-RELEASE, where
 * SystemTap looks for it (Debian's linux-image-RELEASE-dbg). Its DWARF is
 * hundreds of megabytes: nothing is indexed; a function is found by its
 * symbol's address, then its compile unit (.debug_aranges). The file must
 * be the running kernel's (the same GNU build id as /sys/kernel/notes), and
 * its link-time addresses move by KASLR's offset (its _text against
 * /proc/kallsyms's). */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/arena.h"
#include "base/kernel_build_id.h"
#include "sema/dwarf.h"

static int compare_by_name(const void *a, const void *b)
{
    return strcmp(((const struct dwarf_function *)a)->name, ((const struct dwarf_function *)b)->name);
}

/* m's .symtab functions, sorted by name, as symbol-only entries of
 * m->functions (made on first use: -L of a wildcard looks up thousands). */
static void read_symbols(struct arena *arena, struct dwarf_module *m)
{
    Elf *elf = m->symtab_elf ? m->symtab_elf : m->elf;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr shdr;
        Elf_Data *data = gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_SYMTAB ? elf_getdata(scn, NULL) : NULL;
        size_t count = data && shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
        if (!count)
            continue;
        m->functions = ARENA_ARRAY(arena, struct dwarf_function, count);
        for (size_t i = 0; i < count; i++) {
            GElf_Sym sym;
            const char *name = gelf_getsym(data, (int)i, &sym) ? elf_strptr(elf, shdr.sh_link, sym.st_name) : NULL;
            if (name && sym.st_value && (GELF_ST_TYPE(sym.st_info) == STT_FUNC || strcmp(name, "_text") == 0))
                m->functions[m->function_count++] = (struct dwarf_function){.name = name, .entry = sym.st_value};
        }
        qsort(m->functions, (size_t)m->function_count, sizeof(*m->functions), compare_by_name);
        return;
    }
}

/* The address of symbol `name` (a function, or _text) in m's .symtab; 0 when absent. */
static uint64_t symbol_address(struct arena *arena, struct dwarf_module *m, const char *name)
{
    if (!m->function_count)
        read_symbols(arena, m);
    struct dwarf_function key = {.name = name};
    const struct dwarf_function *found =
        m->function_count ? bsearch(&key, m->functions, (size_t)m->function_count, sizeof(key), compare_by_name) : NULL;
    return found ? found->entry : 0;
}

/* _text's address in /proc/kallsyms (0: not shown, as to users without CAP_SYSLOG). */
static uint64_t running_text(void)
{
    FILE *f = fopen("/proc/kallsyms", "r");
    char line[512], name[256], type;
    unsigned long long address = 0, found = 0;
    while (f && !found && fgets(line, sizeof(line), f))
        if (sscanf(line, "%llx %c %255s", &address, &type, name) == 3 && strcmp(name, "_text") == 0)
            found = address;
    if (f)
        fclose(f);
    return found;
}

struct dwarf_module *dwarf_kernel_open(struct dwarf_modules *modules, char *error, size_t size)
{
    struct utsname uts;
    uname(&uts);
    char path[512];
    snprintf(path, sizeof(path), "/usr/lib/debug/boot/vmlinux-%s", uts.release);
    for (int i = 0; i < modules->count; i++)
        if (modules->opened[i]->is_kernel)
            return modules->opened[i];
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        snprintf(error, size, "no %s (Debian: the package linux-image-%s-dbg)", path,
                 uts.release);
        return NULL;
    }
    fclose(probe);
    struct dwarf_module *m = dwarf_module_open_unindexed(modules, path, error, size);
    if (!m)
        return NULL;
    const void *id;
    unsigned char running[64];
    ssize_t id_size = dwelf_elf_gnu_build_id(m->elf, &id);
    size_t running_size = kernel_build_id_bytes(running, sizeof(running));
    if (!m->dwarf || id_size <= 0 || (size_t)id_size != running_size || memcmp(id, running, running_size) != 0) {
        snprintf(error, size, !m->dwarf ? "%s has no DWARF" : "%s is not the running kernel's (its build id is "
                 "not the one in /sys/kernel/notes)", path);
        return NULL;
    }
    uint64_t linked = symbol_address(modules->arena, m, "_text"), running_at = running_text();
    m->kernel_offset = linked && running_at ? (int64_t)(running_at - linked) : 0;
    m->is_kernel = 1;
    return m;
}

struct function_search {
    const char *name;
    uint64_t entry;
    Dwarf_Die die;
    int found;
};

static int match_function(Dwarf_Die *die, void *arg)
{
    struct function_search *search = arg;
    const char *name = dwarf_diename(die);
    if (name && strcmp(name, search->name) == 0 && dwarf_haspc(die, search->entry) > 0) {
        search->die = *die;
        search->found = 1;
        return DWARF_CB_ABORT;
    }
    return DWARF_CB_OK;
}

int dwarf_kernel_function(struct arena *arena, struct dwarf_module *m, const char *name, struct dwarf_function *out)
{
    /* a GCC clone's DIE (finish_task_switch.isra.0) takes its name from
     * its abstract origin: the function's, before the dot */
    const char *dot = strchr(name, '.');
    const char *source_name = dot ? arena_printf(arena, "%.*s", (int)(dot - name), name) : name;
    struct function_search search = {.name = source_name, .entry = symbol_address(arena, m, name)};
    Dwarf_Die cu;
    if (!search.entry || !dwarf_addrdie(m->dwarf, search.entry, &cu))
        return 0;
    dwarf_getfuncs(&cu, match_function, &search, 0);
    if (!search.found)
        return 0;
    memset(out, 0, sizeof(*out));
    out->name = arena_strdup(arena, name);
    out->entry = search.entry;
    out->die_offset = dwarf_dieoffset(&search.die);
    out->decl_file = dwarf_module_decl_file(arena, m, &search.die);
    dwarf_decl_line(&search.die, &out->decl_line);
    out->is_external = dwarf_hasattr(&search.die, DW_AT_external);
    out->has_return = dwarf_hasattr_integrate(&search.die, DW_AT_type);
    return 1;
}

const char *dwarf_kernel_source(struct arena *arena, struct dwarf_module *m, const struct dwarf_function *f)
{
    Dwarf_Die die, cu;
    Dwarf_Attribute attr;
    const char *file = f->decl_file ? f->decl_file : "";
    const char *dir = dwarf_module_function_die(m, f, &die) && dwarf_diecu(&die, &cu, NULL, NULL)
                          ? dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr)) : NULL;
    size_t len = dir ? strlen(dir) : 0;
    if (len && strncmp(file, dir, len) == 0 && file[len] == '/')
        file += len + 1;
    return arena_strdup(arena, file);
}

struct unit_walk { const struct dwarf_kernel_walk *walk; const char *file; };

static int visit_function(Dwarf_Die *die, void *arg)
{
    struct unit_walk *w = arg;
    const char *name = dwarf_diename(die);
    if (name && dwarf_hasattr(die, DW_AT_low_pc))   /* code here, not only inlined */
        w->walk->visit(name, w->file, w->walk->ctx);
    return DWARF_CB_OK;
}

void dwarf_kernel_each_function(struct dwarf_module *m, const struct dwarf_kernel_walk *walk)
{
    Dwarf_Off offset = 0, next;
    size_t header;
    while (m->dwarf && dwarf_nextcu(m->dwarf, offset, &next, &header, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        const char *file = dwarf_offdie(m->dwarf, offset + header, &cu) ? dwarf_diename(&cu) : NULL;
        if (file && walk->wants_unit(file, walk->ctx)) {
            struct unit_walk w = {walk, file};
            dwarf_getfuncs(&cu, visit_function, &w, 0);
        }
        offset = next;
    }
}
