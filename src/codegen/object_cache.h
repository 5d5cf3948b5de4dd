/* The compile cache: BPF objects keyed by the LLVM module they were built
 * from, so a script run again skips LLVM's passes and backend. The key
 * hashes the unoptimised module's bitcode, LLVM's version and tap's own
 * build id: an object is a pure function of the three. */
#ifndef TAP_CODEGEN_OBJECT_CACHE_H
#define TAP_CODEGEN_OBJECT_CACHE_H

#include <stddef.h>

#include <llvm-c/Core.h>

#include "base/sha256.h"

struct object_cache_key {
    char hex[2 * SHA256_SIZE + 1];
};

/* 0, or -1 when this module cannot be keyed (no build id of tap's own). */
int object_cache_key(LLVMModuleRef module, struct object_cache_key *key);

/* The object stored under key, malloc'd, after checking its checksum.
 * Returns 0, or -1 on a miss (absent, damaged or not ours to trust). */
int object_cache_load(const char *dir, const struct object_cache_key *key, void **object, size_t *size);

/* Stores the object, atomically (a reader sees the whole entry or none);
 * then trims the cache to its size limit, oldest use first. Failure to
 * store is not an error: the next run compiles again. */
void object_cache_store(const char *dir, const struct object_cache_key *key, const void *object, size_t size);

/* The entry's file name inside dir, e.g. "<64 hex digits>.bpf.o". */
void object_cache_entry_name(const struct object_cache_key *key, char *out, size_t size);

#endif
