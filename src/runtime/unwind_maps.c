/* The unwind tables of BPF's stack walk (program.h, codegen/stack.c): the
 * rows of each file in the symbol index (the probed binaries, the -c command,
 * their libraries, a -x process's files) are built before load, to size
 * tap_unwind_rows, and written before anything is attached; files mapped
 * later (dlopen; mappings.c reports them) are added while there is room, so
 * stacks taken once tap has seen the mapping unwind through them too. Until
 * then, and in files without CFI, the walk follows frame pointers. */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/mappings.h"
#include "runtime/session.h"
#include "runtime/symbols.h"
#include "runtime/unwind_rows.h"

/* Room for files mapped after load: a plugin or two (libpython's size);
 * system-wide, the files of the processes the walk meets (about 12 MB). */
#define SPARE_FILES 16
#define SPARE_ROWS (128 * 1024)
#define SYSTEM_SPARE_FILES 256
#define SYSTEM_SPARE_ROWS (1024 * 1024)
#define WANTED_PERIOD_NS 100000000   /* tap_unwind_wanted is read at most this often */
#define WANTED_MAX_SIZE (16 << 20)
#define WANTED_BUDGET_NS 20000000    /* more files in a period while they take less than this */
#define WRITE_BATCH 4096

struct unwind_table {
    struct unwind_row *rows;     /* NULL: no CFI */
    size_t count;
};

int session_unwind_maps_used(struct session *s)
{
    return bpf_object__find_map_by_name(s->object, "tap_unwind_files") &&
           bpf_object__find_map_by_name(s->object, "tap_unwind_rows");
}

/* Builds the rows of the index's files not built yet. */
static void build_tables(struct session *s)
{
    struct symbols *symbols = session_symbols(s);
    int count = 0;
    while (symbols_file_at(symbols, count, NULL))
        count++;
    if (count <= s->unwind_built)
        return;
    struct unwind_table *grown = realloc(s->unwind_tables, (size_t)count * sizeof(*grown));
    if (!grown)
        return;
    s->unwind_tables = grown;
    for (; s->unwind_built < count; s->unwind_built++) {
        struct unwind_table *t = &s->unwind_tables[s->unwind_built];
        if (unwind_rows_build(symbols_file_at(symbols, s->unwind_built, NULL), &t->rows, &t->count) < 0)
            *t = (struct unwind_table){0};
    }
}

int session_size_unwind_maps(struct session *s)
{
    if (!session_unwind_maps_used(s))
        return 0;
    build_tables(s);
    size_t rows = s->target_pid ? SPARE_ROWS : SYSTEM_SPARE_ROWS;
    for (int i = 0; i < s->unwind_built; i++)
        rows += s->unwind_tables[i].count;
    s->unwind_files_room = (uint32_t)s->unwind_built + (s->target_pid ? SPARE_FILES : SYSTEM_SPARE_FILES);
    s->unwind_rows_room = rows > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)rows;
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_unwind_files"), s->unwind_files_room);
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_unwind_rows"), s->unwind_rows_room);
    return 0;
}

int session_write_rows(int fd, uint32_t first, const void *rows, size_t count, size_t size)
{
    uint32_t keys[WRITE_BATCH];
    for (size_t done = 0; done < count;) {
        uint32_t n = count - done < WRITE_BATCH ? (uint32_t)(count - done) : WRITE_BATCH;
        for (uint32_t k = 0; k < n; k++)
            keys[k] = first + (uint32_t)done + k;
        if (bpf_map_update_batch(fd, keys, (const char *)rows + done * size, &n, NULL) < 0)
            return -1;
        done += n;
    }
    return 0;
}

/* A file's rows after those already written, then its entry. */
static int write_table(struct session *s, int i)
{
    int files_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_unwind_files"));
    int rows_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_unwind_rows"));
    struct unwind_table *t = &s->unwind_tables[i];
    struct unwind_file file = {.first = s->unwind_rows_filled, .count = (uint32_t)t->count};
    if (session_write_rows(rows_fd, file.first, t->rows, t->count, sizeof(*t->rows)) < 0)
        return -1;
    s->unwind_rows_filled += (uint32_t)t->count;
    struct symbol_map_key key;
    if (session_file_key(symbols_file_at(s->symbols, i, NULL), &key) == 0 &&
        bpf_map_update_elem(files_fd, &key, &file, BPF_ANY) < 0)
        return -1;
    return 0;
}

/* The built files not yet written, while they fit; their rows are freed. */
static int write_new_tables(struct session *s)
{
    for (; s->unwind_written < s->unwind_built && (uint32_t)s->unwind_written < s->unwind_files_room;
         s->unwind_written++) {
        struct unwind_table *t = &s->unwind_tables[s->unwind_written];
        if (t->rows && s->unwind_rows_filled + t->count <= s->unwind_rows_room && write_table(s, s->unwind_written) < 0)
            return -1;
        free(t->rows);
        *t = (struct unwind_table){0};
    }
    return 0;
}

static const struct file_tables unwind_tables = {"unwind", session_unwind_maps_used, build_tables,
                                                  write_new_tables};

int session_fill_unwind_maps(struct session *s)
{
    return session_fill_file_tables(s, &unwind_tables);
}

void session_refresh_unwind_maps(struct session *s)
{
    session_refresh_file_tables(s, &unwind_tables);
}

static int already_wanted(struct session *s, const struct symbol_map_key *key)
{
    for (size_t i = 0; i < s->unwind_wanted_count; i++)
        if (s->unwind_wanted[i].dev == key->dev && s->unwind_wanted[i].ino == key->ino)
            return 1;
    return 0;
}

/* The untried file of tap_unwind_wanted met most, into best; 0 when none. */
static uint64_t most_wanted(struct session *s, int fd, struct symbol_map_key *best)
{
    struct symbol_map_key key, next;
    uint64_t count, most = 0;
    for (void *previous = NULL; bpf_map_get_next_key(fd, previous, &next) == 0; previous = &key) {
        key = next;
        if (bpf_map_lookup_elem(fd, &key, &count) == 0 && count > most && !already_wanted(s, &key)) {
            most = count;
            *best = key;
        }
    }
    return most;
}

/* Files the walk met without rows (tap_unwind_wanted, codegen/stack.c:
 * system-wide, the files of processes started before tap), the most met
 * first, each found by device and inode among the mapped files, indexed,
 * and its rows written while there is room. Files a period until they have
 * taken WANTED_BUDGET_NS, and none over WANTED_MAX_SIZE: libdw takes
 * seconds on a big file, and the loop must not stall that long. Each file
 * is tried once. */
void session_add_wanted_unwind_files(struct session *s)
{
    struct bpf_map *map = s->object ? bpf_object__find_map_by_name(s->object, "tap_unwind_wanted") : NULL;
    if (!map || !s->mappings || !session_unwind_maps_used(s) ||
        !session_wanted_due(&s->unwind_wanted_read_ns, WANTED_PERIOD_NS))
        return;
    if (!s->unwind_wanted && !(s->unwind_wanted = calloc(UNWIND_WANTED_FILES, sizeof(*s->unwind_wanted))))
        return;
    mappings_drain(s->mappings);
    struct symbol_map_key best;
    while (s->unwind_wanted_count < UNWIND_WANTED_FILES && most_wanted(s, bpf_map__fd(map), &best)) {
        s->unwind_wanted[s->unwind_wanted_count++] = best;
        const char *path = session_mapped_path(s, &best);
        struct stat st;
        if (path && stat(path, &st) == 0 && st.st_size <= WANTED_MAX_SIZE) {
            symbols_add_file(session_symbols(s), path, 0);
            session_refresh_unwind_maps(s);
            struct timespec now;   /* the budget runs from the read (session_wanted_due set it) */
            clock_gettime(CLOCK_MONOTONIC, &now);
            if ((uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec - s->unwind_wanted_read_ns >
                WANTED_BUDGET_NS)
                return;
        }
    }
}

void session_free_unwind_tables(struct session *s)
{
    for (int i = s->unwind_written; i < s->unwind_built; i++)
        free(s->unwind_tables[i].rows);
    free(s->unwind_tables);
    free(s->unwind_wanted);
    free(s->sym_wanted);
}
