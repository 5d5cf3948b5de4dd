/* A binary's function index (dwarf_index.c) kept in tap's cache directory
 * (base/disk_cache.c), so probing one function of a big binary again does
 * not walk all of its DWARF. The key is the file's identity: device, inode,
 * size, modification and change times (the change time cannot be set back),
 * and the same of its separate debug file, on top of tap's own build id. The
 * entry is a flat record: counts, fixed rows with string offsets, then the
 * strings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/disk_cache.h"
#include "base/strbuf.h"
#include "sema/dwarf.h"

#define NO_STRING UINT32_MAX

struct index_header {
    uint32_t function_count, inline_root_count, inline_roots_known, strings_size;
};

struct index_row {
    uint64_t entry, die_offset;
    uint32_t name, decl_file, scope, linkage_name;
    int32_t decl_line;
    uint8_t is_external, has_return, is_alias, padding;
};

int dwarf_index_cache_name(const struct dwarf_module *m, char *out, size_t size)
{
    struct stat st;
    struct sha256 key;
    if (fstat(m->fd, &st) != 0 || disk_cache_key_begin(&key) != 0)
        return -1;
    const uint64_t identity[8] = {st.st_dev, st.st_ino, (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
                                  (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ctim.tv_sec,
                                  (uint64_t)st.st_ctim.tv_nsec, m->dwarf != NULL};
    sha256_update(&key, "dwarf index 4", 13);
    sha256_update(&key, m->path, strlen(m->path) + 1);
    sha256_update(&key, identity, sizeof(identity));
    /* the separate debug file the DWARF and .symtab came from, if any */
    const char *debug_file = NULL;
    if (m->debug.module)
        dwfl_module_info(m->debug.module, NULL, NULL, NULL, NULL, NULL, NULL, &debug_file);
    struct stat debug_st = {0};
    if (debug_file && stat(debug_file, &debug_st) != 0)
        return -1;
    const uint64_t debug_identity[7] = {debug_st.st_dev, debug_st.st_ino, (uint64_t)debug_st.st_size,
                                        (uint64_t)debug_st.st_mtim.tv_sec, (uint64_t)debug_st.st_mtim.tv_nsec,
                                        (uint64_t)debug_st.st_ctim.tv_sec, (uint64_t)debug_st.st_ctim.tv_nsec};
    sha256_update(&key, debug_file ? debug_file : "", debug_file ? strlen(debug_file) + 1 : 1);
    sha256_update(&key, debug_identity, sizeof(debug_identity));
    unsigned char digest[SHA256_SIZE];
    char hex[2 * SHA256_SIZE + 1];
    sha256_final(&key, digest);
    sha256_hex(digest, hex);
    snprintf(out, size, "%s.index", hex);
    return 0;
}

static uint32_t add_string(struct strbuf *strings, const char *s)
{
    if (!s)
        return NO_STRING;
    uint32_t at = (uint32_t)strings->len;
    strbuf_append(strings, s, strlen(s) + 1);
    return at;
}

void dwarf_index_cache_store(const struct dwarf_module *m, const char *dir, const char *name)
{
    struct strbuf strings, entry;
    strbuf_init(&strings);
    strbuf_init(&entry);
    struct index_row *rows = calloc((size_t)m->function_count + 1, sizeof(*rows));
    uint32_t *roots = calloc((size_t)m->inline_root_count + 1, sizeof(*roots));
    if (rows && roots) {
        for (int i = 0; i < m->function_count; i++) {
            const struct dwarf_function *f = &m->functions[i];
            rows[i] = (struct index_row){.entry = f->entry, .die_offset = f->die_offset,
                                         .name = add_string(&strings, f->name),
                                         .decl_file = add_string(&strings, f->decl_file),
                                         .scope = add_string(&strings, f->scope),
                                         .linkage_name = add_string(&strings, f->linkage_name),
                                         .decl_line = f->decl_line, .is_external = (uint8_t)f->is_external,
                                         .has_return = (uint8_t)f->has_return,
                                         .is_alias = (uint8_t)f->is_alias};
        }
        for (int i = 0; i < m->inline_root_count; i++)
            roots[i] = add_string(&strings, m->inline_roots[i]);
        struct index_header header = {(uint32_t)m->function_count, (uint32_t)m->inline_root_count,
                                      (uint32_t)m->inline_roots_known, (uint32_t)strings.len};
        strbuf_append(&entry, (const char *)&header, sizeof(header));
        strbuf_append(&entry, (const char *)rows, sizeof(*rows) * (size_t)m->function_count);
        strbuf_append(&entry, (const char *)roots, sizeof(*roots) * (size_t)m->inline_root_count);
        strbuf_append(&entry, strings.data ? strings.data : "", strings.len);
        disk_cache_store(dir, name, entry.data, entry.len);
    }
    free(rows);
    free(roots);
    strbuf_free(&strings);
    strbuf_free(&entry);
}

/* A string of the entry, or NULL for none; *ok drops to 0 on a bad offset. */
static const char *string_at(const char *strings, uint32_t size, uint32_t at, int *ok)
{
    if (at == NO_STRING)
        return NULL;
    if (at >= size || !memchr(strings + at, 0, size - at)) {
        *ok = 0;
        return NULL;
    }
    return strings + at;
}

static int decode(struct arena *arena, struct dwarf_module *m, const char *data, size_t size)
{
    struct index_header header;
    if (size < sizeof(header))
        return -1;
    memcpy(&header, data, sizeof(header));
    size_t rows_size = sizeof(struct index_row) * header.function_count;
    size_t roots_size = sizeof(uint32_t) * header.inline_root_count;
    if (header.function_count > (1u << 26) || header.inline_root_count > (1u << 26) ||
        sizeof(header) + rows_size + roots_size + header.strings_size != size)
        return -1;
    const char *roots = data + sizeof(header) + rows_size;
    char *strings = arena_alloc(arena, header.strings_size + 1);   /* the index's names point here */
    memcpy(strings, roots + roots_size, header.strings_size);
    int ok = 1;
    m->functions = ARENA_ARRAY(arena, struct dwarf_function, header.function_count + 1);
    for (uint32_t i = 0; i < header.function_count; i++) {
        struct index_row row;
        memcpy(&row, data + sizeof(header) + i * sizeof(row), sizeof(row));
        m->functions[i] = (struct dwarf_function){
            .name = string_at(strings, header.strings_size, row.name, &ok),
            .decl_file = string_at(strings, header.strings_size, row.decl_file, &ok),
            .scope = string_at(strings, header.strings_size, row.scope, &ok),
            .linkage_name = string_at(strings, header.strings_size, row.linkage_name, &ok),
            .decl_line = row.decl_line, .entry = row.entry, .die_offset = row.die_offset,
            .is_external = row.is_external, .has_return = row.has_return, .is_alias = row.is_alias};
        ok = ok && m->functions[i].name;
    }
    m->inline_roots = ARENA_ARRAY(arena, const char *, header.inline_root_count + 1);
    for (uint32_t i = 0; i < header.inline_root_count; i++) {
        uint32_t at;
        memcpy(&at, roots + i * sizeof(at), sizeof(at));
        m->inline_roots[i] = string_at(strings, header.strings_size, at, &ok);
        ok = ok && m->inline_roots[i];
    }
    m->function_count = (int)header.function_count;
    m->inline_root_count = (int)header.inline_root_count;
    m->inline_roots_known = header.inline_roots_known != 0;
    return ok ? 0 : -1;
}

int dwarf_index_cache_load(struct arena *arena, struct dwarf_module *m, const char *dir, const char *name)
{
    void *data;
    size_t size;
    if (disk_cache_load(dir, name, &data, &size) != 0)
        return -1;
    int status = decode(arena, m, data, size);
    free(data);
    if (status != 0) {
        m->functions = NULL;
        m->function_count = m->inline_root_count = m->inline_roots_known = 0;
        m->inline_roots = NULL;
    }
    return status;
}
