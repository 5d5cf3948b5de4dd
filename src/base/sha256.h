/* SHA-256 (FIPS 180-4): the compile cache's keys and its entries' checksums.
 * A cryptographic hash, so that no two different programs share a key. */
#ifndef TAP_BASE_SHA256_H
#define TAP_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32

struct sha256 {
    uint32_t state[8];
    uint64_t length;            /* bytes hashed so far */
    unsigned char block[64];
    size_t used;                /* bytes waiting in block */
};

void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t size);
void sha256_final(struct sha256 *h, unsigned char digest[SHA256_SIZE]);
/* digest as 64 lowercase hex digits and a NUL */
void sha256_hex(const unsigned char digest[SHA256_SIZE], char out[2 * SHA256_SIZE + 1]);

#endif
