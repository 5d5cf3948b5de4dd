/* usymname(), usymdata(), umodname() resolve in BPF, so their strings can be
 * compared, concatenated and used as keys: the runtime copies its symbol
 * index (symbols.h) into the object's tap_sym_* maps (program.h), sized
 * before load and filled before anything is attached. Files mapped later
 * (dlopen; mappings.c reports them) are added while there is room, so
 * calls made once tap has seen the mapping resolve too. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/mappings.h"
#include "runtime/session.h"
#include "runtime/symbols.h"

/* Room for files mapped after load. With a target, its files are offered as it maps them: a plugin
 * or two. System-wide, only the files usymname() & co. met (tap_sym_wanted): offering every file
 * every process maps would read hundreds at start (seconds) and let a busy machine's compilers
 * crowd out the program being profiled. */
#define SPARE_FILES 16
#define SPARE_FUNCTIONS 4096
#define SYSTEM_SPARE_FILES 256
#define SYSTEM_SPARE_FUNCTIONS (64 * 1024)
#define WANTED_PERIOD_NS 10000000   /* tap_sym_wanted is read at most this often */

int session_symbol_maps_used(struct session *s)
{
    return bpf_object__find_map_by_name(s->object, "tap_sym_files") &&
           bpf_object__find_map_by_name(s->object, "tap_sym_names") &&
           bpf_object__find_map_by_name(s->object, "tap_sym_paths");
}

static uint32_t function_count(const struct symbols *symbols, int i)
{
    uint64_t start, size;
    const char *name;
    uint32_t count = 0;
    while (symbols_function_at(symbols, i, count, &start, &size, &name))
        count++;
    return count;
}

int session_size_symbol_maps(struct session *s)
{
    if (!session_symbol_maps_used(s))
        return 0;
    struct symbols *symbols = session_symbols(s);
    uint32_t files = 0, functions = 0;
    for (int i = 0; symbols_file_at(symbols, i, NULL); i++, files++)
        functions += function_count(symbols, i);
    s->sym_files_room = files + (s->target_pid ? SPARE_FILES : SYSTEM_SPARE_FILES);
    s->sym_entries_room = functions + (s->target_pid ? SPARE_FUNCTIONS : SYSTEM_SPARE_FUNCTIONS);
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_sym_files"), s->sym_files_room);
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_sym_paths"), s->sym_files_room);
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_sym_names"), s->sym_entries_room);
    return 0;
}

/* The file's identity as bpf_find_vma sees it: the kernel's dev_t encoding. */
int session_file_key(const char *path, struct symbol_map_key *key)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    key->dev = (uint64_t)major(st.st_dev) << 20 | minor(st.st_dev);
    key->ino = st.st_ino;
    return 0;
}

/* The index's i-th file into the next slot of tap_sym_paths, its functions from *next_entry on,
 * unless the maps hold it already. */
static int fill_file(struct session *s, int i, uint32_t *next_entry)
{
    int files_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_sym_files"));
    int paths_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_sym_paths"));
    int names_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_sym_names"));
    const char *path = symbols_file_at(s->symbols, i, NULL);
    struct symbol_map_key key;
    struct symbol_map_file present;
    if (session_file_key(path, &key) < 0 || bpf_map_lookup_elem(files_fd, &key, &present) == 0)
        return 0;   /* no identity for bpf_find_vma to match, or there already (two paths to one file) */
    char path_value[SYMBOL_PATH_SIZE] = {0};
    uint32_t index = s->sym_files_filled;
    snprintf(path_value, sizeof(path_value), "%s", path);
    if (bpf_map_update_elem(paths_fd, &index, path_value, BPF_ANY) < 0)
        return -1;
    struct symbol_map_file file = {.first = *next_entry, .path = index};
    struct symbol_map_entry entry;
    const char *name;
    for (size_t j = 0; symbols_function_at(s->symbols, i, j, &entry.start, &entry.size, &name); j++) {
        memset(entry.name, 0, sizeof(entry.name));
        snprintf(entry.name, sizeof(entry.name), "%s", name);
        if (bpf_map_update_elem(names_fd, next_entry, &entry, BPF_ANY) < 0)
            return -1;
        ++*next_entry;
        file.count++;
    }
    if (bpf_map_update_elem(files_fd, &key, &file, BPF_ANY) < 0)
        return -1;
    s->sym_files_filled++;
    return 0;
}

/* Whether the index's i-th file fits in the room left. */
static int fits(struct session *s, int i)
{
    return s->sym_files_filled < s->sym_files_room &&
           s->sym_entries_filled + function_count(s->symbols, i) <= s->sym_entries_room;
}

/* The index's files not yet offered to the maps, while there is room. One whose functions do not
 * fit in what is left (a big library) is skipped: it must not hold back the files after it. */
static int fill_new_files(struct session *s)
{
    for (int i = (int)s->sym_files_seen; symbols_file_at(s->symbols, i, NULL) && s->sym_files_filled < s->sym_files_room;
         s->sym_files_seen = (uint32_t)++i)
        if (fits(s, i) && fill_file(s, i, &s->sym_entries_filled) < 0)
            return -1;
    return 0;
}

int session_fill_symbol_maps(struct session *s)
{
    /* their refresh adds the files mapped since to the index first */
    static const struct file_tables symbol_tables = {"symbol", session_symbol_maps_used, NULL, fill_new_files};
    return session_fill_file_tables(s, &symbol_tables);
}

void session_refresh_symbol_maps(struct session *s)
{
    int symbols_used = session_symbol_maps_used(s), unwind_used = session_unwind_maps_used(s);
    int lines_used = session_line_maps_used(s);
    if (!s->symbols || (!symbols_used && !unwind_used && !lines_used))
        return;
    /* system-wide, rows are read for the files the walk meets (session_add_wanted_unwind_files), not for
     * every file any process maps */
    for (const char *path; (path = mappings_file_at(s->mappings, s->mapped_files_seen)); s->mapped_files_seen++)
        if ((symbols_used && s->target_pid && s->sym_files_filled < s->sym_files_room) ||
            (lines_used && (uint32_t)s->line_written < s->line_files_room) ||
            (unwind_used && s->target_pid && (uint32_t)s->unwind_written < s->unwind_files_room))
            symbols_add_file(s->symbols, path, 0);
    if (symbols_used)
        fill_new_files(s);   /* a failure leaves the file unresolved, as before */
}

const char *session_mapped_path(struct session *s, const struct symbol_map_key *key)
{
    const char *path;
    for (int i = 0; (path = mappings_file_at(s->mappings, i)); i++) {
        struct symbol_map_key mapped;
        if (session_file_key(path, &mapped) == 0 && mapped.dev == key->dev && mapped.ino == key->ino)
            return path;
    }
    return NULL;
}

static int tried_wanted(const struct session *s, const struct symbol_map_key *key)
{
    for (size_t i = 0; i < s->sym_wanted_count; i++)
        if (s->sym_wanted[i].dev == key->dev && s->sym_wanted[i].ino == key->ino)
            return 1;
    return 0;
}

/* The index's file at path (realpath), or -1. */
static int indexed_file(struct session *s, const char *path)
{
    char real[PATH_MAX];
    const char *indexed;
    if (!realpath(path, real))
        return -1;
    for (int i = 0; (indexed = symbols_file_at(s->symbols, i, NULL)); i++)
        if (strcmp(indexed, real) == 0)
            return i;
    return -1;
}

/* One file usymname() & co. met without symbols: found by device and inode among the mapped files,
 * indexed and filled if the whole room still has space for it. Tried once. */
static void add_wanted(struct session *s, const struct symbol_map_key *key)
{
    s->sym_wanted[s->sym_wanted_count++] = *key;
    const char *path = session_mapped_path(s, key);
    if (!path)
        return;
    symbols_add_file(session_symbols(s), path, 0);
    int i = indexed_file(s, path);
    if (i >= 0 && fits(s, i))
        fill_file(s, i, &s->sym_entries_filled);   /* a failure leaves it unresolved */
}

void session_add_wanted_symbol_files(struct session *s)
{
    struct bpf_map *map = s->object ? bpf_object__find_map_by_name(s->object, "tap_sym_wanted") : NULL;
    if (!map || !s->mappings || !session_symbol_maps_used(s) ||
        !session_wanted_due(&s->sym_wanted_read_ns, WANTED_PERIOD_NS))
        return;
    if (!s->sym_wanted && !(s->sym_wanted = calloc(SYMBOL_WANTED_FILES, sizeof(*s->sym_wanted))))
        return;
    mappings_drain(s->mappings);
    int fd = bpf_map__fd(map);
    struct symbol_map_key key, next;
    for (void *previous = NULL; s->sym_wanted_count < SYMBOL_WANTED_FILES && bpf_map_get_next_key(fd, previous, &next) == 0;
         previous = &key) {
        key = next;
        if (!tried_wanted(s, &key))
            add_wanted(s, &key);
    }
}
