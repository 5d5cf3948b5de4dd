/* The running kernel's build id (kernel_build_id.h). */
#include "base/kernel_build_id.h"

#include <stdio.h>
#include <string.h>

#define NT_GNU_BUILD_ID_TYPE 3

/* /sys/kernel/notes is a run of ELF notes. */
size_t kernel_build_id_bytes(unsigned char *out, size_t size)
{
    unsigned char notes[4096];
    FILE *f = fopen("/sys/kernel/notes", "rb");
    size_t n = f ? fread(notes, 1, sizeof(notes), f) : 0;
    if (f)
        fclose(f);
    for (size_t at = 0; at + 12 <= n;) {
        unsigned name_size, desc_size, type;
        memcpy(&name_size, notes + at, 4);
        memcpy(&desc_size, notes + at + 4, 4);
        memcpy(&type, notes + at + 8, 4);
        size_t name = at + 12, desc = name + ((name_size + 3) & ~3u);
        if (desc + desc_size > n)
            break;
        if (type == NT_GNU_BUILD_ID_TYPE && name_size == 4 && memcmp(notes + name, "GNU", 4) == 0 &&
            desc_size <= size) {
            memcpy(out, notes + desc, desc_size);
            return desc_size;
        }
        at = desc + ((desc_size + 3) & ~3u);
    }
    return 0;
}
