#ifndef TAP_SEMA_HEADER_TYPES_H
#define TAP_SEMA_HEADER_TYPES_H
#include <stddef.h>
#include "sema/dwarf.h"

/* The types declared by C headers given as SystemTap spells them in @cast's
 * module ("<stdio.h>", "</usr/include/stdio.h><sys/stat.h>"), as a module
 * whose DWARF holds them; NULL with a message in error. */
struct dwarf_module *header_module_open(struct dwarf_modules *modules, const char *headers, char *error, size_t size);

#endif
