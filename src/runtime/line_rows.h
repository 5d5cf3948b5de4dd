/* A file's DWARF line table compiled into the rows BPF's usymfileline()
 * and its kin look up (program.h). */
#ifndef TAP_RUNTIME_LINE_ROWS_H
#define TAP_RUNTIME_LINE_ROWS_H

#include <stddef.h>

#include "program/program.h"

struct line_table {
    struct line_map_row *rows;   /* sorted by offset; source: an index in sources[] */
    size_t count;
    char **sources;              /* the paths the rows name, each once */
    size_t source_count;
};

/* The table of an ELF file (its own DWARF or its debug file's, as
 * base/debug_file.h finds it); -1 when it has no line table. */
int line_rows_build(const char *path, struct line_table *table);
void line_table_free(struct line_table *table);

#endif
