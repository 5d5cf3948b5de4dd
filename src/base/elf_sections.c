#include "base/elf_sections.h"

#include <string.h>

Elf_Scn *elf_section_named(Elf *elf, const char *name, GElf_Shdr *shdr)
{
    size_t names;
    if (elf_getshdrstrndx(elf, &names) != 0)
        return NULL;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        const char *section = gelf_getshdr(scn, shdr) ? elf_strptr(elf, names, shdr->sh_name) : NULL;
        if (section && strcmp(section, name) == 0)
            return scn;
    }
    return NULL;
}
