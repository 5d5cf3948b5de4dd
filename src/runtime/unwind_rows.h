/* DWARF CFI compiled into the rows BPF's stack walk reads (program.h). */
#ifndef TAP_RUNTIME_UNWIND_ROWS_H
#define TAP_RUNTIME_UNWIND_ROWS_H

#include <stddef.h>

#include "program/program.h"

/* The rows of an x86-64 ELF file, sorted by file offset (malloc'd); -1
 * when it has no CFI we can read. */
int unwind_rows_build(const char *path, struct unwind_row **rows, size_t *count);

#endif
