/* Finding an ELF section by name (libelf), for the readers of notes, PLT
 * stubs and DWARF tables. */
#ifndef TAP_BASE_ELF_SECTIONS_H
#define TAP_BASE_ELF_SECTIONS_H

#include <gelf.h>

/* The first section called NAME, its header in *shdr; NULL when none. */
Elf_Scn *elf_section_named(Elf *elf, const char *name, GElf_Shdr *shdr);

#endif
