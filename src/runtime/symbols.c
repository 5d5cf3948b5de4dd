/* Symbol lookup for backtraces: ELF function symbols by file offset, kernel
 * symbols by address (see symbols.h). */
#include "runtime/symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/debug_file.h"
#include "base/demangle.h"
#include "runtime/inline_frames.h"
#include "program/program_io.h"

struct symbol_entry {
    uint64_t start, size;        /* file offset (ELF) or address (kernel) */
    char *name;
    char *module;                /* a kernel module's name ("[mod]" in kallsyms), else NULL */
    int rank;                    /* among aliases at one start, the lowest is shown */
};

struct symbol_table {
    struct symbol_entry *entries;
    size_t count, capacity;
};

struct symbol_file {
    char *path;
    char build_id[128];          /* lowercase hex, "" when none */
    struct symbol_table table;
    struct inline_frames *inlines;   /* read on the first frame asking */
};

struct symbols {
    struct symbol_file *files;
    int file_count, file_capacity;
    struct symbol_table kernel;
    int kernel_loaded;
};

static const char *const library_dirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    "/usr/local/lib",
};

struct symbols *symbols_new(void)
{
    return calloc(1, sizeof(struct symbols));
}

static void table_free(struct symbol_table *table)
{
    for (size_t i = 0; i < table->count; i++) {
        free(table->entries[i].name);
        free(table->entries[i].module);
    }
    free(table->entries);
}

void symbols_free(struct symbols *symbols)
{
    if (!symbols)
        return;
    for (int i = 0; i < symbols->file_count; i++) {
        free(symbols->files[i].path);
        table_free(&symbols->files[i].table);
        inline_frames_free(symbols->files[i].inlines);
    }
    free(symbols->files);
    table_free(&symbols->kernel);
    free(symbols);
}

static void table_add(struct symbol_table *table, uint64_t start, uint64_t size, const char *name, int rank)
{
    if (table->count == table->capacity) {
        table->capacity = table->capacity ? table->capacity * 2 : 256;
        table->entries = realloc(table->entries, table->capacity * sizeof(*table->entries));
    }
    table->entries[table->count++] = (struct symbol_entry){start, size, strdup(name), NULL, rank};
}

static int entry_order(const void *a, const void *b)
{
    const struct symbol_entry *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->rank - y->rank;
}

/* Sorted, one entry per start (the best-ranked alias), and every size known:
 * a symbol without one reaches to the next. */
static void table_finish(struct symbol_table *table)
{
    qsort(table->entries, table->count, sizeof(*table->entries), entry_order);
    size_t kept = 0;
    for (size_t i = 0; i < table->count; i++) {
        if (kept && table->entries[kept - 1].start == table->entries[i].start) {
            free(table->entries[i].name);
            free(table->entries[i].module);
            continue;
        }
        table->entries[kept++] = table->entries[i];
    }
    table->count = kept;
    for (size_t i = 0; i + 1 < kept; i++)
        if (!table->entries[i].size)
            table->entries[i].size = table->entries[i + 1].start - table->entries[i].start;
}

static const struct symbol_entry *table_find(const struct symbol_table *table, uint64_t at)
{
    size_t low = 0, high = table->count;
    while (low < high) {   /* the first entry starting after `at` */
        size_t mid = low + (high - low) / 2;
        if (table->entries[mid].start <= at)
            low = mid + 1;
        else
            high = mid;
    }
    if (!low)
        return NULL;
    const struct symbol_entry *e = &table->entries[low - 1];
    return at - e->start < e->size ? e : NULL;
}

/* A symbol's address as a file offset, through the PT_LOAD that holds it. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *offset)
{
    size_t count;
    if (elf_getphdrnum(elf, &count) != 0)
        return -1;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_LOAD && vaddr >= phdr.p_vaddr &&
            vaddr < phdr.p_vaddr + phdr.p_filesz) {
            *offset = vaddr - phdr.p_vaddr + phdr.p_offset;
            return 0;
        }
    }
    return -1;
}

static int binding_rank(const char *name, int binding)
{
    int rank = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 100 : 200;
    while (*name++ == '_')
        rank++;
    return rank;
}

/* The function symbols of SCN, a table of TABLE_ELF: the binary ELF, or its
 * debug file (which keeps the binary's section headers, not its segments). */
static void read_symbol_section(Elf *elf, Elf *table_elf, Elf_Scn *scn, const GElf_Shdr *shdr,
                                struct symbol_table *table)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t count = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0;
    for (size_t i = 0; data && i < count; i++) {
        GElf_Sym sym;
        uint64_t offset;
        if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF || !sym.st_value)
            continue;
        int type = GELF_ST_TYPE(sym.st_info);
        if (type != STT_FUNC && type != STT_GNU_IFUNC)
            continue;
        const char *name = elf_strptr(table_elf, shdr->sh_link, sym.st_name);
        if (!name || !*name || vaddr_to_offset(elf, sym.st_value, &offset) < 0)
            continue;
        /* .symtab spells a versioned name "malloc@@GLIBC_2.2.5"; C++ and Rust
         * frames read as written: "shop::Cart::add(int)" */
        char *plain = strndup(name, strcspn(name, "@"));
        char *demangled = plain ? demangle(plain, 1) : NULL;
        const char *shown = demangled ? demangled : plain ? plain : name;
        table_add(table, offset, sym.st_size, shown, binding_rank(plain ? plain : name, GELF_ST_BIND(sym.st_info)));
        free(demangled);
        free(plain);
    }
}

/* The first section of TYPE. */
static Elf_Scn *section_of_type(Elf *elf, Elf64_Word type, GElf_Shdr *shdr)
{
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn))
        if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
            return scn;
    return NULL;
}

/* .symtab when the file has one (every function), else its separate debug
 * file's (a stripped binary, base/debug_file.h), else .dynsym. */
static void read_functions(Elf *elf, const char *path, struct symbol_table *table)
{
    GElf_Shdr shdr;
    Elf_Scn *scn = section_of_type(elf, SHT_SYMTAB, &shdr);
    if (scn) {
        read_symbol_section(elf, elf, scn, &shdr, table);
    } else {
        struct debug_file debug;
        Elf *debug_elf = debug_file_begin(&debug, path) == 0 ? debug_file_symtab(&debug) : NULL;
        if (debug_elf && (scn = section_of_type(debug_elf, SHT_SYMTAB, &shdr)))
            read_symbol_section(elf, debug_elf, scn, &shdr, table);
        else if ((scn = section_of_type(elf, SHT_DYNSYM, &shdr)))
            read_symbol_section(elf, elf, scn, &shdr, table);
        debug_file_end(&debug);
    }
    table_finish(table);
}

static void add_needed(struct symbols *symbols, Elf *elf, const char *path);

static struct symbol_file *file_by_path(struct symbols *symbols, const char *path)
{
    for (int i = 0; i < symbols->file_count; i++)
        if (strcmp(symbols->files[i].path, path) == 0)
            return &symbols->files[i];
    return NULL;
}

void symbols_add_file(struct symbols *symbols, const char *path, int needed)
{
    char real[PATH_MAX];
    if (!realpath(path, real) || file_by_path(symbols, real))
        return;
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (elf && elf_kind(elf) == ELF_K_ELF) {
        if (symbols->file_count == symbols->file_capacity) {
            symbols->file_capacity = symbols->file_capacity ? symbols->file_capacity * 2 : 16;
            symbols->files = realloc(symbols->files, (size_t)symbols->file_capacity * sizeof(*symbols->files));
        }
        struct symbol_file *file = &symbols->files[symbols->file_count++];
        memset(file, 0, sizeof(*file));
        file->path = strdup(real);
        elf_build_id(real, file->build_id, sizeof(file->build_id));
        read_functions(elf, real, &file->table);
        if (needed)
            add_needed(symbols, elf, real);
    }
    if (elf)
        elf_end(elf);
    close(fd);
}

/* LIBRARY in the RUNPATH (with $ORIGIN) or the usual directories. */
static void add_library(struct symbols *symbols, const char *library, const char *runpath, const char *origin)
{
    char candidate[PATH_MAX];
    char *paths = strdup(runpath ? runpath : "");
    for (char *save = NULL, *dir = strtok_r(paths, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        if (strncmp(dir, "$ORIGIN", 7) == 0)
            snprintf(candidate, sizeof(candidate), "%s%s/%s", origin, dir + 7, library);
        else
            snprintf(candidate, sizeof(candidate), "%s/%s", dir, library);
        if (access(candidate, R_OK) == 0) {
            free(paths);
            symbols_add_file(symbols, candidate, 1);
            return;
        }
    }
    free(paths);
    for (size_t i = 0; i < sizeof(library_dirs) / sizeof(library_dirs[0]); i++) {
        snprintf(candidate, sizeof(candidate), "%s/%s", library_dirs[i], library);
        if (access(candidate, R_OK) == 0) {
            symbols_add_file(symbols, candidate, 1);
            return;
        }
    }
}

static void add_needed(struct symbols *symbols, Elf *elf, const char *path)
{
    char *copy = strdup(path);
    const char *origin = dirname(copy);
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
        const char *runpath = NULL;
        for (size_t i = 0; data && i < count; i++) {
            GElf_Dyn dyn;
            if (gelf_getdyn(data, (int)i, &dyn) && (dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH))
                runpath = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
        }
        for (size_t i = 0; data && i < count; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
                continue;
            const char *library = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
            if (library)
                add_library(symbols, library, runpath, origin);
        }
    }
    free(copy);
}

/* One line of /proc/PID/maps: range, page offset and path (NULL for anonymous). */
static int parse_maps_line(char *line, uint64_t *start, uint64_t *end, uint64_t *offset, char **path)
{
    int consumed = 0;
    if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s%n", start, end, offset, &consumed) < 3)
        return -1;
    char *p = line + consumed;
    while (*p == ' ')
        p++;
    p[strcspn(p, "\n")] = 0;
    *path = *p == '/' ? p : NULL;
    return 0;
}

void symbols_add_process(struct symbols *symbols, pid_t pid)
{
    char name[64], line[PATH_MAX + 128];
    snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
    FILE *maps = fopen(name, "re");
    while (maps && fgets(line, sizeof(line), maps)) {
        uint64_t start, end, offset;
        char *path;
        if (parse_maps_line(line, &start, &end, &offset, &path) == 0 && path)
            symbols_add_file(symbols, path, 0);
    }
    if (maps)
        fclose(maps);
}

static int hit_in_file(const struct symbols *symbols, const struct symbol_file *file, uint64_t file_offset,
                       struct symbol_hit *hit)
{
    const struct symbol_entry *e = table_find(&file->table, file_offset);
    *hit = (struct symbol_hit){e ? e->name : NULL, e ? file_offset - e->start : file_offset,
                               e ? e->size : 0, file->path, (int)(file - symbols->files), file_offset};
    return 0;
}

void symbols_build_id_hex(const unsigned char *build_id, size_t size, char *hex, size_t hex_size)
{
    hex[0] = 0;
    for (size_t i = 0; i < size && 2 * i + 2 < hex_size; i++)
        snprintf(hex + 2 * i, 3, "%02x", build_id[i]);
}

int symbols_find_build_id(struct symbols *symbols, const unsigned char *build_id, size_t build_id_size,
                          uint64_t file_offset, struct symbol_hit *hit)
{
    char hex[128];
    symbols_build_id_hex(build_id, build_id_size, hex, sizeof(hex));
    for (int i = 0; i < symbols->file_count; i++)
        if (symbols->files[i].build_id[0] && strcmp(symbols->files[i].build_id, hex) == 0)
            return hit_in_file(symbols, &symbols->files[i], file_offset, hit);
    return -1;
}

int symbols_find_in_file(struct symbols *symbols, const char *path, uint64_t file_offset,
                         struct symbol_hit *hit)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    symbols_add_file(symbols, real, 0);
    const struct symbol_file *file = file_by_path(symbols, real);
    return file ? hit_in_file(symbols, file, file_offset, hit) : -1;
}

int symbols_find_in_process(struct symbols *symbols, pid_t pid, uint64_t address, struct symbol_hit *hit)
{
    char name[64], line[PATH_MAX + 128];
    int found = -1;
    snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
    FILE *maps = fopen(name, "re");
    while (maps && found < 0 && fgets(line, sizeof(line), maps)) {
        uint64_t start, end, offset;
        char *path;
        if (parse_maps_line(line, &start, &end, &offset, &path) == 0 && path && address >= start &&
            address < end)
            found = symbols_find_in_file(symbols, path, address - start + offset, hit);
    }
    if (maps)
        fclose(maps);
    return found;
}

static void load_kallsyms(struct symbols *symbols)
{
    char line[512], name[256], module[128];
    symbols->kernel_loaded = 1;
    FILE *f = fopen("/proc/kallsyms", "re");
    while (f && fgets(line, sizeof(line), f)) {
        uint64_t address;
        char type;
        int fields = sscanf(line, "%" SCNx64 " %c %255s [%127[^]]]", &address, &type, name, module);
        if (fields >= 3 && address && (type == 't' || type == 'T')) {
            table_add(&symbols->kernel, address, 0, name, binding_rank(name, type == 'T' ? STB_GLOBAL : STB_LOCAL));
            if (fields == 4)   /* a module's, a BPF program's ("bpf") */
                symbols->kernel.entries[symbols->kernel.count - 1].module = strdup(module);
        }
    }
    if (f)
        fclose(f);
    table_finish(&symbols->kernel);
}

int symbols_find_kernel(struct symbols *symbols, uint64_t address, struct symbol_hit *hit)
{
    if (!symbols->kernel_loaded)
        load_kallsyms(symbols);
    const struct symbol_entry *e = table_find(&symbols->kernel, address);
    if (!e)
        return -1;
    *hit = (struct symbol_hit){e->name, address - e->start, e->size, e->module ? e->module : "kernel", -1, address};
    return 0;
}

int symbols_inlined_at(struct symbols *symbols, const struct symbol_hit *hit, int caller,
                       const char *const **names)
{
    if (hit->file < 0 || hit->file >= symbols->file_count || !hit->name)
        return 0;
    struct symbol_file *file = &symbols->files[hit->file];
    if (!file->inlines)
        file->inlines = inline_frames_new(file->path);
    return inline_frames_at(file->inlines, hit->file_offset, caller, names);
}

const char *symbols_file_at(const struct symbols *symbols, int i, const char **build_id)
{
    if (i < 0 || i >= symbols->file_count)
        return NULL;
    if (build_id)
        *build_id = symbols->files[i].build_id;
    return symbols->files[i].path;
}

int symbols_function_at(const struct symbols *symbols, int i, size_t j, uint64_t *start, uint64_t *size,
                        const char **name)
{
    const struct symbol_table *table = &symbols->files[i].table;
    if (j >= table->count)
        return 0;
    *start = table->entries[j].start;
    *size = table->entries[j].size;
    *name = table->entries[j].name;
    return 1;
}

void symbols_format_frame(struct strbuf *out, uint64_t address, const struct symbol_hit *hit)
{
    if (!hit) {
        strbuf_printf(out, " 0x%" PRIx64 "\n", address);
        return;
    }
    if (!hit->name) {   /* a known file without a function there: the offset in it */
        strbuf_printf(out, " 0x%" PRIx64 " [%s+0x%" PRIx64 "]\n", address, hit->module, hit->offset);
        return;
    }
    strbuf_printf(out, " 0x%" PRIx64 " : %s+0x%" PRIx64 "/0x%" PRIx64 " [%s]\n", address, hit->name,
                  hit->offset, hit->size, hit->module);
}

void symbols_format_inlined(struct strbuf *out, uint64_t address, const char *name, const char *module)
{
    strbuf_printf(out, " 0x%" PRIx64 " : %s (inlined) [%s]\n", address, name, module);
}
