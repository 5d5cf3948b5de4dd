/* Opening a traced binary and indexing its functions once: DWARF
 * subprograms from every CU (dwarf_getfuncs), then global .text symbols
 * that DWARF does not describe (_start, stripped binaries, libraries
 * without debug info). Listing 20k functions is a sort and a scan. */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>

#include "base/arena.h"
#include "base/demangle.h"
#include "base/sha256.h"
#include "sema/dwarf.h"

struct index_builder {
    struct arena *arena;
    struct dwarf_module *module;
    int capacity;
    int root_capacity;
};

static void add_function(struct index_builder *b, const struct dwarf_function *f)
{
    struct dwarf_module *m = b->module;
    if (m->function_count == b->capacity) {
        int capacity = b->capacity ? b->capacity * 2 : 256;
        m->functions = arena_realloc(b->arena, m->functions, sizeof(*f) * (size_t)b->capacity,
                                     sizeof(*f) * (size_t)capacity);
        b->capacity = capacity;
    }
    m->functions[m->function_count++] = *f;
}

static const char *integrated_string(Dwarf_Die *die, int name)
{
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, name, &attr) ? dwarf_formstring(&attr) : NULL;
}

/* A subprogram's own attributes, read in one pass over its abbreviation
 * (dwarf_getattrs) rather than one search per attribute. */
enum own_attr { OWN_ENTRY_PC, OWN_LOW_PC, OWN_NAME, OWN_EXTERNAL, OWN_TYPE, OWN_COUNT };

struct subprogram_attrs {
    Dwarf_Attribute own[OWN_COUNT];   /* code 0 when absent */
    int declaration, inline_root, completes;
};

static void keep_first(Dwarf_Attribute *slot, const Dwarf_Attribute *attr)
{
    if (!slot->code)   /* dwarf_attr() finds the first */
        *slot = *attr;
}

static int note_attr(Dwarf_Attribute *attr, void *arg)
{
    struct subprogram_attrs *a = arg;
    switch (dwarf_whatattr(attr)) {
    case DW_AT_entry_pc: keep_first(&a->own[OWN_ENTRY_PC], attr); break;
    case DW_AT_low_pc: keep_first(&a->own[OWN_LOW_PC], attr); break;
    case DW_AT_name: keep_first(&a->own[OWN_NAME], attr); break;
    case DW_AT_external: keep_first(&a->own[OWN_EXTERNAL], attr); break;
    case DW_AT_type: keep_first(&a->own[OWN_TYPE], attr); break;
    case DW_AT_declaration: a->declaration = 1; break;
    case DW_AT_inline: a->inline_root = 1; break;
    case DW_AT_abstract_origin: case DW_AT_specification: a->completes = 1; break;
    }
    return DWARF_CB_OK;
}

/* As dwarf_attr_integrate(): the DIE's own attribute, else the one of the
 * DIE it completes (abstract origin, specification); NULL when neither. */
static Dwarf_Attribute *integrated(Dwarf_Die *die, struct subprogram_attrs *a, enum own_attr which, int name,
                                   Dwarf_Attribute *out)
{
    if (a->own[which].code)
        return &a->own[which];
    return a->completes ? dwarf_attr_integrate(die, name, out) : NULL;
}

/* An abstract instance root, which inlined instances refer to (DWARF 5
 * 3.3.8.1), has DW_AT_inline. Any other definition without code counts
 * too, in case a producer leaves the attribute out. The name stays in the
 * mapped DWARF, which outlives sema. */
static void note_inline_root(struct index_builder *b, const char *name)
{
    struct dwarf_module *m = b->module;
    if (m->inline_root_count == b->root_capacity) {
        int capacity = b->root_capacity ? b->root_capacity * 2 : 64;
        m->inline_roots = arena_realloc(b->arena, m->inline_roots, sizeof(*m->inline_roots) * (size_t)b->root_capacity,
                                        sizeof(*m->inline_roots) * (size_t)capacity);
        b->root_capacity = capacity;
    }
    m->inline_roots[m->inline_root_count++] = name;
}

static int collect_function(Dwarf_Die *die, void *arg)
{
    struct index_builder *b = arg;
    struct subprogram_attrs a = {0};
    Dwarf_Attribute attr;
    Dwarf_Addr entry;
    if (dwarf_getattrs(die, note_attr, &a, 0) != 1)
        return DWARF_CB_OK;
    /* dwarf_entrypc() is DW_AT_low_pc when there is no DW_AT_entry_pc */
    int has_code = a.own[OWN_ENTRY_PC].code ? dwarf_entrypc(die, &entry) == 0
                                            : a.own[OWN_LOW_PC].code && dwarf_formaddr(&a.own[OWN_LOW_PC], &entry) == 0;
    has_code = has_code && entry != 0;
    const char *name = dwarf_formstring(integrated(die, &a, OWN_NAME, DW_AT_name, &attr));
    if (name && (a.inline_root || (!has_code && !a.declaration)))
        note_inline_root(b, name);
    if (a.declaration || !has_code || !name)
        return DWARF_CB_OK;     /* declarations and inline-only functions have no code here */
    struct dwarf_function f = {.name = arena_strdup(b->arena, name), .entry = entry,
                               .die_offset = dwarf_dieoffset(die)};
    f.decl_file = dwarf_module_decl_file(b->arena, b->module, die);
    dwarf_decl_line(die, &f.decl_line);
    f.scope = dwarf_module_scope(b->arena, b->module, die);
    if (b->module->scopes.count) {   /* C++ or Rust: the mangled name also matches (_ZN4shop*) */
        const char *linkage = integrated_string(die, DW_AT_linkage_name);
        if (!linkage)
            linkage = integrated_string(die, DW_AT_MIPS_linkage_name);
        f.linkage_name = linkage ? arena_strdup(b->arena, linkage) : NULL;
    }
    bool external = false;
    Dwarf_Attribute *flag = integrated(die, &a, OWN_EXTERNAL, DW_AT_external, &attr);
    if (flag)
        dwarf_formflag(flag, &external);
    f.is_external = external;
    f.has_return = integrated(die, &a, OWN_TYPE, DW_AT_type, &attr) != NULL;
    add_function(b, &f);
    return DWARF_CB_OK;
}

static int compare_functions(const void *a, const void *b)
{
    const struct dwarf_function *fa = a, *fb = b;
    int c = strcmp(fa->name, fb->name);
    if (c)
        return c;
    if (fa->entry != fb->entry)
        return fa->entry < fb->entry ? -1 : 1;
    /* C++ aliases (a constructor's C1 and C2) demangle alike: the same one is kept every time */
    return strcmp(fa->linkage_name ? fa->linkage_name : "", fb->linkage_name ? fb->linkage_name : "");
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void sort_inline_roots(struct dwarf_module *m)
{
    if (!m->inline_root_count)
        return;
    qsort(m->inline_roots, (size_t)m->inline_root_count, sizeof(*m->inline_roots), compare_names);
    int unique = 1;
    for (int i = 1; i < m->inline_root_count; i++)
        if (strcmp(m->inline_roots[i], m->inline_roots[unique - 1]) != 0)
            m->inline_roots[unique++] = m->inline_roots[i];
    m->inline_root_count = unique;
}

/* The roots are known only when every unit is a plain CU that
 * dwarf_getfuncs read: partial units, a dwz file or an unreadable CU may
 * hold roots it never showed. */
static void index_dwarf(struct index_builder *b)
{
    Dwarf *dwarf = b->module->dwarf;
    Dwarf_Off offset = 0, next;
    size_t header_size;
    int known = dwarf_getalt(dwarf) == NULL;
    while (dwarf_nextcu(dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (!dwarf_offdie(dwarf, offset + header_size, &cu) || dwarf_tag(&cu) != DW_TAG_compile_unit ||
            dwarf_getfuncs(&cu, collect_function, b, 0) != 0)
            known = 0;
        offset = next;
    }
    b->module->inline_roots_known = known;
    sort_inline_roots(b->module);
}

/* A DWARF function's entry, for finding the function at an address. */
struct entry_key {
    uint64_t entry;
    int index;                   /* in m->functions */
};

static int compare_entries(const void *a, const void *b)
{
    uint64_t x = ((const struct entry_key *)a)->entry, y = ((const struct entry_key *)b)->entry;
    return x < y ? -1 : x > y;
}

static int compare_name_key(const void *key, const void *item)
{
    return strcmp(key, ((const struct dwarf_function *)item)->name);
}

/* The DWARF function starting at `entry` (DWARF functions are the first
 * dwarf_count, sorted by name; `entries` lists their entries, sorted), or -1. */
static int function_at_entry(int dwarf_count, const struct entry_key *entries, uint64_t entry)
{
    struct entry_key key = {entry, 0};
    const struct entry_key *found = dwarf_count ? bsearch(&key, entries, (size_t)dwarf_count, sizeof(*entries),
                                                          compare_entries) : NULL;
    return found ? found->index : -1;
}

static Elf_Scn *section_of_type(Elf *elf, Elf64_Word type)
{
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type)
            return scn;
    }
    return NULL;
}

/* Global function symbols in .text: what a binary without DWARF still names.
 * ELF is the file holding the table SCN (a debug file keeps the binary's
 * section headers). */
static void index_symbols(struct index_builder *b, Elf *elf, Elf_Scn *scn, int dwarf_count,
                          const struct entry_key *entries)
{
    struct dwarf_module *m = b->module;
    GElf_Shdr shdr;
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t strtab_index;
    if (!gelf_getshdr(scn, &shdr) || !data || elf_getshdrstrndx(elf, &strtab_index) != 0)
        return;
    size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
    for (size_t i = 0; i < count; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF || sym.st_value == 0 ||
            (GELF_ST_BIND(sym.st_info) != STB_GLOBAL && GELF_ST_BIND(sym.st_info) != STB_WEAK) ||
            GELF_ST_VISIBILITY(sym.st_other) != STV_DEFAULT)
            continue;
        GElf_Shdr target;
        Elf_Scn *section = elf_getscn(elf, sym.st_shndx);
        const char *section_name = section && gelf_getshdr(section, &target)
            ? elf_strptr(elf, strtab_index, target.sh_name) : NULL;
        const char *versioned = elf_strptr(elf, shdr.sh_link, sym.st_name);
        /* .symtab spells a versioned name "pthread_spin_lock@@GLIBC_2.34" */
        const char *name = versioned ? arena_strndup(b->arena, versioned, strcspn(versioned, "@")) : NULL;
        if (!name || !*name || !section_name || strcmp(section_name, ".text") != 0 ||
            (dwarf_count && bsearch(name, m->functions, (size_t)dwarf_count, sizeof(*m->functions),
                                    compare_name_key)))
            continue;
        int described = function_at_entry(dwarf_count, entries, sym.st_value);
        if (described >= 0) {
            /* the function's own mangled name: matched through its linkage name */
            const char *linkage = m->functions[described].linkage_name;
            if (linkage && strcmp(linkage, name) == 0)
                continue;
            /* another name of a DWARF function (glibc's malloc is
             * __libc_malloc): probed by that name, it has the DIE's
             * variables; wildcards reach it by its DWARF name only */
            struct dwarf_function alias = m->functions[described];
            alias.name = name;
            alias.is_alias = 1;
            add_function(b, &alias);
            continue;
        }
        struct dwarf_function f = {.name = name, .entry = sym.st_value, .is_external = 1, .has_return = 1};
        char *demangled = demangle(name, 0);
        if (demangled) {   /* listed as written in C++ ("std::ios_base::Init::Init"), matched in its scopes */
            f.linkage_name = f.name;
            f.name = arena_strdup(b->arena, demangled);
            const char *last = NULL;
            for (const char *p = demangle_next_separator(f.name); p; p = demangle_next_separator(p + 2))
                last = p;
            f.scope = last ? arena_strndup(b->arena, f.name, (size_t)(last - f.name)) : NULL;
            free(demangled);
        }
        add_function(b, &f);
    }
}

/* A symbol versioned twice (libc's pthread_spin_lock@GLIBC_2.2.5 and
 * @@GLIBC_2.34) is one function: probed twice, each call would count twice. */
static void drop_repeated_symbols(struct dwarf_module *m)
{
    int kept = 0;
    for (int i = 0; i < m->function_count; i++) {
        const struct dwarf_function *f = &m->functions[i];
        if (kept && (!f->die_offset || f->is_alias) && strcmp(f->name, m->functions[kept - 1].name) == 0 &&
            f->entry == m->functions[kept - 1].entry)
            continue;
        m->functions[kept++] = *f;
    }
    m->function_count = kept;
}

static void read_segments(struct arena *arena, struct dwarf_module *m)
{
    size_t count;
    if (elf_getphdrnum(m->elf, &count) != 0)
        return;
    m->segments = ARENA_ARRAY(arena, struct dwarf_segment, count + 1);
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(m->elf, (int)i, &phdr) && phdr.p_type == PT_LOAD && (phdr.p_flags & PF_X))
            m->segments[m->segment_count++] = (struct dwarf_segment){phdr.p_vaddr, phdr.p_offset, phdr.p_filesz};
    }
}

static void build_index(struct arena *arena, struct dwarf_module *m)
{
    struct index_builder b = {.arena = arena, .module = m};
    if (m->dwarf)
        index_dwarf(&b);
    int dwarf_count = m->function_count;
    if (dwarf_count)   /* NULL without DWARF */
        qsort(m->functions, (size_t)dwarf_count, sizeof(*m->functions), compare_functions);
    struct entry_key *entries = ARENA_ARRAY(arena, struct entry_key, dwarf_count + 1);
    for (int i = 0; i < dwarf_count; i++)
        entries[i] = (struct entry_key){m->functions[i].entry, i};
    qsort(entries, (size_t)dwarf_count, sizeof(*entries), compare_entries);
    /* .symtab (the binary's, or its debug file's when stripped), else .dynsym */
    Elf *elf = m->symtab_elf ? m->symtab_elf : m->elf;
    Elf_Scn *table = section_of_type(elf, m->symtab_elf ? SHT_SYMTAB : SHT_DYNSYM);
    if (table)
        index_symbols(&b, elf, table, dwarf_count, entries);
    qsort(m->functions, (size_t)m->function_count, sizeof(*m->functions), compare_functions);
    drop_repeated_symbols(m);
}

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A name without '/': $PATH for programs, the loader's directories for
 * libraries (so "libc.so.6" works). */
static char *search_path(const char *name)
{
    char candidate[4096];
    const char *path = getenv("PATH");
    const char *library_dirs = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
                               "/lib:/usr/lib:/usr/local/lib";
    const char *lists[3] = {path ? path : "/usr/local/bin:/usr/bin:/bin", getenv("LD_LIBRARY_PATH"),
                            library_dirs};
    for (int l = 0; l < 3; l++) {
        const char *p = lists[l];
        while (p && *p) {
            const char *colon = strchr(p, ':');
            size_t len = colon ? (size_t)(colon - p) : strlen(p);
            if (len) {
                snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, p, name);
                if (is_executable_file(candidate) && (l > 0 || access(candidate, X_OK) == 0))
                    return realpath(candidate, NULL);
            }
            p = colon ? colon + 1 : NULL;
        }
    }
    return NULL;
}

/* From the cache when this very file was indexed before, else built and kept. */
static void index_module(struct dwarf_modules *modules, struct dwarf_module *m)
{
    char name[2 * SHA256_SIZE + 16];
    int cached = modules->cache_dir && dwarf_index_cache_name(m, name, sizeof(name)) == 0;
    if (cached && dwarf_index_cache_load(modules->arena, m, modules->cache_dir, name) == 0)
        return;
    build_index(modules->arena, m);
    if (cached)
        dwarf_index_cache_store(m, modules->cache_dir, name);
}

static struct dwarf_module *open_module(struct dwarf_modules *modules, const char *path, int indexed, char *error,
                                        size_t size);

struct dwarf_module *dwarf_module_open(struct dwarf_modules *modules, const char *path, char *error, size_t size)
{
    return open_module(modules, path, 1, error, size);
}

/* The kernel's DWARF is too big to index whole: it is looked up by address
 * (dwarf_kernel.c), and its CFI is .debug_frame (it has no .eh_frame). */
struct dwarf_module *dwarf_module_open_unindexed(struct dwarf_modules *modules, const char *path, char *error,
                                                 size_t size)
{
    return open_module(modules, path, 0, error, size);
}

static struct dwarf_module *open_module(struct dwarf_modules *modules, const char *path, int indexed, char *error,
                                        size_t size)
{
    struct arena *arena = modules->arena;
    char *canonical = strchr(path, '/') ? realpath(path, NULL) : search_path(path);
    if (!canonical || !is_executable_file(canonical)) {
        snprintf(error, size, "cannot find executable '%s'", path);
        free(canonical);
        return NULL;
    }
    for (int i = 0; i < modules->count; i++) {
        if (strcmp(modules->opened[i]->path, canonical) == 0) {
            free(canonical);
            return modules->opened[i];
        }
    }
    struct dwarf_module *m = ARENA_NEW(arena, struct dwarf_module);
    m->path = arena_strdup(arena, canonical);
    m->type_names.arena = arena;
    free(canonical);
    elf_version(EV_CURRENT);
    m->fd = open(m->path, O_RDONLY | O_CLOEXEC);
    m->elf = m->fd >= 0 ? elf_begin(m->fd, ELF_C_READ_MMAP, NULL) : NULL;
    GElf_Ehdr ehdr;
    if (!m->elf || elf_kind(m->elf) != ELF_K_ELF || !gelf_getehdr(m->elf, &ehdr)) {
        snprintf(error, size, "'%s' is not an ELF file", m->path);
        if (m->fd >= 0)
            close(m->fd);
        return NULL;
    }
    m->is_shared = ehdr.e_type == ET_DYN;
    if (debug_file_begin(&m->debug, m->path) == 0) {
        const char *dwarf_file = NULL;
        m->dwarf = debug_file_dwarf(&m->debug, &dwarf_file);
        m->dwarf_file = dwarf_file ? arena_strdup(arena, dwarf_file) : NULL;
        m->symtab_elf = debug_file_symtab(&m->debug);
    }
    m->cfi = dwarf_getcfi_elf(m->elf);
    if (!m->cfi && m->dwarf && !indexed)
        m->dwarf_cfi = dwarf_getcfi(m->dwarf);   /* the Dwarf's: not ended here */
    read_segments(arena, m);
    if (indexed)
        index_module(modules, m);
    struct dwarf_module **grown = realloc(modules->opened, sizeof(*grown) * (size_t)(modules->count + 1));
    if (grown) {
        modules->opened = grown;
        modules->opened[modules->count++] = m;
    }
    return m;
}

void dwarf_modules_close(struct dwarf_modules *modules)
{
    for (int i = 0; i < modules->count; i++) {
        struct dwarf_module *m = modules->opened[i];
        if (m->cfi)
            dwarf_cfi_end(m->cfi);   /* dwarf_getcfi_elf's CFI is ours to end */
        debug_file_end(&m->debug);   /* and with it dwarf, symtab_elf */
        if (m->elf)
            elf_end(m->elf);
        if (m->fd >= 0)
            close(m->fd);
    }
    free(modules->opened);
    modules->opened = NULL;
    modules->count = 0;
}

void dwarf_modules_report(const struct dwarf_modules *modules, FILE *out)
{
    for (int i = 0; i < modules->count; i++) {
        const struct dwarf_module *m = modules->opened[i];
        const char *alt_name = NULL;
        const void *alt_id;
        if (!m->dwarf || strcmp(m->dwarf_file, m->path) == 0)
            continue;   /* the usual case says nothing */
        if (dwelf_dwarf_gnu_debugaltlink(m->dwarf, &alt_name, &alt_id) <= 0 || !dwarf_getalt(m->dwarf))
            alt_name = NULL;
        fprintf(out, "Pass 2: DWARF of %s from %s%s%s.\n", m->path, m->dwarf_file,
                alt_name ? " with the dwz file " : "", alt_name ? alt_name : "");
    }
}

uint64_t dwarf_module_file_offset(const struct dwarf_module *m, uint64_t vaddr)
{
    for (int i = 0; i < m->segment_count; i++) {
        const struct dwarf_segment *s = &m->segments[i];
        if (vaddr >= s->vaddr && vaddr < s->vaddr + s->size)
            return vaddr - s->vaddr + s->offset;
    }
    return 0;
}

const uint8_t *dwarf_module_section_bytes(struct arena *arena, const struct dwarf_module *m, const GElf_Shdr *sh)
{
    if (sh->sh_type == SHT_NOBITS)
        return NULL;
    uint8_t *bytes = arena_alloc(arena, sh->sh_size + 1);
    if (pread(m->fd, bytes, sh->sh_size, (off_t)sh->sh_offset) != (ssize_t)sh->sh_size)
        return NULL;
    bytes[sh->sh_size] = 0;
    return bytes;
}

int dwarf_module_function_die(const struct dwarf_module *m, const struct dwarf_function *f, Dwarf_Die *die)
{
    return m->dwarf && f->die_offset && dwarf_offdie(m->dwarf, f->die_offset, die) != NULL;
}

uint64_t dwarf_module_after_prologue(const struct dwarf_module *m, const struct dwarf_function *f)
{
    Dwarf_Die die;
    Dwarf_Addr *addrs = NULL;
    if (!dwarf_module_function_die(m, f, &die))
        return f->entry;
    int n = dwarf_entry_breakpoints(&die, &addrs);
    uint64_t pc = n > 0 ? addrs[0] : f->entry;
    free(addrs);
    return pc;
}

/* The dynamic section's DT_NEEDED names (up to `max`) and its
 * DT_RUNPATH/DT_RPATH, read with libelf from the file alone (no index). */
struct elf_dynamic {
    const char *needed[64];
    int needed_count;
    const char *runpath;
};

static int read_dynamic(struct arena *arena, const char *path, struct elf_dynamic *out)
{
    memset(out, 0, sizeof(*out));
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC || !(data = elf_getdata(scn, NULL)))
            continue;
        size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
        for (size_t i = 0; i < count; i++) {
            GElf_Dyn dyn;
            const char *text = gelf_getdyn(data, (int)i, &dyn) ? elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val) : NULL;
            if (!text)
                continue;
            if (dyn.d_tag == DT_NEEDED && out->needed_count < (int)(sizeof(out->needed) / sizeof(*out->needed)))
                out->needed[out->needed_count++] = arena_strdup(arena, text);
            else if (dyn.d_tag == DT_RUNPATH || (dyn.d_tag == DT_RPATH && !out->runpath))
                out->runpath = arena_strdup(arena, text);
        }
    }
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return elf ? 0 : -1;
}

/* LIBRARY as the loader of `requester` finds it: its runpath's directories
 * ($ORIGIN expanded), then the default search. A malloc'd path, or NULL. */
static char *library_path(struct arena *arena, const char *requester, const char *library)
{
    if (strchr(library, '/'))
        return realpath(library, NULL);
    struct elf_dynamic dynamic;
    if (strlen(library) <= 200 && read_dynamic(arena, requester, &dynamic) == 0) {
        char origin[4096];
        snprintf(origin, sizeof(origin), "%s", requester);
        char *slash = strrchr(origin, '/');
        if (slash)
            *slash = 0;
        for (const char *dirs = dynamic.runpath; dirs && *dirs;) {
            const char *colon = strchr(dirs, ':');
            size_t len = colon ? (size_t)(colon - dirs) : strlen(dirs);
            char candidate[8192 + 256];
            if (len >= 7 && strncmp(dirs, "$ORIGIN", 7) == 0)
                snprintf(candidate, sizeof(candidate), "%s%.*s/%s", origin, (int)(len - 7), dirs + 7, library);
            else
                snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, dirs, library);
            if (is_executable_file(candidate))
                return realpath(candidate, NULL);
            dirs = colon ? colon + 1 : NULL;
        }
    }
    return search_path(library);
}

struct dwarf_module *dwarf_module_open_library(struct dwarf_modules *modules, const char *program,
                                               const char *library, char *error, size_t size)
{
    if (strchr(library, '/'))
        return dwarf_module_open(modules, library, error, size);
    struct dwarf_module *exe = dwarf_module_open(modules, program, error, size);
    if (!exe)
        return NULL;
    char *path = library_path(modules->arena, exe->path, library);
    struct dwarf_module *m = dwarf_module_open(modules, path ? path : library, error, size);
    free(path);
    return m;
}

int dwarf_needed_libraries(struct arena *arena, const char *program, const char **paths, int max)
{
    char *first = realpath(program, NULL);
    if (!first || max < 1) {
        free(first);
        return 0;
    }
    paths[0] = arena_strdup(arena, first);    /* the program: the walk's start, not a result */
    free(first);
    int count = 1;
    for (int next = 0; next < count; next++) {
        struct elf_dynamic dynamic;
        if (read_dynamic(arena, paths[next], &dynamic) != 0)
            continue;
        for (int i = 0; i < dynamic.needed_count && count < max; i++) {
            char *path = library_path(arena, paths[next], dynamic.needed[i]);
            int seen = !path;
            for (int k = 0; !seen && k < count; k++)
                seen = strcmp(paths[k], path) == 0;
            if (!seen)
                paths[count++] = arena_strdup(arena, path);
            free(path);
        }
    }
    memmove(paths, paths + 1, sizeof(*paths) * (size_t)(count - 1));
    return count - 1;
}

int dwarf_module_frame_die(const struct dwarf_module *m, const struct dwarf_function *f, Dwarf_Die *die)
{
    if (f->is_inline_instance)
        return m->dwarf && dwarf_offdie(m->dwarf, f->frame_offset, die) != NULL;
    return dwarf_module_function_die(m, f, die);
}

struct inline_walk {
    struct arena *arena;
    struct dwarf_module *module;
    int capacity;
};

static void walk_inlines(struct inline_walk *w, Dwarf_Die *parent, Dwarf_Off subprogram, int depth)
{
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(parent, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        Dwarf_Off holder = subprogram;
        if (tag == DW_TAG_subprogram)
            holder = dwarf_dieoffset(&child);
        if (tag == DW_TAG_inlined_subroutine && subprogram) {
            Dwarf_Addr entry;
            Dwarf_Attribute attr;
            Dwarf_Die origin;
            const char *name = integrated_string(&child, DW_AT_name);
            if (name && dwarf_entrypc(&child, &entry) == 0 && entry &&
                dwarf_attr(&child, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &origin)) {
                struct dwarf_module *m = w->module;
                if (m->inline_count == w->capacity) {
                    int capacity = w->capacity ? w->capacity * 2 : 64;
                    m->inlines = arena_realloc(w->arena, m->inlines, sizeof(*m->inlines) * (size_t)w->capacity,
                                               sizeof(*m->inlines) * (size_t)capacity);
                    w->capacity = capacity;
                }
                struct dwarf_function *f = &m->inlines[m->inline_count++];
                memset(f, 0, sizeof(*f));
                f->name = arena_strdup(w->arena, name);
                f->decl_file = dwarf_module_decl_file(w->arena, m, &origin);
                dwarf_decl_line(&origin, &f->decl_line);
                f->scope = dwarf_module_scope(w->arena, m, &origin);
                f->entry = entry;
                f->die_offset = dwarf_dieoffset(&child);
                f->frame_offset = subprogram;
                f->is_inline_instance = 1;
            }
        }
        if (dwarf_haschildren(&child))
            walk_inlines(w, &child, holder, depth + 1);
    } while (dwarf_siblingof(&child, &child) == 0);
}

/* Whether the CU's abbreviations allow a DW_TAG_inlined_subroutine: a CU
 * without one (all of -O0 code) has no inlined instance to walk for. */
static int cu_may_have_inlines(Dwarf_Die *cu)
{
    Dwarf_Off offset = 0;
    size_t length;
    Dwarf_Abbrev *abbrev;
    while ((abbrev = dwarf_getabbrev(cu, offset, &length)) != NULL && abbrev != DWARF_END_ABBREV) {
        if (dwarf_getabbrevtag(abbrev) == DW_TAG_inlined_subroutine)
            return 1;
        offset += length;
    }
    return abbrev == NULL;   /* unreadable: walk it */
}

void dwarf_module_index_inlines(struct arena *arena, struct dwarf_module *m)
{
    if (m->inlines_indexed || !m->dwarf)
        return;
    m->inlines_indexed = 1;
    struct inline_walk w = {.arena = arena, .module = m};
    Dwarf_Off offset = 0, next;
    size_t header_size;
    while (dwarf_nextcu(m->dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(m->dwarf, offset + header_size, &cu) && cu_may_have_inlines(&cu))
            walk_inlines(&w, &cu, 0, 0);
        offset = next;
    }
}
