/* One arena per compilation: nodes, strings, types and DWARF results are
 * allocated here and freed together, so no pass owns anything it must free. */
#ifndef TAP_BASE_ARENA_H
#define TAP_BASE_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
    struct arena_block *head;
    size_t total;               /* bytes handed out, for -v memory reports */
};

void arena_init(struct arena *arena);
void arena_free(struct arena *arena);
void *arena_alloc(struct arena *arena, size_t size);          /* zeroed */
void *arena_realloc(struct arena *arena, void *old, size_t old_size, size_t new_size);
char *arena_strdup(struct arena *arena, const char *s);
char *arena_strndup(struct arena *arena, const char *s, size_t n);
char *arena_printf(struct arena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define ARENA_NEW(arena, type) ((type *)arena_alloc((arena), sizeof(type)))
#define ARENA_ARRAY(arena, type, n) ((type *)arena_alloc((arena), sizeof(type) * (size_t)(n)))

#endif
