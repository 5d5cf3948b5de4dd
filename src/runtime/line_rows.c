/* A file's DWARF line table as rows for BPF (line_rows.h): libdw decodes
 * each CU's line program (dwarf_getsrclines, no parser of ours), the rows'
 * addresses become file offsets through the executable PT_LOADs, and they
 * are sorted. A row covers its offset up to the next row, as in SystemTap's
 * lookup, so of several rows at one offset the last counts, except that a
 * sequence's end never hides the start of the next sequence there. The
 * sources are the paths libdw gives (dwarf_linesrc: the file joined to its
 * directory), each kept once. */
#include "runtime/line_rows.h"

#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug_file.h"
#include "base/grow.h"

struct line_entry {
    uint64_t offset;
    uint32_t line, source;
    int end;                     /* a sequence's end: no line from here */
    size_t order;                /* in the line programs, for a stable sort */
};

struct builder {
    Elf *elf;
    struct line_entry *entries;
    size_t count, capacity;
    struct line_table *table;
    size_t source_capacity;
    uint32_t *slots;             /* source index + 1 by the path's hash; 0: empty */
    size_t slot_capacity;        /* a power of two */
    int failed;
};

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t slot_of(const struct builder *b, const char *path)
{
    size_t mask = b->slot_capacity - 1, slot = hash(path) & mask;
    while (b->slots[slot] && strcmp(b->table->sources[b->slots[slot] - 1], path) != 0)
        slot = (slot + 1) & mask;
    return slot;
}

static int grow_slots(struct builder *b)
{
    uint32_t *old = b->slots;
    size_t old_capacity = b->slot_capacity;
    b->slot_capacity = old_capacity ? old_capacity * 2 : 256;
    b->slots = calloc(b->slot_capacity, sizeof(*b->slots));
    if (!b->slots)
        return -1;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i])
            b->slots[slot_of(b, b->table->sources[old[i] - 1])] = old[i];
    free(old);
    return 0;
}

/* The index of PATH among the sources, added on first sight. */
static uint32_t intern(struct builder *b, const char *path)
{
    struct line_table *t = b->table;
    if (2 * (t->source_count + 1) > b->slot_capacity && grow_slots(b) < 0)
        return b->failed = 1, LINE_NO_SOURCE;
    size_t slot = slot_of(b, path);
    if (b->slots[slot])
        return b->slots[slot] - 1;
    char **sources = grow_for_one(t->sources, &b->source_capacity, t->source_count, sizeof(char *), 64);
    char *copy = strdup(path);
    if (!sources || !copy) {
        free(copy);
        return b->failed = 1, LINE_NO_SOURCE;
    }
    t->sources = sources;
    t->sources[t->source_count] = copy;
    b->slots[slot] = (uint32_t)++t->source_count;
    return (uint32_t)(t->source_count - 1);
}

/* A sequence ends just past its last instruction, which may be the
 * segment's end: its offset is that of the byte before, plus one. */
static int64_t row_offset(Elf *elf, uint64_t address, int end)
{
    if (!end)
        return debug_file_offset(elf, address);
    int64_t before = address ? debug_file_offset(elf, address - 1) : -1;
    return before < 0 ? -1 : before + 1;
}

static void add_line(struct builder *b, Dwarf_Line *line)
{
    Dwarf_Addr address;
    int number = 0;
    bool end = false;
    if (dwarf_lineaddr(line, &address) != 0 || dwarf_lineno(line, &number) != 0 ||
        dwarf_lineendsequence(line, &end) != 0)
        return;
    int64_t offset = row_offset(b->elf, address, end);
    if (offset < 0 || offset > UINT32_MAX)
        return;
    const char *path = end ? NULL : dwarf_linesrc(line, NULL, NULL);
    struct line_entry entry = {(uint64_t)offset, 0, LINE_NO_SOURCE, end, b->count};
    if (path) {   /* a row without its file says nothing (SystemTap's hex) */
        entry.source = intern(b, path);
        entry.line = number > 0 ? (uint32_t)number : 0;
    }
    struct line_entry *entries = grow_for_one(b->entries, &b->capacity, b->count, sizeof(*entries), 1024);
    if (!entries) {
        b->failed = 1;
        return;
    }
    b->entries = entries;
    b->entries[b->count++] = entry;
}

static void add_units(struct builder *b, Dwarf *dwarf)
{
    Dwarf_Off offset = 0, next;
    size_t header_size;
    while (!b->failed && dwarf_nextcu(dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        Dwarf_Lines *lines;
        size_t count;
        if (dwarf_offdie(dwarf, offset + header_size, &cu) && dwarf_getsrclines(&cu, &lines, &count) == 0)
            for (size_t i = 0; i < count && !b->failed; i++)
                add_line(b, dwarf_onesrcline(lines, i));
        offset = next;
    }
}

/* By offset; at one offset, ends first, then in the programs' order. */
static int compare_entries(const void *left, const void *right)
{
    const struct line_entry *a = left, *b = right;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->end != b->end)
        return a->end ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* The last entry at each offset, without those repeating the row before. */
static int make_rows(struct builder *b)
{
    struct line_table *t = b->table;
    qsort(b->entries, b->count, sizeof(*b->entries), compare_entries);
    t->rows = calloc(b->count ? b->count : 1, sizeof(*t->rows));
    if (!t->rows)
        return -1;
    for (size_t i = 0; i < b->count; i++) {
        const struct line_entry *e = &b->entries[i];
        if (i + 1 < b->count && b->entries[i + 1].offset == e->offset)
            continue;
        struct line_map_row row = {(uint32_t)e->offset, e->line, e->source, 0};
        if (t->count && t->rows[t->count - 1].line == row.line && t->rows[t->count - 1].source == row.source)
            continue;
        t->rows[t->count++] = row;
    }
    return 0;
}

int line_rows_build(const char *path, struct line_table *table)
{
    struct debug_file debug;
    struct builder b = {.table = table};
    const char *file;
    Dwarf_Addr bias;
    *table = (struct line_table){0};
    int result = -1;
    if (debug_file_begin(&debug, path) == 0) {
        Dwarf *dwarf = debug_file_dwarf(&debug, &file);
        b.elf = dwfl_module_getelf(debug.module, &bias);
        if (dwarf && b.elf) {
            add_units(&b, dwarf);
            result = !b.failed && b.count && make_rows(&b) == 0 ? 0 : -1;
        }
    }
    debug_file_end(&debug);
    free(b.entries);
    free(b.slots);
    if (result < 0)
        line_table_free(table);
    return result;
}

void line_table_free(struct line_table *table)
{
    for (size_t i = 0; i < table->source_count; i++)
        free(table->sources[i]);
    free(table->sources);
    free(table->rows);
    *table = (struct line_table){0};
}
