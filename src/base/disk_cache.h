/* tap's cache directory: named entries (BPF objects, function indexes),
 * each with a header and a SHA-256 checksum. Entries are renamed into place,
 * so concurrent runs never see half of one; a damaged one is a miss. The
 * directory and its entries must belong to the user running tap and be
 * writable by nobody else: what is read back decides what tap loads into
 * the kernel and where it puts uprobes. */
#ifndef TAP_BASE_DISK_CACHE_H
#define TAP_BASE_DISK_CACHE_H

#include <stddef.h>

#include "base/sha256.h"

/* Starts a key: the entry format and tap's own GNU build id, so a rebuilt
 * tap never reads what another one wrote. Returns -1 without a build id. */
int disk_cache_key_begin(struct sha256 *key);

/* The entry NAME, malloc'd. Returns 0, or -1 on a miss (absent, damaged,
 * not ours to trust). A hit marks the entry as used, for trimming. */
int disk_cache_load(const char *dir, const char *name, void **data, size_t *size);

/* Stores the entry (creating the directory, private, when missing), then
 * trims the cache to its limit, oldest use first. A failure to store is
 * not an error: the next run does the work again. */
void disk_cache_store(const char *dir, const char *name, const void *data, size_t size);

#endif
