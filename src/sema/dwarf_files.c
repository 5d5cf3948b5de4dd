/* A function's declaring file (DW_AT_decl_file), read from the header of
 * its CU's line table only. libdw 0.188's dwarf_decl_file() decodes the
 * CU's whole line program for the file names: 7 MB for SQLite's one CU,
 * held until the binary is closed, when indexing needs only the names.
 * The names are spelled as libdw spells them (a relative name joined to
 * its directory); anything this reader does not handle (DWARF 64-bit
 * values it cannot find, compressed sections, string index forms, split
 * units) falls back to dwarf_decl_file(). */
#include <dwarf.h>
#include <gelf.h>
#include <string.h>

#include "base/arena.h"
#include "base/elf_sections.h"
#include "sema/dwarf.h"

/* A file of a line table: its name and directory as written (in the
 * binary's sections), joined when first asked for. */
struct file_entry {
    const char *dir, *name, *joined;
};

/* The files of one CU's line table, indexed as DW_AT_decl_file. */
struct file_table {
    const void *cu;              /* the Dwarf_CU it belongs to */
    struct file_entry *files;    /* NULL: read it with libdw instead */
    uint64_t count;
    struct file_table *next;
};

struct dwarf_file_tables {
    Elf_Data *line, *line_str, *str;
    struct file_table *tables, *last;
};

struct line_reader {
    const unsigned char *p, *end;
    int offset_size;             /* 4, or 8 in 64-bit DWARF */
    int failed;
};

static uint64_t read_fixed(struct line_reader *r, int size)
{
    uint64_t value = 0;
    if (r->end - r->p < size) {
        r->failed = 1;
        return 0;
    }
    for (int i = 0; i < size; i++)   /* little-endian: checked when the sections are found */
        value |= (uint64_t)r->p[i] << (8 * i);
    r->p += size;
    return value;
}

static uint64_t read_uleb(struct line_reader *r)
{
    uint64_t value = 0;
    for (int shift = 0; r->p < r->end && shift < 64; shift += 7) {
        unsigned char byte = *r->p++;
        value |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return value;
    }
    r->failed = 1;
    return 0;
}

static const char *read_cstring(struct line_reader *r)
{
    const unsigned char *nul = r->p < r->end ? memchr(r->p, 0, (size_t)(r->end - r->p)) : NULL;
    if (!nul) {
        r->failed = 1;
        return NULL;
    }
    const char *s = (const char *)r->p;
    r->p = nul + 1;
    return s;
}

static const char *string_at(Elf_Data *section, uint64_t offset)
{
    if (!section || offset >= section->d_size)
        return NULL;
    const char *s = (const char *)section->d_buf + offset;
    return memchr(s, 0, section->d_size - offset) ? s : NULL;
}

/* One DWARF 5 entry field: its string (path forms) or number (index forms);
 * other forms are skipped. */
static void read_field(struct dwarf_file_tables *t, struct line_reader *r, uint64_t form,
                       const char **string, uint64_t *number)
{
    switch (form) {
    case DW_FORM_string: *string = read_cstring(r); return;
    case DW_FORM_line_strp: *string = string_at(t->line_str, read_fixed(r, r->offset_size)); return;
    case DW_FORM_strp: *string = string_at(t->str, read_fixed(r, r->offset_size)); return;
    case DW_FORM_udata: *number = read_uleb(r); return;
    case DW_FORM_data1: *number = read_fixed(r, 1); return;
    case DW_FORM_data2: *number = read_fixed(r, 2); return;
    case DW_FORM_data4: *number = read_fixed(r, 4); return;
    case DW_FORM_data8: *number = read_fixed(r, 8); return;
    case DW_FORM_data16: read_fixed(r, 8); read_fixed(r, 8); return;
    case DW_FORM_block: {
        uint64_t length = read_uleb(r);
        if ((uint64_t)(r->end - r->p) < length)
            r->failed = 1;
        else
            r->p += length;
        return;
    }
    default: r->failed = 1; return;   /* strx forms need .debug_str_offsets: libdw reads those */
    }
}

struct file_list {
    struct file_entry *entries;
    uint64_t count, capacity;
};

static void push_file(struct arena *arena, struct file_list *list, const char *dir, const char *name)
{
    if (list->count == list->capacity) {
        uint64_t capacity = list->capacity ? list->capacity * 2 : 16;
        list->entries = arena_realloc(arena, list->entries, sizeof(*list->entries) * list->capacity,
                                      sizeof(*list->entries) * capacity);
        list->capacity = capacity;
    }
    list->entries[list->count++] = (struct file_entry){dir, name, NULL};
}

/* DWARF 2-4: directories, then files as (name, directory, mtime, length);
 * directory 0 is the CU's comp_dir, file 0 does not exist. */
static void read_names_v4(struct arena *arena, struct line_reader *r, const char *comp_dir, struct file_list *files)
{
    struct file_list dirs = {0};
    push_file(arena, &dirs, NULL, comp_dir);
    while (!r->failed && r->p < r->end && *r->p)
        push_file(arena, &dirs, NULL, read_cstring(r));
    read_fixed(r, 1);
    push_file(arena, files, NULL, NULL);
    while (!r->failed && r->p < r->end && *r->p) {
        const char *name = read_cstring(r);
        uint64_t dir = read_uleb(r);
        read_uleb(r);
        read_uleb(r);
        if (r->failed || dir >= dirs.count) {
            r->failed = 1;
            return;
        }
        push_file(arena, files, dirs.entries[dir].name, name);
    }
    read_fixed(r, 1);
}

#define MAX_ENTRY_FIELDS 16

/* DWARF 5: a list of entries, each a path and (files) a directory index,
 * described by (content type, form) pairs. A path in dirs is joined to its
 * directory. */
static void read_entries_v5(struct arena *arena, struct dwarf_file_tables *t, struct line_reader *r,
                            const struct file_list *dirs, struct file_list *out)
{
    uint64_t types[MAX_ENTRY_FIELDS], forms[MAX_ENTRY_FIELDS];
    int field_count = (int)read_fixed(r, 1);
    if (field_count > MAX_ENTRY_FIELDS)
        r->failed = 1;
    for (int i = 0; i < field_count && !r->failed; i++) {
        types[i] = read_uleb(r);
        forms[i] = read_uleb(r);
    }
    uint64_t count = read_uleb(r);
    for (uint64_t n = 0; n < count && !r->failed; n++) {
        const char *path = NULL;
        uint64_t dir = UINT64_MAX;
        for (int i = 0; i < field_count; i++) {
            const char *string = NULL;
            uint64_t number = UINT64_MAX;
            read_field(t, r, forms[i], &string, &number);
            if (types[i] == DW_LNCT_path)
                path = string;
            else if (types[i] == DW_LNCT_directory_index)
                dir = number;
        }
        if (!path || (dirs && dir >= dirs->count)) {
            r->failed = 1;
            return;
        }
        push_file(arena, out, dirs ? dirs->entries[dir].name : NULL, path);
    }
}

/* The files of the line table at `offset` in .debug_line, or NULL. */
static struct file_entry *read_files(struct arena *arena, struct dwarf_file_tables *t, uint64_t offset,
                                    const char *comp_dir, uint64_t *count)
{
    if (!t->line || offset >= t->line->d_size)
        return NULL;
    const unsigned char *start = (const unsigned char *)t->line->d_buf;
    struct line_reader r = {start + offset, start + t->line->d_size, 4, 0};
    uint64_t length = read_fixed(&r, 4);
    if (length == 0xffffffff) {
        r.offset_size = 8;
        length = read_fixed(&r, 8);
    }
    if (r.failed || length > (uint64_t)(r.end - r.p))
        return NULL;
    r.end = r.p + length;
    int version = (int)read_fixed(&r, 2);
    if (version < 2 || version > 5 || (version == 5 && (read_fixed(&r, 1), read_fixed(&r, 1) != 0)))
        return NULL;
    uint64_t header_length = read_fixed(&r, r.offset_size);
    if (r.failed || header_length > (uint64_t)(r.end - r.p))
        return NULL;
    r.end = r.p + header_length;
    read_fixed(&r, version >= 4 ? 5 : 4);   /* instruction lengths, is_stmt, line base and range */
    uint64_t opcode_base = read_fixed(&r, 1);   /* standard opcode lengths follow */
    if (r.failed || opcode_base == 0 || opcode_base - 1 > (uint64_t)(r.end - r.p))
        return NULL;
    r.p += opcode_base - 1;
    struct file_list files = {0};
    if (version < 5) {
        read_names_v4(arena, &r, comp_dir, &files);
    } else {
        struct file_list dirs = {0};
        read_entries_v5(arena, t, &r, NULL, &dirs);
        read_entries_v5(arena, t, &r, &dirs, &files);
    }
    if (r.failed || r.p != r.end)   /* libdw rejects a header it did not read to its end */
        return NULL;
    *count = files.count;
    return files.entries;
}

/* A section's bytes as they are in the file, or NULL (absent or compressed:
 * libdw decompresses those itself). */
static Elf_Data *raw_section(Elf *elf, const char *wanted)
{
    GElf_Shdr shdr;
    Elf_Scn *scn = elf_section_named(elf, wanted, &shdr);
    if (!scn || shdr.sh_type == SHT_NOBITS || (shdr.sh_flags & SHF_COMPRESSED))
        return NULL;
    return elf_rawdata(scn, NULL);
}

static struct dwarf_file_tables *file_tables(struct arena *arena, struct dwarf_module *m)
{
    if (!m->file_tables) {
        struct dwarf_file_tables *t = ARENA_NEW(arena, struct dwarf_file_tables);
        GElf_Ehdr ehdr;
        Elf *elf = dwarf_getelf(m->dwarf);   /* the binary, or its separate debug file */
        if (elf && gelf_getehdr(elf, &ehdr) && ehdr.e_ident[EI_DATA] == ELFDATA2LSB) {
            t->line = raw_section(elf, ".debug_line");
            t->line_str = raw_section(elf, ".debug_line_str");
            t->str = raw_section(elf, ".debug_str");
        }
        m->file_tables = t;
    }
    return m->file_tables;
}

/* The file table of the CU holding `attr` (read once per CU). */
static struct file_table *table_of(struct arena *arena, struct dwarf_module *m, Dwarf_Attribute *attr)
{
    struct dwarf_file_tables *t = file_tables(arena, m);
    if (t->last && t->last->cu == attr->cu)
        return t->last;
    for (struct file_table *table = t->tables; table; table = table->next)
        if (table->cu == attr->cu)
            return t->last = table;
    struct file_table *table = ARENA_NEW(arena, struct file_table);
    table->cu = attr->cu;
    table->next = t->tables;
    t->tables = t->last = table;
    Dwarf_Die cu;
    Dwarf_Attribute stmt_list, comp_dir;
    Dwarf_Word offset;
    uint8_t unit_type;
    /* a unit of another file (dwz's alternate) has its own sections: libdw's */
    if (dwarf_cu_getdwarf(attr->cu) == m->dwarf &&
        dwarf_cu_info(attr->cu, NULL, &unit_type, &cu, NULL, NULL, NULL, NULL) == 0 &&
        (unit_type == DW_UT_compile || unit_type == DW_UT_partial) &&
        dwarf_formudata(dwarf_attr(&cu, DW_AT_stmt_list, &stmt_list), &offset) == 0) {
        const char *dir = dwarf_attr(&cu, DW_AT_comp_dir, &comp_dir) ? dwarf_formstring(&comp_dir) : NULL;
        table->files = read_files(arena, t, offset, dir, &table->count);
    }
    return table;
}

const char *dwarf_module_decl_file(struct arena *arena, struct dwarf_module *m, Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    Dwarf_Word index;
    if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &attr), &index) != 0 || index == 0)
        return NULL;   /* as dwarf_decl_file(): 0 is "no file" */
    struct file_table *table = table_of(arena, m, &attr);
    if (table->files && index < table->count) {
        struct file_entry *file = &table->files[index];
        /* as libdw: an absolute name as it is, a relative one after its
         * directory (unless unknown); copied, as the sections go when the
         * binary is closed */
        if (!file->joined)
            file->joined = file->name[0] == '/' || !file->dir
                ? arena_strdup(arena, file->name) : arena_printf(arena, "%s/%s", file->dir, file->name);
        return file->joined;
    }
    const char *file = dwarf_decl_file(die);
    return file ? arena_strdup(arena, file) : NULL;
}
