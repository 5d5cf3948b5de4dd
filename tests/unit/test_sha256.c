/* SHA-256 against the FIPS 180-4 examples and a long input fed in uneven
 * pieces (the block boundary and the length padding). */
#include <string.h>

#include "base/sha256.h"
#include "check.h"

static void hex_of(const void *data, size_t size, char out[2 * SHA256_SIZE + 1])
{
    struct sha256 h;
    unsigned char digest[SHA256_SIZE];
    sha256_init(&h);
    sha256_update(&h, data, size);
    sha256_final(&h, digest);
    sha256_hex(digest, out);
}

int main(void)
{
    char hex[2 * SHA256_SIZE + 1];
    hex_of("", 0, hex);
    CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";   /* 56 bytes */
    hex_of(two_blocks, strlen(two_blocks), hex);
    CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

    /* one million 'a', in pieces of 1..97 bytes */
    static char million[1000000];
    memset(million, 'a', sizeof(million));
    struct sha256 h;
    sha256_init(&h);
    for (size_t done = 0, piece = 1; done < sizeof(million); piece = piece % 97 + 1) {
        size_t take = sizeof(million) - done < piece ? sizeof(million) - done : piece;
        sha256_update(&h, million + done, take);
        done += take;
    }
    unsigned char digest[SHA256_SIZE];
    sha256_final(&h, digest);
    sha256_hex(digest, hex);
    CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    return check_summary();
}
