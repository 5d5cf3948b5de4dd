/* process("GLOB"): glob(3) with no flags (relative patterns from the working
 * directory, never $PATH), the regular files kept, canonicalised and made
 * unique; each ELF one is resolved as its own point. Every such point is
 * optional, as SystemTap derives them: a pattern over a directory of
 * binaries means those that have the function, not all of them. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "sema/dwarf.h"
#include "sema/process_glob.h"

/* Past this many, a message names the count of the rest. */
#define NAMED_MAX 4

struct glob_files {
    const char **probed;         /* canonical paths, sorted, unique */
    int probed_count;
    const char **skipped;        /* why a match is not probed: "NAME is a directory" */
    int skipped_count;
};

/* An escaped character (\\*) is a glob still: glob(3) matches it as itself. */
int process_glob_names_pattern(const struct probe_component *c)
{
    return c->arg_kind == PROBE_ARG_STRING && process_glob_is_pattern(c->arg_string);
}

int process_glob_is_pattern(const char *text)
{
    return strpbrk(text, "*?[") != NULL;
}

/* NULL when the file is probed; else why not, naming it. */
static const char *why_skipped(struct arena *arena, const char *name)
{
    struct stat st;
    if (stat(name, &st) != 0)
        return arena_printf(arena, "%s: %s", name, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return arena_printf(arena, "%s is a directory", name);
    if (!S_ISREG(st.st_mode))
        return arena_printf(arena, "%s is not a regular file", name);
    unsigned char magic[SELFMAG];
    int fd = open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return arena_printf(arena, "%s: %s", name, strerror(errno));
    ssize_t n = read(fd, magic, SELFMAG);
    close(fd);
    if (n != SELFMAG || memcmp(magic, ELFMAG, SELFMAG) != 0)
        return arena_printf(arena, "%s is not an ELF file", name);
    return NULL;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Symlinks to one library (libc.so.6 -> libc-2.36.so) are one file. */
static void sort_unique(struct glob_files *files)
{
    qsort(files->probed, (size_t)files->probed_count, sizeof(*files->probed), compare_paths);
    int kept = 0;
    for (int i = 0; i < files->probed_count; i++)
        if (!kept || strcmp(files->probed[kept - 1], files->probed[i]) != 0)
            files->probed[kept++] = files->probed[i];
    files->probed_count = kept;
}

static int find_files(struct arena *arena, const char *pattern, struct glob_files *out)
{
    memset(out, 0, sizeof(*out));
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOMATCH)
        return 0;
    if (rc != 0)
        return -1;
    out->probed = ARENA_ARRAY(arena, const char *, g.gl_pathc);
    out->skipped = ARENA_ARRAY(arena, const char *, g.gl_pathc);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *why = why_skipped(arena, g.gl_pathv[i]);
        char *canonical = why ? NULL : realpath(g.gl_pathv[i], NULL);
        if (canonical)
            out->probed[out->probed_count++] = arena_strdup(arena, canonical);
        else
            out->skipped[out->skipped_count++] = why ? why : arena_printf(arena, "%s: %s", g.gl_pathv[i],
                                                                          strerror(errno));
        free(canonical);
    }
    globfree(&g);
    sort_unique(out);
    return 0;
}

static void name_some(struct strbuf *sb, const char *const *items, int count)
{
    for (int i = 0; i < count && i < NAMED_MAX; i++)
        strbuf_printf(sb, "%s%s", i ? ", " : "", items[i]);
    if (count > NAMED_MAX)
        strbuf_printf(sb, " and %d more", count - NAMED_MAX);
}

/* Which files the pattern matched and why none gave a probe point. */
static void report_no_probe(struct sema *s, struct probe_point *point, const struct glob_files *files)
{
    const char *pattern = point->components->arg_string;
    struct strbuf sb;
    strbuf_init(&sb);
    if (files->probed_count) {
        strbuf_printf(&sb, "no match in the %d ELF file%s \"%s\" matches (", files->probed_count,
                      files->probed_count == 1 ? "" : "s", pattern);
        name_some(&sb, files->probed, files->probed_count);
        strbuf_puts(&sb, ")");
    } else {
        strbuf_printf(&sb, "no %sfile matches \"%s\"", files->skipped_count ? "ELF " : "", pattern);
    }
    if (files->skipped_count) {
        strbuf_puts(&sb, files->probed_count ? "; not probed: " : ": ");
        name_some(&sb, files->skipped, files->skipped_count);
    }
    diag_error(s->diags, point->components->span, "while resolving probe point: %s", sb.data);
    strbuf_free(&sb);
}

/* The point in each file, every one optional as SystemTap derives them;
 * *report: none gave a probe, the point is not optional and no error was
 * said about it, so the caller says why. */
static int resolve_each(struct sema *s, struct probe_point *point, const struct glob_files *files,
                        process_glob_resolve_fn resolve, void *data, int *report)
{
    struct probe_point *each = ARENA_NEW(s->arena, struct probe_point);
    *each = *point;
    each->optional = 1;
    int errors = s->diags->error_count;
    int added = 0;
    for (int i = 0; i < files->probed_count; i++)
        added += resolve(s, each, files->probed[i], data);
    *report = !added && !point->optional && s->diags->error_count == errors;
    return added;
}

int process_glob_resolve(struct sema *s, struct probe_point *point, process_glob_resolve_fn resolve, void *data)
{
    struct glob_files files;
    if (find_files(s->arena, point->components->arg_string, &files) < 0)
        return sema_point_error(s, point, point->components->span,
                                "while resolving probe point: cannot expand \"%s\": out of memory",
                                point->components->arg_string);
    int report;
    int added = resolve_each(s, point, &files, resolve, data, &report);
    if (report)
        report_no_probe(s, point, &files);
    return added;
}

/* library("GLOB") matches the libraries the program loads: by path when the
 * pattern has a '/', else by file name. */
static int library_matches(const char *pattern, const char *path)
{
    const char *slash = strrchr(path, '/');
    return fnmatch(pattern, strchr(pattern, '/') || !slash ? path : slash + 1, 0) == 0;
}

int library_glob_resolve(struct sema *s, struct probe_point *point, const char *program, const char *pattern,
                         process_glob_resolve_fn resolve, void *data)
{
    const char *needed[64];
    int needed_count = dwarf_needed_libraries(s->arena, program, needed, 64);
    struct glob_files files = {.probed = ARENA_ARRAY(s->arena, const char *, 64)};
    for (int i = 0; i < needed_count; i++)
        if (library_matches(pattern, needed[i]))
            files.probed[files.probed_count++] = needed[i];
    /* none of those: an absolute pattern names files, as SystemTap's last resort */
    if (!files.probed_count && pattern[0] == '/' && find_files(s->arena, pattern, &files) < 0)
        return sema_point_error(s, point, point->components->span,
                                "while resolving probe point: cannot expand \"%s\": out of memory", pattern);
    int report;
    int added = resolve_each(s, point, &files, resolve, data, &report);
    if (!report)
        return added;
    struct strbuf sb;
    strbuf_init(&sb);
    if (files.probed_count) {
        strbuf_printf(&sb, "no match in the %d librar%s library(\"%s\") matches (", files.probed_count,
                      files.probed_count == 1 ? "y" : "ies", pattern);
        name_some(&sb, files.probed, files.probed_count);
        strbuf_puts(&sb, ")");
    } else {
        strbuf_printf(&sb, "no library of %s matches \"%s\"", program, pattern);
        if (needed_count) {
            strbuf_puts(&sb, " (it loads ");
            name_some(&sb, needed, needed_count);
            strbuf_puts(&sb, ")");
        }
    }
    diag_error(s->diags, point->components->span, "while resolving probe point: %s", sb.data);
    strbuf_free(&sb);
    return 0;
}
