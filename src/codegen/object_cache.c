/* Keys of the compile cache (object_cache.h); the entries themselves are
 * base/disk_cache.c's. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/BitWriter.h>

#include "base/disk_cache.h"
#include "codegen/object_cache.h"

int object_cache_key(LLVMModuleRef module, const char *cpu, struct object_cache_key *key)
{
    struct sha256 hash;
    if (disk_cache_key_begin(&hash) != 0)
        return -1;
    unsigned version[3];
    LLVMGetVersion(&version[0], &version[1], &version[2]);
    sha256_update(&hash, version, sizeof(version));
    sha256_update(&hash, cpu, strlen(cpu) + 1);
    LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(module);
    sha256_update(&hash, LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode));
    LLVMDisposeMemoryBuffer(bitcode);
    unsigned char digest[SHA256_SIZE];
    char hex[2 * SHA256_SIZE + 1];
    sha256_final(&hash, digest);
    sha256_hex(digest, hex);
    snprintf(key->name, sizeof(key->name), "%s.bpf.o", hex);
    return 0;
}
