/* The compile cache: BPF objects keyed by the LLVM module they were built
 * from, so a script run again skips LLVM's passes and backend. The key
 * hashes the unoptimised module's bitcode, the BPF cpu and LLVM's version on top of tap's
 * own build id (disk_cache_key_begin): an object is a function of the four. */
#ifndef TAP_CODEGEN_OBJECT_CACHE_H
#define TAP_CODEGEN_OBJECT_CACHE_H

#include <llvm-c/Core.h>

#include "base/sha256.h"

struct object_cache_key {
    char name[2 * SHA256_SIZE + 8];   /* the entry's file name: "<hex>.bpf.o" */
};

/* 0, or -1 when this module cannot be keyed (tap has no build id). cpu is
 * the BPF instruction set the object is compiled for ("v3"). */
int object_cache_key(LLVMModuleRef module, const char *cpu, struct object_cache_key *key);

#endif
