/* process("GLOB"): a process path with glob(3) characters names every
 * regular ELF file it matches, each resolved as if the script had named it
 * (SystemTap's glob_executable and the probe points it derives); so does
 * .library("GLOB") among the libraries the program loads. */
#ifndef TAP_SEMA_PROCESS_GLOB_H
#define TAP_SEMA_PROCESS_GLOB_H

#include "sema/sema_internal.h"

/* Resolves `point` in the file `path`; returns the probes added. */
typedef int (*process_glob_resolve_fn)(struct sema *s, struct probe_point *point, const char *path, void *data);

/* Whether process(c) is a glob: a string holding *, ? or [. */
int process_glob_names_pattern(const struct probe_component *c);
int process_glob_is_pattern(const char *text);

/* Resolves the point in each file its process pattern matches, every file
 * being optional as SystemTap makes it; when none gives a probe and the
 * point is not optional, reports which files matched and why none served.
 * Returns the probes added. */
int process_glob_resolve(struct sema *s, struct probe_point *point, process_glob_resolve_fn resolve, void *data);

/* .library("GLOB") of `program`: resolves the point in each library the
 * program loads (its DT_NEEDED, theirs) that the pattern matches, by path
 * when it has a '/', else by file name; when none does, an absolute pattern
 * is expanded on the file system as process("GLOB") is. Every library is
 * optional; when none gives a probe, says which matched or what it loads. */
int library_glob_resolve(struct sema *s, struct probe_point *point, const char *program, const char *pattern,
                         process_glob_resolve_fn resolve, void *data);

#endif
