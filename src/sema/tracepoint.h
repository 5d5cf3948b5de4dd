/* Tracepoint records as tracefs describes them (events/CATEGORY/NAME/format). */
#ifndef TAP_SEMA_TRACEPOINT_H
#define TAP_SEMA_TRACEPOINT_H

#include <stdio.h>

struct arena;

struct tp_field {
    const char *name;
    const char *type;            /* as the format file declares it: "const char *", "int" */
    const char *list_type;       /* as listings print it: "char const*", "string" */
    int offset, size, is_signed;
    int is_data_loc;             /* __data_loc char[]: a u32 locating a string in the record */
    int array_len;               /* char comm[16]: 16; -1 when not an array */
};

struct tp_format {
    const char *category, *name;
    struct tp_field *fields;     /* common_* fields included */
    int field_count;
};

/* NULL when the event does not exist (or tracefs cannot be mounted). */
struct tp_format *tracepoint_load_format(struct arena *arena, const char *category, const char *name);
const struct tp_field *tracepoint_field(const struct tp_format *format, const char *name);

/* Calls `visit` for every event matching "category:name" or "name" (fnmatch
 * wildcards), in name order; returns the number of matches, or a negative errno
 * when tracefs cannot be read (tracefs_unreadable(-result) says why). */
typedef void (*tracepoint_visit)(const char *category, const char *name, void *data);
int tracepoint_match(const char *pattern, tracepoint_visit visit, void *data);
const char *tracefs_unreadable(int error);

/* -l/-L 'kernel.trace("PATTERN")': one line per event, sorted; returns the exit status. */
int tracepoint_list(FILE *out, const char *pattern, int with_variables);

#endif
