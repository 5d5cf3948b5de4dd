#include "base/grow.h"

#include <stdlib.h>

void *grow_for_one(void *items, size_t *capacity, size_t count, size_t size, size_t first)
{
    if (count < *capacity)
        return items;
    size_t wanted = *capacity ? 2 * *capacity : first;
    void *grown = realloc(items, wanted * size);
    if (grown)
        *capacity = wanted;
    return grown;
}
