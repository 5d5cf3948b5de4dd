/* The line tables of usymfileline(), usymfile(), usymline() (program.h,
 * codegen/stack.c), filled as the unwind tables are: the rows of each file
 * in the symbol index (line_rows.c) are built before load, to size the maps,
 * and written before anything is attached; files mapped later (dlopen) are
 * added while there is room. A file without DWARF lines gets no entry, so
 * its addresses print as SystemTap prints them there: in hex. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/line_rows.h"
#include "runtime/session.h"
#include "runtime/symbols.h"

/* Room for files mapped after load: a plugin or two with their DWARF;
 * system-wide, the files of the processes started since (a profile's). */
#define SPARE_FILES 16
#define SPARE_ROWS (64 * 1024)
#define SPARE_SOURCES 1024
#define SYSTEM_SPARE_FILES 256
#define SYSTEM_SPARE_ROWS (1024 * 1024)
#define SYSTEM_SPARE_SOURCES (8 * 1024)

static struct bpf_map *line_map(struct session *s, const char *name)
{
    return bpf_object__find_map_by_name(s->object, name);
}

int session_line_maps_used(struct session *s)
{
    return line_map(s, "tap_line_files") && line_map(s, "tap_line_rows") && line_map(s, "tap_line_sources");
}

/* Builds the tables of the index's files not built yet. */
static void build_tables(struct session *s)
{
    struct symbols *symbols = session_symbols(s);
    int count = 0;
    while (symbols_file_at(symbols, count, NULL))
        count++;
    if (count <= s->line_built)
        return;
    struct line_table *grown = realloc(s->line_tables, (size_t)count * sizeof(*grown));
    if (!grown)
        return;
    s->line_tables = grown;
    for (; s->line_built < count; s->line_built++)
        line_rows_build(symbols_file_at(symbols, s->line_built, NULL), &s->line_tables[s->line_built]);
}

static uint32_t capped(size_t n)
{
    return n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)n;
}

int session_size_line_maps(struct session *s)
{
    if (!session_line_maps_used(s))
        return 0;
    build_tables(s);
    size_t rows = s->target_pid ? SPARE_ROWS : SYSTEM_SPARE_ROWS;
    size_t sources = s->target_pid ? SPARE_SOURCES : SYSTEM_SPARE_SOURCES;
    for (int i = 0; i < s->line_built; i++) {
        rows += s->line_tables[i].count;
        sources += s->line_tables[i].source_count;
    }
    s->line_files_room = (uint32_t)s->line_built + (s->target_pid ? SPARE_FILES : SYSTEM_SPARE_FILES);
    s->line_rows_room = capped(rows);
    s->line_sources_room = capped(sources);
    bpf_map__set_max_entries(line_map(s, "tap_line_files"), s->line_files_room);
    bpf_map__set_max_entries(line_map(s, "tap_line_rows"), s->line_rows_room);
    bpf_map__set_max_entries(line_map(s, "tap_line_sources"), s->line_sources_room);
    return 0;
}

/* A file's sources and rows (their source indices made the map's) after
 * those already written, then its entry. */
static int write_table(struct session *s, int i)
{
    struct line_table *t = &s->line_tables[i];
    int sources_fd = bpf_map__fd(line_map(s, "tap_line_sources"));
    uint32_t base = s->line_sources_filled;
    for (size_t j = 0; j < t->source_count; j++) {
        char path[SYMBOL_PATH_SIZE] = {0};
        uint32_t index = base + (uint32_t)j;
        snprintf(path, sizeof(path), "%s", t->sources[j]);
        if (bpf_map_update_elem(sources_fd, &index, path, BPF_ANY) < 0)
            return -1;
    }
    s->line_sources_filled += (uint32_t)t->source_count;
    for (size_t j = 0; j < t->count; j++)
        if (t->rows[j].source != LINE_NO_SOURCE)
            t->rows[j].source += base;
    struct line_map_file file = {.first = s->line_rows_filled, .count = (uint32_t)t->count};
    if (session_write_rows(bpf_map__fd(line_map(s, "tap_line_rows")), file.first, t->rows, t->count,
                           sizeof(*t->rows)) < 0)
        return -1;
    s->line_rows_filled += (uint32_t)t->count;
    struct symbol_map_key key;
    if (session_file_key(symbols_file_at(s->symbols, i, NULL), &key) == 0 &&
        bpf_map_update_elem(bpf_map__fd(line_map(s, "tap_line_files")), &key, &file, BPF_ANY) < 0)
        return -1;
    return 0;
}

/* The built files not yet written, while they fit; their tables are freed. */
static int write_new_tables(struct session *s)
{
    for (; s->line_written < s->line_built && (uint32_t)s->line_written < s->line_files_room; s->line_written++) {
        struct line_table *t = &s->line_tables[s->line_written];
        if (t->rows && s->line_rows_filled + t->count <= s->line_rows_room &&
            s->line_sources_filled + t->source_count <= s->line_sources_room && write_table(s, s->line_written) < 0)
            return -1;
        line_table_free(t);
    }
    return 0;
}

static const struct file_tables line_tables = {"line", session_line_maps_used, build_tables, write_new_tables};

int session_fill_line_maps(struct session *s)
{
    return session_fill_file_tables(s, &line_tables);
}

void session_refresh_line_maps(struct session *s)
{
    session_refresh_file_tables(s, &line_tables);
}

void session_free_line_tables(struct session *s)
{
    for (int i = s->line_written; i < s->line_built; i++)
        line_table_free(&s->line_tables[i]);
    free(s->line_tables);
}
