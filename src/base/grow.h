/* Arrays that double as they fill, for the few places whose size is not
 * known up front and whose memory outlives an arena's use. */
#ifndef TAP_BASE_GROW_H
#define TAP_BASE_GROW_H

#include <stddef.h>

/* `items` (of `count` items of `size` bytes) with room for one more:
 * itself while there is room, else moved to twice *capacity (or `first`).
 * NULL when memory ran out; `items` and *capacity are then unchanged. */
void *grow_for_one(void *items, size_t *capacity, size_t count, size_t size, size_t first);

#endif
