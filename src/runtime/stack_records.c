/* print_ubacktrace(), print_ustack(), print_backtrace(), print_stack():
 * RECORD_USTACK and RECORD_KSTACK rendered as SystemTap prints them, one
 * frame a line; print_ustack_folded()/print_stack_folded() as one line of
 * a flame graph's folded stacks. User frames are named by build-id from an index of the
 * probed binaries, the -c command and their libraries, built on the first
 * such record (so a process that has exited is still symbolized), plus the
 * files the kernel reported mapped since tap started (mappings.c: dlopen'd
 * libraries, and each process's ranges) and the files of a process that is
 * still alive. A stack given as a string is named in the process it was
 * taken in (tap_stack_origins), not the one printing it. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/mappings.h"
#include "runtime/session.h"
#include "runtime/symbols.h"

/* The -c command's binary, found as execvp would (or /bin/sh). */
static void add_command(struct symbols *symbols, const char *command)
{
    if (command_needs_shell(command)) {
        symbols_add_file(symbols, "/bin/sh", 1);
        return;
    }
    char **argv = command_split(command);
    if (argv && argv[0] && strchr(argv[0], '/')) {
        symbols_add_file(symbols, argv[0], 1);
    } else if (argv && argv[0]) {
        char *paths = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
        for (char *save = NULL, *dir = strtok_r(paths, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            char candidate[PATH_MAX];
            snprintf(candidate, sizeof(candidate), "%s/%s", dir, argv[0]);
            if (access(candidate, X_OK) == 0) {
                symbols_add_file(symbols, candidate, 1);
                break;
            }
        }
        free(paths);
    }
    free(argv);
}

struct symbols *session_symbols(struct session *s)
{
    if (s->symbols)
        return s->symbols;
    s->symbols = symbols_new();
    for (int i = 0; i < s->program->probe_count; i++)
        if (s->program->probes[i].path)
            symbols_add_file(s->symbols, s->program->probes[i].path, 1);
    if (s->options->target_command)
        add_command(s->symbols, s->options->target_command);
    if (s->target_pid && !s->child_pid)   /* -x: the files it has mapped, loaded before tap started */
        symbols_add_process(s->symbols, s->target_pid);
    return s->symbols;
}

/* A user frame of process pid: by the build-id of the kernel's frame at that
 * address, else in the file the process had mapped there (recorded, so
 * after it exited too), else through the live process. */
static int find_user_frame(struct session *s, const struct record_stack *r, pid_t pid, uint64_t address,
                           struct symbol_hit *hit)
{
    struct symbols *symbols = session_symbols(s);
    const struct record_stack_frame *f = NULL;
    for (int j = 0; j < RECORD_STACK_DEPTH && !f; j++)
        if (r->frames[j].status == 1 && r->frame_ips[j] == address)
            f = &r->frames[j];
    if (f) {
        if (symbols_find_build_id(symbols, f->build_id, sizeof(f->build_id), f->offset_or_ip, hit) == 0)
            return 0;
        char hex[128];
        symbols_build_id_hex(f->build_id, sizeof(f->build_id), hex, sizeof(hex));
        const char *mapped = mappings_find(s->mappings, hex);   /* dlopen'd, maybe by a process now gone */
        if (mapped)
            symbols_add_file(symbols, mapped, 0);
        if (mapped && symbols_find_build_id(symbols, f->build_id, sizeof(f->build_id), f->offset_or_ip, hit) == 0)
            return 0;
        symbols_add_process(symbols, pid);
        if (symbols_find_build_id(symbols, f->build_id, sizeof(f->build_id), f->offset_or_ip, hit) == 0)
            return 0;
    }
    uint64_t offset;
    const char *path = mappings_find_address(s->mappings, pid, address, &offset);
    if (path && symbols_find_in_file(symbols, path, offset, hit) == 0)
        return 0;
    return symbols_find_in_process(symbols, pid, address, hit);
}

static int find_frame(struct session *s, int kernel, const struct record_stack *r, pid_t pid, uint64_t address,
                      struct symbol_hit *hit)
{
    return kernel ? symbols_find_kernel(session_symbols(s), address, hit) : find_user_frame(s, r, pid, address, hit);
}

/* The addresses of a stack string (ubacktrace()/backtrace()), at most max. */
static int parse_addresses(const char *text, uint64_t *addresses, int max)
{
    int count = 0;
    while (*text && count < max) {
        char *end;
        errno = 0;
        uint64_t address = strtoull(text, &end, 16);
        if (end == text || errno)
            break;
        addresses[count++] = address;
        text = end;
        while (*text == ' ')
            text++;
    }
    return count;
}

/* A flame-graph line's frames: root first, joined by ';', each the function's
 * name, else [file] as perf's stackcollapse names a frame without a symbol
 * (so such frames still merge), else [unknown]. No count, no newline: the
 * script prints them. */
static void append_folded(struct session *s, struct strbuf *out, int kernel, const struct record_stack *r,
                          pid_t pid, const uint64_t *addresses, int count)
{
    for (int i = count - 1; i >= 0; i--) {
        struct symbol_hit hit;
        int found = find_frame(s, kernel, r, pid, addresses[i], &hit) == 0;
        if (i != count - 1)
            strbuf_puts(out, ";");
        if (found && hit.name) {
            strbuf_puts(out, hit.name);
            const char *const *inlined;   /* root first: the outermost inlined next */
            for (int j = symbols_inlined_at(session_symbols(s), &hit, i > 0, &inlined) - 1; j >= 0; j--)
                strbuf_printf(out, ";%s", inlined[j]);
        } else if (found && hit.module) {
            const char *slash = strrchr(hit.module, '/');
            strbuf_printf(out, "[%s]", slash ? slash + 1 : hit.module);
        } else {
            strbuf_puts(out, "[unknown]");
        }
    }
}

static void append_frames(struct session *s, struct strbuf *out, int kernel, const struct record_stack *r,
                          pid_t pid, const uint64_t *addresses, int count)
{
    for (int i = 0; i < count; i++) {
        struct symbol_hit hit;
        int found = find_frame(s, kernel, r, pid, addresses[i], &hit) == 0;
        const char *const *inlined;
        int inlined_count = found ? symbols_inlined_at(session_symbols(s), &hit, i > 0, &inlined) : 0;
        for (int j = 0; j < inlined_count; j++)
            symbols_format_inlined(out, addresses[i], inlined[j], hit.module);
        symbols_format_frame(out, addresses[i], found ? &hit : NULL);
    }
}

/* The process a ubacktrace() string came from, as the BPF side noted it in
 * tap_stack_origins (codegen/stack.c), else `pid` (who printed it). */
static pid_t stack_origin(struct session *s, const char *text, pid_t pid)
{
    struct bpf_map *map = bpf_object__find_map_by_name(s->object, "tap_stack_origins");
    size_t size = (size_t)s->program->string_size;
    char *key = map ? calloc(1, size) : NULL;
    uint64_t origin;
    if (key) {
        memcpy(key, text, strnlen(text, size - 1));
        if (bpf_map_lookup_elem(bpf_map__fd(map), key, &origin) == 0)
            pid = (pid_t)origin;
    }
    free(key);
    return pid;
}

void session_print_stack(struct session *s, uint32_t kind, uint32_t id, const void *data, size_t size)
{
    struct record_stack r;
    int kernel = kind == RECORD_KSTACK;
    size_t fixed = kernel ? offsetof(struct record_stack, frames) : sizeof(struct record_stack);
    if (size < fixed)
        return;
    memset(&r, 0, sizeof(r));
    memcpy(&r, data, fixed);
    uint64_t addresses[RECORD_STACK_DEPTH];
    int count = 0;
    pid_t pid = (pid_t)r.pid;
    if (id & 1) {   /* print_ustack(s) and the like: the addresses in s */
        const char *given = (const char *)data + fixed;
        char *copy = strndup(given, size - fixed < s->program->string_size ? size - fixed : s->program->string_size);
        if (copy) {
            count = parse_addresses(copy, addresses, RECORD_STACK_DEPTH);
            pid = kernel ? pid : stack_origin(s, copy, pid);
        }
        free(copy);
    } else {
        count = r.count < RECORD_STACK_DEPTH ? (int)r.count : RECORD_STACK_DEPTH;
        memcpy(addresses, r.ips, sizeof(addresses));
    }
    struct strbuf text;
    strbuf_init(&text);
    if (id & 2)
        append_folded(s, &text, kernel, &r, pid, addresses, count);
    else
        append_frames(s, &text, kernel, &r, pid, addresses, count);
    if (!s->options->json) {
        strbuf_append(&s->out, text.data ? text.data : "", text.len);
    } else if (text.len) {
        strbuf_puts(&s->out, "{\"type\":\"printf\",\"data\":");
        append_json_string(&s->out, text.data, text.len);
        strbuf_puts(&s->out, "}\n");
    }
    strbuf_free(&text);
}
