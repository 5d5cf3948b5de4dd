/* A binary's DWARF and symbol table where gdb, SystemTap and bpftrace find
 * them, through libdwfl's standard search (dwfl_standard_find_debuginfo):
 * the binary itself; /usr/lib/debug/.build-id/xx/rest.debug by its GNU build
 * id; its .gnu_debuglink beside it, in .debug/ or under /usr/lib/debug/ plus
 * its directory, with the CRC checked; then debuginfod when DEBUGINFOD_URLS
 * is set (libdw loads libdebuginfod, which keeps its own cache). A dwz
 * supplementary file (.gnu_debugaltlink) is found the same ways.
 * SYSTEMTAP_DEBUGINFO_PATH replaces the directories searched, in libdwfl's
 * syntax, as for SystemTap (default ":.debug:/usr/lib/debug"). */
#ifndef TAP_BASE_DEBUG_FILE_H
#define TAP_BASE_DEBUG_FILE_H

#include <elfutils/libdwfl.h>
#include <stdint.h>

/* libdwfl keeps pointers to callbacks and search_path: a debug_file
 * stays where it was begun until it ends. */
struct debug_file {
    Dwfl *dwfl;                  /* NULL: libdwfl could not read the binary */
    Dwfl_Module *module;
    Dwfl_Callbacks callbacks;
    char *search_path;           /* NULL: libdwfl's default */
};

/* Reports PATH to a libdwfl session of its own; nothing is searched yet.
 * Returns -1 when libdwfl cannot read it (df->module is NULL then). */
int debug_file_begin(struct debug_file *df, const char *path);

/* The DWARF (the binary's own, else its debug file's, with the dwz
 * supplementary file attached); NULL when there is none. *file names the
 * file holding it. Owned by df. */
Dwarf *debug_file_dwarf(struct debug_file *df, const char **file);

/* The ELF holding a full .symtab: the binary when it has one, else its
 * debug file; NULL when neither has one (a stripped binary keeps only
 * .dynsym). Owned by df. Loads no DWARF. */
Elf *debug_file_symtab(struct debug_file *df);

void debug_file_end(struct debug_file *df);

/* The file offset of a file address (a vaddr, as DWARF and symbols give it)
 * in an executable PT_LOAD of elf; -1 outside. */
int64_t debug_file_offset(Elf *elf, uint64_t address);

#endif
