/* Symbol lookup for backtraces (runtime/symbols.c): this test's own
 * functions by address (through /proc/self/maps), by build-id + file
 * offset, a kernel symbol from /proc/kallsyms, and the frame lines. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "program/program_io.h"
#include "runtime/symbols.h"

__attribute__((noinline)) int symbols_test_target(int x)
{
    return x * 7 + 1;
}

static void check_frame_lines(void)
{
    struct strbuf out;
    strbuf_init(&out);
    struct symbol_hit hit = {"add", 4, 0x14, "/home/me/st/x", 0, 0x1139};
    symbols_format_frame(&out, 0x55d332a6d139, &hit);
    struct symbol_hit file_only = {NULL, 0x2724a, 0, "/lib/libc.so.6", 1, 0x2724a};
    symbols_format_frame(&out, 0x7f0000002724a, &file_only);
    symbols_format_frame(&out, 0x1234, NULL);
    symbols_format_inlined(&out, 0x55d332a6d139, "helper", "/home/me/st/x");
    CHECK_STR(out.data, " 0x55d332a6d139 : add+0x4/0x14 [/home/me/st/x]\n"
                        " 0x7f0000002724a [/lib/libc.so.6+0x2724a]\n"
                        " 0x1234\n"
                        " 0x55d332a6d139 : helper (inlined) [/home/me/st/x]\n");
    strbuf_free(&out);
}

static void check_own_function(struct symbols *symbols)
{
    uint64_t address = (uint64_t)(uintptr_t)&symbols_test_target;
    struct symbol_hit hit;
    CHECK(symbols_find_in_process(symbols, getpid(), address + 3, &hit) == 0);
    CHECK_STR(hit.name, "symbols_test_target");
    CHECK(hit.offset == 3);
    CHECK(hit.size > 3);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    self[n > 0 ? n : 0] = 0;
    CHECK_STR(hit.module, self);

    /* the same function by build-id and file offset, as BPF reports it */
    char hex[128];
    unsigned char id[20] = {0};
    elf_build_id(self, hex, sizeof(hex));
    CHECK(strlen(hex) == 40);
    for (int i = 0; i < 20 && hex[0]; i++)
        sscanf(hex + 2 * i, "%2hhx", &id[i]);
    struct symbol_hit by_id;
    uint64_t file_offset = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    while (maps && fgets(line, sizeof(line), maps)) {
        uint64_t start, end, offset;
        if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64, &start, &end, &offset) == 3 && address >= start &&
            address < end)
            file_offset = address - start + offset;
    }
    if (maps)
        fclose(maps);
    CHECK(symbols_find_build_id(symbols, id, sizeof(id), file_offset + 5, &by_id) == 0);
    CHECK_STR(by_id.name, "symbols_test_target");
    CHECK(by_id.offset == 5);
    unsigned char unknown[20] = {1, 2, 3};
    CHECK(symbols_find_build_id(symbols, unknown, sizeof(unknown), file_offset, &by_id) < 0);
}

/* A text symbol read straight from /proc/kallsyms, found again by address. */
static void check_kernel(struct symbols *symbols)
{
    FILE *f = fopen("/proc/kallsyms", "r");
    char line[512], name[256] = "", type = 0;
    uint64_t address = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "%" SCNx64 " %c %255s", &address, &type, name) == 3 && (type == 'T' || type == 't') &&
            strcmp(name, "vfs_read") == 0)
            break;
    if (f)
        fclose(f);
    if (strcmp(name, "vfs_read") != 0 || !address) {
        printf("skipped: no vfs_read in /proc/kallsyms\n");
        return;
    }
    struct symbol_hit hit;
    CHECK(symbols_find_kernel(symbols, address + 0x10, &hit) == 0);
    CHECK_STR(hit.name, "vfs_read");
    CHECK(hit.offset == 0x10);
    CHECK_STR(hit.module, "kernel");
    CHECK(symbols_find_kernel(symbols, 16, &hit) < 0);
}

int main(void)
{
    struct symbols *symbols = symbols_new();
    check_frame_lines();
    check_own_function(symbols);
    check_kernel(symbols);
    symbols_free(symbols);
    return check_summary();
}
