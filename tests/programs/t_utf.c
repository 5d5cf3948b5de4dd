/* UTF-16 and UTF-32 strings and byte buffers for SystemTap's string readers
 * (string_utf_*, string_buffer_quoted*): non-ASCII characters of 2, 3 and 4
 * UTF-8 bytes, a surrogate pair, invalid units, a string longer than
 * MAXSTRINGLEN once converted, a buffer with NULs, quotes and non-printables,
 * and at the end of a page followed by an unreadable one: a UTF-16 string
 * whose terminator is the page's last unit, one that runs off it, one whose
 * last readable unit is a high surrogate.
 * For the kernel_* forms the program names itself (its comm, kernel memory
 * the probe can reach) with bytes that read as UTF-16, UTF-32 or a buffer. */
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <uchar.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa))

NOIPA int utf16(const char16_t *good, const char16_t *lone_high, const char16_t *lone_low)
{
    return good[0] + lone_high[0] + lone_low[0];
}

NOIPA int utf32(const char32_t *good, const char32_t *surrogate, const char32_t *too_big)
{
    return (int)(good[0] + surrogate[0] + too_big[0]);
}

NOIPA int utf_long(const char16_t *s16, const char32_t *s32)
{
    return s16[0] + (int)s32[0];
}

NOIPA int buffer(const unsigned char *bytes, int len)
{
    return bytes[0] + len;
}

NOIPA int edge(const char16_t *ends, const char16_t *runs_off, const char16_t *high_last)
{
    return ends[0] + runs_off[0] + high_last[0];
}

NOIPA int named(int which)
{
    return which;
}

/* The end of a readable page that an unreadable one follows. */
static char16_t *page_end(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + page, page, PROT_NONE) != 0)
        return NULL;
    return (char16_t *)(pages + page);
}

int main(void)
{
    /* é (2 bytes), € (3), U+1F600 (4: the pair D83D DE00), a U+FFFF */
    static const char16_t good16[] = u"h\u00e9\u20ac\U0001F600!\uFFFF";
    /* a high surrogate followed by a letter, a low one alone */
    static const char16_t lone_high[] = {'a', 0xD800, 'b', 0};
    static const char16_t lone_low[] = {'c', 0xDC00, 0};
    static const char32_t good32[] = U"h\u00e9\u20ac\U0001F600\U0010FFFF";
    static const char32_t surrogate32[] = {'x', 0xDFFF, 0};
    static const char32_t too_big32[] = {'y', 0x110000, 0};
    /* 200 x U+20AC: 600 bytes of UTF-8, more than a string holds */
    static char16_t long16[201];
    static char32_t long32[201];
    for (int i = 0; i < 200; i++)
        long16[i] = long32[i] = 0x20AC;
    static const unsigned char bytes[] = "a\"b\\c\n\0" "1\x7f\xc3\xa9\xff\x01z";
    int sum = utf16(good16, lone_high, lone_low) + utf32(good32, surrogate32, too_big32);
    sum += utf_long(long16, long32) + buffer(bytes, (int)sizeof(bytes) - 1);
    char16_t *ends = page_end(), *runs_off = page_end(), *high_last = page_end();
    if (!ends || !runs_off || !high_last)
        return 1;
    memcpy(ends - 3, u"ok", 3 * sizeof(char16_t));        /* its NUL is the page's last unit */
    memcpy(runs_off - 2, u"zz", 2 * sizeof(char16_t));    /* no NUL before the page ends */
    high_last[-2] = 'w';                                  /* then a high surrogate, its pair unreadable */
    high_last[-1] = 0xD83D;
    sum += edge(ends - 3, runs_off - 2, high_last - 2);
    /* comm: U+20AC U+4E2D U+1F601 in UTF-16LE (no zero byte before the end) */
    prctl(PR_SET_NAME, "\xac\x20\x2d\x4e\x3d\xd8\x01\xde");
    sum += named(16);
    /* comm: U+1F601 in UTF-32LE, its last byte the comm's NUL padding */
    prctl(PR_SET_NAME, "\x01\xf6\x01");
    sum += named(32);
    return sum == 0;
}
