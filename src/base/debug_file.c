/* Finding a binary's separate debug information: libdwfl's standard
 * callbacks do the search (build id, debuglink with its CRC, debuginfod,
 * dwz supplementary files), so tap looks where gdb and SystemTap look and
 * honours the same settings. See debug_file.h. */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/debug_file.h"

#define DEFAULT_SEARCH_PATH ":.debug:/usr/lib/debug"

/* The CRC-32 of .gnu_debuglink (the zlib/IEEE one). */
static uint32_t file_crc32(int fd)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t n = 0; n < 256; n++) {
            uint32_t c = n;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[n] = c;
        }
    uint32_t crc = 0xffffffffu;
    unsigned char buffer[65536];
    ssize_t got;
    off_t at = 0;
    while ((got = pread(fd, buffer, sizeof(buffer), at)) > 0) {
        for (ssize_t i = 0; i < got; i++)
            crc = table[(crc ^ buffer[i]) & 0xff] ^ (crc >> 8);
        at += got;
    }
    return crc ^ 0xffffffffu;
}

/* CANDIDATE opened when it is not the binary itself and, when asked, its
 * CRC matches; -1 otherwise. */
static int open_candidate(const char *candidate, const struct stat *binary, uint32_t crc, int check_crc)
{
    struct stat st;
    int fd = open(candidate, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (st.st_dev == binary->st_dev && st.st_ino == binary->st_ino) ||
        (check_crc && file_crc32(fd) != crc)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Tries CANDIDATE; on success *found is its name. */
static int try_candidate(const char *candidate, const struct stat *binary, uint32_t crc, int check_crc, char **found)
{
    int fd = open_candidate(candidate, binary, crc, check_crc);
    if (fd >= 0)
        *found = strdup(candidate);
    return fd;
}

/* The debuglink (or dwz file) NAME searched as dwfl_standard_find_debuginfo
 * searches it: each entry of the path is the binary's directory (empty), a
 * directory under it (relative) or a root holding the binary's directory
 * (absolute); '-' before an entry skips the CRC check. An absolute NAME (a
 * dwz file) is tried as it is; a relative one also beside the debug file. */
static int find_by_name(struct debug_file *df, const char *binary, const char *name, uint32_t crc, char **found)
{
    struct stat st;
    char dir[4096], candidate[3 * 4096];
    if (!binary || !name || stat(binary, &st) != 0 || snprintf(dir, sizeof(dir), "%s", binary) >= (int)sizeof(dir))
        return -1;
    if (name[0] == '/')
        return try_candidate(name, &st, crc, crc != 0, found);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    char *path = strdup(df->search_path ? df->search_path : DEFAULT_SEARCH_PATH);
    int fd = -1;
    for (char *entry = path, *next; fd < 0 && entry; entry = next) {   /* an empty entry counts */
        next = strchr(entry, ':');
        if (next)
            *next++ = 0;
        int check_crc = crc != 0 && *entry != '-';
        entry += *entry == '-' || *entry == '+';
        if (!*entry)
            snprintf(candidate, sizeof(candidate), "%s/%s", dir, name);
        else if (*entry == '/')
            snprintf(candidate, sizeof(candidate), "%s%s/%s", entry, dir, name);
        else
            snprintf(candidate, sizeof(candidate), "%s/%s/%s", dir, entry, name);
        fd = try_candidate(candidate, &st, crc, check_crc, found);
    }
    free(path);
    const char *debug_name = NULL;
    dwfl_module_info(df->module, NULL, NULL, NULL, NULL, NULL, NULL, &debug_name);
    if (fd < 0 && debug_name && snprintf(dir, sizeof(dir), "%s", debug_name) < (int)sizeof(dir) &&
        (slash = strrchr(dir, '/'))) {
        *slash = 0;
        snprintf(candidate, sizeof(candidate), "%s/%s", dir, name);
        fd = try_candidate(candidate, &st, crc, crc != 0, found);
    }
    return fd;
}

/* libdwfl's find_debuginfo callback. dwfl_standard_find_debuginfo ends
 * with debuginfod, and libdw 0.188 loads libdebuginfod and libcurl (40 ms
 * and more) even to learn that DEBUGINFOD_URLS is unset: without it, the
 * same search by build id, then by name, stops there. */
static int find_debuginfo(Dwfl_Module *module, void **userdata, const char *name, Dwarf_Addr base,
                          const char *file_name, const char *debuglink, GElf_Word crc, char **found)
{
    const char *urls = getenv("DEBUGINFOD_URLS");
    if (urls && *urls) {
        int fd = dwfl_standard_find_debuginfo(module, userdata, name, base, file_name, debuglink, crc, found);
        char link[64], target[4096];
        ssize_t length;
        /* libdw 0.188 leaves the name of a debuginfod download unset: it is
         * the file in the client's cache (for -v and the index cache's key) */
        if (fd >= 0 && !*found && snprintf(link, sizeof(link), "/proc/self/fd/%d", fd) > 0 &&
            (length = readlink(link, target, sizeof(target) - 1)) > 0) {
            target[length] = 0;
            *found = strdup(target);
        }
        return fd;
    }
    int fd = dwfl_build_id_find_debuginfo(module, userdata, name, base, file_name, debuglink, crc, found);
    return fd >= 0 ? fd : find_by_name(*userdata, file_name, debuglink, crc, found);
}

int debug_file_begin(struct debug_file *df, const char *path)
{
    memset(df, 0, sizeof(*df));
    const char *configured = getenv("SYSTEMTAP_DEBUGINFO_PATH");
    if (configured && *configured)
        df->search_path = strdup(configured);
    df->callbacks = (Dwfl_Callbacks){.find_elf = dwfl_build_id_find_elf,
                                     .find_debuginfo = find_debuginfo,
                                     .section_address = dwfl_offline_section_address,
                                     .debuginfo_path = &df->search_path};
    df->dwfl = dwfl_begin(&df->callbacks);
    if (!df->dwfl)
        return -1;
    dwfl_report_begin(df->dwfl);
    df->module = dwfl_report_offline(df->dwfl, path, path, -1);
    dwfl_report_end(df->dwfl, NULL, NULL);
    void **userdata;
    if (!df->module || !dwfl_module_info(df->module, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
        return -1;
    *userdata = df;   /* find_debuginfo's */
    return 0;
}

Dwarf *debug_file_dwarf(struct debug_file *df, const char **file)
{
    Dwarf_Addr bias;   /* DWARF addresses are used as written: the file's vaddrs */
    Dwarf *dwarf = df->module ? dwfl_module_getdwarf(df->module, &bias) : NULL;
    const char *main_file = NULL, *debug_file = NULL;
    if (dwarf)
        dwfl_module_info(df->module, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
    *file = debug_file ? debug_file : main_file;
    return dwarf;
}

static int has_symtab(Elf *elf)
{
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_SYMTAB)
            return 1;
    }
    return 0;
}

Elf *debug_file_symtab(struct debug_file *df)
{
    GElf_Sym sym;
    GElf_Word shndx;
    GElf_Addr address, bias;
    Elf *elf = NULL;
    /* the file libdwfl took its table from: .symtab first, the debug file's
     * when the binary has none, .dynsym last */
    if (!df->module || dwfl_module_getsymtab(df->module) <= 1 ||
        !dwfl_module_getsym_info(df->module, 1, &sym, &address, &shndx, &elf, &bias))
        return NULL;
    return elf && has_symtab(elf) ? elf : NULL;
}

void debug_file_end(struct debug_file *df)
{
    if (df->dwfl)
        dwfl_end(df->dwfl);
    free(df->search_path);
    memset(df, 0, sizeof(*df));
}

int64_t debug_file_offset(Elf *elf, uint64_t address)
{
    size_t count;
    if (elf_getphdrnum(elf, &count) < 0)
        return -1;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr mem, *p = gelf_getphdr(elf, (int)i, &mem);
        if (p && p->p_type == PT_LOAD && (p->p_flags & PF_X) && address >= p->p_vaddr &&
            address < p->p_vaddr + p->p_memsz)
            return (int64_t)(address - p->p_vaddr + p->p_offset);
    }
    return -1;
}
