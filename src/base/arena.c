#include "base/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK_SIZE (64 * 1024)

struct arena_block {
    struct arena_block *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

void arena_init(struct arena *arena)
{
    arena->head = NULL;
    arena->total = 0;
}

void arena_free(struct arena *arena)
{
    struct arena_block *block = arena->head;
    while (block) {
        struct arena_block *next = block->next;
        free(block);
        block = next;
    }
    arena->head = NULL;
    arena->total = 0;
}

static struct arena_block *arena_grow(struct arena *arena, size_t size)
{
    size_t block_size = size > ARENA_BLOCK_SIZE ? size : ARENA_BLOCK_SIZE;
    struct arena_block *block = malloc(sizeof(*block) + block_size);
    if (!block) {
        fprintf(stderr, "tap: out of memory\n");
        abort();
    }
    block->used = 0;
    block->size = block_size;
    block->next = arena->head;
    arena->head = block;
    return block;
}

void *arena_alloc(struct arena *arena, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct arena_block *block = arena->head;
    if (!block || block->size - block->used < size)
        block = arena_grow(arena, size);
    void *p = block->data + block->used;
    block->used += size;
    arena->total += size;
    memset(p, 0, size);
    return p;
}

void *arena_realloc(struct arena *arena, void *old, size_t old_size, size_t new_size)
{
    void *p = arena_alloc(arena, new_size);
    if (old)
        memcpy(p, old, old_size < new_size ? old_size : new_size);
    return p;
}

char *arena_strndup(struct arena *arena, const char *s, size_t n)
{
    char *p = arena_alloc(arena, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(struct arena *arena, const char *s)
{
    return arena_strndup(arena, s, strlen(s));
}

char *arena_printf(struct arena *arena, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(arena, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
