/* The script location of a BPF instruction, from the object's .BTF.ext line
 * info: LLVM writes a record (instruction offset, file, line, column) where
 * the source location changes, so the record at or before an instruction
 * is where it came from. What a verifier rejection points at. */
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <string.h>

#include "runtime/session.h"

#define BTF_MAGIC 0xeB9F

struct bytes { const unsigned char *data; size_t size; };

static uint32_t get32(struct bytes b, size_t offset)
{
    uint32_t v = 0;
    if (offset + 4 <= b.size)
        memcpy(&v, b.data + offset, 4);
    return v;
}

static struct bytes elf_section(Elf *elf, const char *name)
{
    size_t names;
    Elf_Scn *scn = NULL;
    if (elf_getshdrstrndx(elf, &names) != 0)
        return (struct bytes){ NULL, 0 };
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr shdr;
        const char *n = gelf_getshdr(scn, &shdr) ? elf_strptr(elf, names, shdr.sh_name) : NULL;
        Elf_Data *data = n && strcmp(n, name) == 0 ? elf_getdata(scn, NULL) : NULL;
        if (data)
            return (struct bytes){ data->d_buf, data->d_size };
    }
    return (struct bytes){ NULL, 0 };
}

/* A NUL-terminated string at offset of the .BTF string section, or NULL. */
static const char *btf_string(struct bytes btf, uint32_t offset)
{
    uint32_t hdr_len = get32(btf, 4), str_off = get32(btf, 16), str_len = get32(btf, 20);
    size_t start = (size_t)hdr_len + str_off;
    if (offset >= str_len || start + str_len > btf.size)
        return NULL;
    const char *s = (const char *)btf.data + start + offset;
    return memchr(s, '\0', str_len - offset) ? s : NULL;
}

static int find_line(struct bytes btf, struct bytes ext, const char *section, uint32_t insn_off,
                     struct btf_line *out)
{
    uint32_t hdr_len = get32(ext, 4), line_off = get32(ext, 16), line_len = get32(ext, 20);
    size_t pos = (size_t)hdr_len + line_off, end = pos + line_len;
    if (end > ext.size || line_len < 4)
        return -1;
    uint32_t rec_size = get32(ext, pos);
    pos += 4;
    if (rec_size < 16)
        return -1;
    while (pos + 8 <= end) {
        const char *name = btf_string(btf, get32(ext, pos));
        uint32_t count = get32(ext, pos + 4);
        pos += 8;
        if ((size_t)count * rec_size > end - pos)
            return -1;
        int found = -1;
        for (uint32_t i = 0; name && strcmp(name, section) == 0 && i < count; i++) {
            size_t rec = pos + (size_t)i * rec_size;
            if (get32(ext, rec) > insn_off)
                break;
            const char *file = btf_string(btf, get32(ext, rec + 4)), *text = btf_string(btf, get32(ext, rec + 8));
            uint32_t line_col = get32(ext, rec + 12);
            if (file) {
                *out = (struct btf_line){ file, text ? text : "", line_col >> 10, line_col & 0x3ff };
                found = 0;
            }
        }
        if (name && strcmp(name, section) == 0)
            return found;
        pos += (size_t)count * rec_size;
    }
    return -1;
}

int btf_line_of_insn(const void *object, size_t size, const char *section, int insn, struct btf_line *out)
{
    if (insn < 0 || elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    Elf *elf = elf_memory((char *)object, size);
    if (!elf)
        return -1;
    struct bytes btf = elf_section(elf, ".BTF"), ext = elf_section(elf, ".BTF.ext");
    struct bytes code = elf_section(elf, section);
    int status = -1;
    if ((size_t)insn < code.size / 8 && btf.data && ext.data && get32(btf, 0) % 65536 == BTF_MAGIC &&
        get32(ext, 0) % 65536 == BTF_MAGIC)
        status = find_line(btf, ext, section, (uint32_t)insn * 8, out);
    elf_end(elf);
    return status;
}
