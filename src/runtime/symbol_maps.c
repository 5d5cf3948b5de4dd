/* usymname(), usymdata(), umodname() resolve in BPF, so their strings can be
 * compared, concatenated and used as keys: the runtime copies its symbol
 * index (symbols.h) into the object's tap_sym_* maps (program.h), sized
 * before load and filled before anything is attached. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/session.h"
#include "runtime/symbols.h"

static int has_symbol_maps(struct session *s)
{
    return bpf_object__find_map_by_name(s->object, "tap_sym_files") &&
           bpf_object__find_map_by_name(s->object, "tap_sym_names") &&
           bpf_object__find_map_by_name(s->object, "tap_sym_paths");
}

int session_size_symbol_maps(struct session *s)
{
    if (!has_symbol_maps(s))
        return 0;
    struct symbols *symbols = session_symbols(s);
    uint32_t files = 0, functions = 0;
    for (int i = 0; symbols_file_at(symbols, i, NULL); i++, files++) {
        uint64_t start, size;
        const char *name;
        for (size_t j = 0; symbols_function_at(symbols, i, j, &start, &size, &name); j++)
            functions++;
    }
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_sym_files"), files ? files : 1);
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_sym_paths"), files ? files : 1);
    bpf_map__set_max_entries(bpf_object__find_map_by_name(s->object, "tap_sym_names"), functions ? functions : 1);
    return 0;
}

/* The file's identity as bpf_find_vma sees it: the kernel's dev_t encoding. */
static int file_key(const char *path, struct symbol_map_key *key)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    key->dev = (uint64_t)major(st.st_dev) << 20 | minor(st.st_dev);
    key->ino = st.st_ino;
    return 0;
}

static int fill_file(struct session *s, int i, uint32_t *next_entry)
{
    int files_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_sym_files"));
    int paths_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_sym_paths"));
    int names_fd = bpf_map__fd(bpf_object__find_map_by_name(s->object, "tap_sym_names"));
    const char *path = symbols_file_at(s->symbols, i, NULL);
    struct symbol_map_key key;
    char path_value[SYMBOL_PATH_SIZE] = {0};
    uint32_t index = (uint32_t)i;
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
    if (file_key(path, &key) == 0 && bpf_map_update_elem(files_fd, &key, &file, BPF_ANY) < 0)
        return -1;
    return 0;
}

int session_fill_symbol_maps(struct session *s)
{
    if (!has_symbol_maps(s))
        return 0;
    uint32_t next_entry = 0;
    for (int i = 0; symbols_file_at(s->symbols, i, NULL); i++) {
        if (fill_file(s, i, &next_entry) < 0) {
            fprintf(stderr, "ERROR: cannot fill the symbol tables: %s\n", strerror(errno));
            return -1;
        }
    }
    return 0;
}
