/* process(...)[.library("LIB")].plt[("PAT")][.return]: a uprobe (or
 * uretprobe) on the PLT stub of each matching function, as SystemTap's
 * dwflpp::iterate_over_plt. No DWARF is needed: the entries come from the
 * binary's .rela.plt (JUMP_SLOT relocations naming .dynsym symbols) and the
 * stubs that jump through those GOT slots. A stub is found by decoding its
 * `jmp *slot(%rip)`, not by its index: with IBT (-fcf-protection, `-z
 * ibtplt`) the stubs code calls are in .plt.sec while .plt holds only the
 * lazy-binding pushes, and libc's .plt is not in .rela.plt's order. Nameless
 * slots (IRELATIVE: an ifunc's resolved target) are left out: SystemTap
 * gives them an empty $$name. pp() is SystemTap's `process("BIN").statement(
 * 0xSTUB)`, pn() and -l its `process("BIN").plt("NAME")`; $$name is the
 * function's name, any other $variable an error. */
#include <elf.h>
#include <gelf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/elf_sections.h"
#include "base/strbuf.h"
#include "sema/process_glob.h"
#include "sema/uprobe.h"

extern char **environ;

struct plt_entry {
    const char *name;
    uint64_t stub;               /* file vaddr of the stub code calls */
};

struct plt_point {
    const struct probe_component *process, *library, *plt;
    const char *path;
    const char *pattern;         /* "*" for a bare .plt */
    int is_return;
};

static int plt_error(struct sema *s, const struct probe_point *point, struct span span, const char *message)
{
    if (!point->optional)
        diag_error(s->diags, span, "while resolving probe point: %s", message);
    return 0;
}

static int read_plt_point(struct sema *s, const struct probe_point *point, struct plt_point *out)
{
    memset(out, 0, sizeof(*out));
    const struct probe_component *c = point->components;
    out->process = c;
    out->path = uprobe_process_path(s, c);
    if (!out->path)
        return plt_error(s, point, c->span,
                         "process probes need a path, as in process(\"./prog\"), or -c CMD / -x PID");
    c = c->next;
    if (strcmp(c->name, "library") == 0) {
        if (c->arg_kind != PROBE_ARG_STRING)
            return plt_error(s, point, c->span, ".library needs a string, as in .library(\"libc.so.6\")");
        out->library = c;
        c = c->next;
    }
    out->plt = c;
    if (c->arg_kind == PROBE_ARG_INT)
        return plt_error(s, point, c->span, ".plt takes a function name or pattern, as in .plt(\"str*\")");
    out->pattern = c->arg_kind == PROBE_ARG_STRING ? c->arg_string : "*";
    c = c->next;
    if (c && strcmp(c->name, "return") == 0 && c->arg_kind == PROBE_ARG_NONE) {
        out->is_return = 1;
        c = c->next;
    }
    if (c)
        return plt_error(s, point, c->span,
                         arena_printf(s->arena, "unknown process probe component %s after .plt%s "
                                      "(only .return may follow .plt)", c->name, out->is_return ? ".return" : ""));
    return 1;
}

/* --- the PLT of one binary ------------------------------------------------ */

/* GOT slot -> function name, from .rela.plt's JUMP_SLOT relocations. */
struct plt_slots {
    uint64_t *slots;
    const char **names;
    int count;
};

static void read_slots(struct arena *arena, Elf *elf, struct plt_slots *out)
{
    GElf_Shdr rela_shdr, sym_shdr;
    Elf_Scn *rela = elf_section_named(elf, ".rela.plt", &rela_shdr);
    Elf_Scn *syms = rela ? elf_getscn(elf, rela_shdr.sh_link) : NULL;
    Elf_Data *rela_data = rela ? elf_getdata(rela, NULL) : NULL;
    Elf_Data *sym_data = syms && gelf_getshdr(syms, &sym_shdr) ? elf_getdata(syms, NULL) : NULL;
    if (!rela_data || !sym_data || !rela_shdr.sh_entsize)
        return;
    int n = (int)(rela_shdr.sh_size / rela_shdr.sh_entsize);
    out->slots = ARENA_ARRAY(arena, uint64_t, n);
    out->names = ARENA_ARRAY(arena, const char *, n);
    for (int i = 0; i < n; i++) {
        GElf_Rela r;
        GElf_Sym sym;
        if (!gelf_getrela(rela_data, i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
            !GELF_R_SYM(r.r_info) || !gelf_getsym(sym_data, (int)GELF_R_SYM(r.r_info), &sym))
            continue;
        const char *name = elf_strptr(elf, sym_shdr.sh_link, sym.st_name);
        if (!name || !*name)
            continue;
        out->slots[out->count] = r.r_offset;
        out->names[out->count++] = arena_strdup(arena, name);
    }
}

/* The GOT slot a 16-byte stub jumps through: `[endbr64] [bnd] jmp *d(%rip)`;
 * 0 for anything else (PLT0, IBT's lazy .plt entries: endbr64; push; jmp). */
static uint64_t stub_slot(const unsigned char *code, size_t size, uint64_t vaddr)
{
    size_t p = 0;
    static const unsigned char endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
    if (size >= 4 && memcmp(code, endbr64, 4) == 0)
        p = 4;
    if (p < size && code[p] == 0xf2)
        p++;
    if (p + 6 > size || code[p] != 0xff || code[p + 1] != 0x25)
        return 0;
    int32_t disp = (int32_t)((uint32_t)code[p + 2] | (uint32_t)code[p + 3] << 8 | (uint32_t)code[p + 4] << 16 |
                             (uint32_t)code[p + 5] << 24);
    return vaddr + p + 6 + (uint64_t)(int64_t)disp;
}

/* Every named PLT entry of m, in stub order; -1 (with why) on another machine. */
static int read_plt(struct arena *arena, const struct dwarf_module *m, struct plt_entry **out, const char **why)
{
    GElf_Ehdr ehdr;
    *out = NULL;
    if (!gelf_getehdr(m->elf, &ehdr) || ehdr.e_machine != EM_X86_64) {
        *why = "PLT probes are supported on x86-64 binaries only";
        return -1;
    }
    struct plt_slots slots = {0};
    read_slots(arena, m->elf, &slots);
    if (!slots.count)
        return 0;
    struct plt_entry *entries = ARENA_ARRAY(arena, struct plt_entry, slots.count);
    int count = 0;
    static const char *const stub_sections[] = {".plt", ".plt.sec", ".plt.bnd"};
    for (size_t k = 0; k < sizeof(stub_sections) / sizeof(*stub_sections); k++) {
        GElf_Shdr shdr;
        Elf_Scn *scn = elf_section_named(m->elf, stub_sections[k], &shdr);
        const uint8_t *stubs = scn && shdr.sh_type == SHT_PROGBITS ? dwarf_module_section_bytes(arena, m, &shdr) : NULL;
        for (size_t off = 0; stubs && off + 16 <= shdr.sh_size; off += 16) {
            uint64_t slot = stub_slot(stubs + off, 16, shdr.sh_addr + off);
            for (int i = 0; slot && i < slots.count; i++)
                if (slots.slots[i] == slot && count < slots.count) {
                    entries[count++] = (struct plt_entry){slots.names[i], shdr.sh_addr + off};
                    break;
                }
        }
    }
    *out = entries;
    return count;
}

/* --- the libraries of library("PATTERN") ---------------------------------- */

static int trusted_loader(const char *interpreter)
{
    static const char *const loaders[] = {
        "/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-x86-64.so.2", "/usr/lib/ld-linux-x86-64.so.2",
        "/usr/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
        "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
    };
    for (size_t i = 0; i < sizeof(loaders) / sizeof(*loaders); i++)
        if (strcmp(interpreter, loaders[i]) == 0)
            return 1;
    return 0;
}

static const char *program_interpreter(const struct dwarf_module *m)
{
    size_t phnum, size;
    const char *raw = elf_rawfile(m->elf, &size);
    if (!raw || elf_getphdrnum(m->elf, &phnum) != 0)
        return NULL;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(m->elf, (int)i, &phdr) && phdr.p_type == PT_INTERP && phdr.p_offset < size &&
            memchr(raw + phdr.p_offset, 0, size - phdr.p_offset))
            return raw + phdr.p_offset;
    }
    return NULL;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The objects the loader maps for the program, as SystemTap lists them: its
 * own interpreter run in trace mode (`ldd`), which loads but runs nothing;
 * only a system loader is run so. Sorted, unique; -1 (with why) on failure. */
static int loaded_objects(struct sema *s, const struct dwarf_module *program, const char ***out, const char **why)
{
    const char *interpreter = program_interpreter(program);
    if (!interpreter || !trusted_loader(interpreter)) {
        *why = interpreter ? arena_printf(s->arena, "%s's loader %s is not a system loader: its libraries are not "
                                          "listed (name the library)", program->path, interpreter)
                           : arena_printf(s->arena, "%s has no program interpreter: it loads no libraries",
                                          program->path);
        return -1;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        *why = "cannot list the program's libraries: pipe failed";
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    char *argv[] = {"env", "LD_TRACE_LOADED_OBJECTS=1", "LD_WARN=yes", "LD_BIND_NOW=yes", (char *)interpreter,
                    (char *)program->path, NULL};
    pid_t pid;
    int spawned = posix_spawn(&pid, "/usr/bin/env", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    const char **paths = NULL;
    int count = 0, capacity = 0;
    char line[4096], path[4096];
    while (in && fgets(line, sizeof(line), in)) {
        const char *arrow = strstr(line, "=> ");
        if (sscanf(arrow ? arrow + 3 : line, " %4095s (0x", path) != 1 || path[0] != '/')
            continue;
        if (count == capacity) {
            int grown = capacity ? 2 * capacity : 16;
            paths = arena_realloc(s->arena, paths, sizeof(*paths) * (size_t)capacity, sizeof(*paths) * (size_t)grown);
            capacity = grown;
        }
        paths[count++] = arena_strdup(s->arena, path);
    }
    if (in)
        fclose(in);
    else
        close(fds[0]);
    int status = 0;
    if (spawned == 0)
        waitpid(pid, &status, 0);
    if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        *why = arena_printf(s->arena, "cannot list %s's libraries (its loader %s failed)", program->path, interpreter);
        return -1;
    }
    qsort(paths, (size_t)count, sizeof(*paths), compare_strings);
    int unique = 0;
    for (int i = 0; i < count; i++)
        if (!unique || strcmp(paths[i], paths[unique - 1]) != 0)
            paths[unique++] = paths[i];
    *out = paths;
    return unique;
}

/* --- probes --------------------------------------------------------------- */

/* $$name becomes __tap_plt_name(): the entry's name by the probe (or group
 * member) that runs, so a body reading it still serves every entry of a
 * binary from one program. */
static int rewrite_name(struct expr *e, void *ctx);

static int rewrite_name_in(struct stmt *st, void *ctx)
{
    return ast_stmt_children(st, &(struct ast_visitor){rewrite_name, rewrite_name_in, ctx});
}

static int rewrite_name(struct expr *e, void *ctx)
{
    if (e->kind == EXPR_TARGET && strcmp(e->target.name, "$name") == 0 && !e->target.components &&
        !e->target.pretty && !e->target.address_of) {
        struct span span = e->span;
        struct expr *next = e->next;     /* in an argument or index list */
        memset(e, 0, sizeof(*e));
        e->kind = EXPR_CALL;
        e->span = span;
        e->next = next;
        e->call.name = "__tap_plt_name";
        return 0;
    }
    return ast_expr_children(e, &(struct ast_visitor){rewrite_name, rewrite_name_in, ctx});
}

int uprobe_plt_lower_target(struct sema *s, struct expr *e, int quiet)
{
    if (!quiet)
        diag_error(s->diags, e->span, "unable to find plt variable '$%s' (alternatives: $$name)", e->target.name);
    return 0;
}

static const char *plt_text(struct sema *s, const struct plt_point *pp, const struct dwarf_module *program,
                            const struct dwarf_module *m, const char *name)
{
    const char *suffix = pp->is_return ? ".return" : "";
    if (pp->library)
        return arena_printf(s->arena, "process(\"%s\").library(\"%s\").plt(\"%s\")%s", program->path, m->path, name,
                            suffix);
    return arena_printf(s->arena, "process(\"%s\").plt(\"%s\")%s", m->path, name, suffix);
}

/* The three entries closest to the pattern by edit distance (shorter, then
 * earlier names first on ties), for the error when none matches. */
struct closest_entries {
    const char *wanted;
    const char *names[3];
    int distances[3];
};

static void offer_entry(struct closest_entries *c, const char *name)
{
    int d = sema_edit_distance(c->wanted, name);
    for (int k = 0; k < 3; k++) {
        if (c->names[k] && strcmp(c->names[k], name) == 0)
            return;
        if (!c->names[k] || d < c->distances[k] || (d == c->distances[k] && strlen(name) < strlen(c->names[k]))) {
            for (int j = 2; j > k; j--) {
                c->names[j] = c->names[j - 1];
                c->distances[j] = c->distances[j - 1];
            }
            c->names[k] = name;
            c->distances[k] = d;
            return;
        }
    }
}

/* The probes of m's entries matching the pattern; -1 when m has no PLT. */
static int add_entries(struct sema *s, struct stmt *body, struct probe_point *point, struct frame_layout *frame,
                       const struct plt_point *pp, const struct dwarf_module *program, struct dwarf_module *m,
                       struct closest_entries *closest)
{
    struct plt_entry *entries;
    const char *why = NULL;
    int count = read_plt(s->arena, m, &entries, &why);
    if (count < 0)
        return plt_error(s, point, pp->plt->span, why), -2;
    struct probe *leader = NULL;
    int added = 0;
    for (int i = 0; i < count; i++) {
        offer_entry(closest, entries[i].name);
        if (fnmatch(pp->pattern, entries[i].name, 0) != 0)
            continue;
        struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
        site->module = m;
        site->pc = entries[i].stub;
        site->at_entry = 1;
        site->is_statement = 1;
        site->is_return = pp->is_return;
        site->plt_name = entries[i].name;
        const char *text = arena_printf(s->arena, "process(\"%s\").statement(0x%llx)%s", m->path,
                                        (unsigned long long)entries[i].stub, pp->is_return ? ".return" : "");
        struct probe *probe = uprobe_add_site(s, body, point, frame, site, text, &leader);
        probe->function = "";
        probe->alias_point = plt_text(s, pp, program, m, entries[i].name);
        added++;
    }
    return count ? added : -1;
}

static int resolve_modules(struct sema *s, struct stmt *body, struct probe_point *point, struct frame_layout *frame,
                           const struct plt_point *pp, struct dwarf_module *program)
{
    struct closest_entries closest = {.wanted = pp->pattern};
    char error[512];
    int added = 0;
    const char *missing = NULL;
    if (!pp->library || !strpbrk(pp->library->arg_string, "*?[")) {
        struct dwarf_module *m = pp->library ? dwarf_module_open_library(s->options->modules, program->path,
                                                                         pp->library->arg_string, error, sizeof(error))
                                             : program;
        if (!m) {
            return plt_error(s, point, pp->library->span, arena_strdup(s->arena, error));
        }
        added = add_entries(s, body, point, frame, pp, program, m, &closest);
        if (added == -1)
            missing = arena_printf(s->arena, "%s has no PLT entries (its calls do not go through a PLT)", m->path);
        else if (added == 0)
            missing = arena_printf(s->arena, "no PLT entry matches \"%s\" in %s (similar entries: %s%s%s%s%s)",
                                   pp->pattern, m->path, closest.names[0], closest.names[1] ? ", " : "",
                                   closest.names[1] ? closest.names[1] : "", closest.names[2] ? ", " : "",
                                   closest.names[2] ? closest.names[2] : "");
    } else {
        const char **libraries;
        const char *why = NULL;
        int n = loaded_objects(s, program, &libraries, &why);
        if (n < 0) {
            return plt_error(s, point, pp->library->span, why);
        }
        const char *glob = arena_printf(s->arena, "*%s", pp->library->arg_string);
        for (int i = 0; i < n && added >= 0; i++) {
            struct dwarf_module *m = fnmatch(glob, libraries[i], 0) == 0
                ? dwarf_module_open(s->options->modules, libraries[i], error, sizeof(error)) : NULL;
            int more = m ? add_entries(s, body, point, frame, pp, program, m, &closest) : 0;
            added = more == -2 ? -2 : added + (more > 0 ? more : 0);
        }
        if (added == 0)
            missing = arena_printf(s->arena, "no PLT entry matches \"%s\" in %s's libraries matching \"%s\"",
                                   pp->pattern, program->path, pp->library->arg_string);
    }
    if (missing)
        return plt_error(s, point, pp->plt->span, missing);
    return added < 0 ? 0 : added;
}

/* What a .plt point resolves in each program its path names. */
struct plt_in {
    struct stmt *named;          /* the body, $$name rewritten */
    struct frame_layout *frame;
    const struct plt_point *pp;
};

static int resolve_in_program(struct sema *s, struct probe_point *point, const char *path, void *data)
{
    const struct plt_in *in = data;
    const struct plt_point *pp = in->pp;
    char error[512];
    struct dwarf_module *program = dwarf_module_open(s->options->modules, path, error, sizeof(error));
    if (!program)
        return plt_error(s, point, point->components->span, arena_strdup(s->arena, error));
    int first = s->script->probe_count;
    int added = resolve_modules(s, in->named, point, in->frame, pp, program);
    int may_skip = point->optional || strpbrk(pp->pattern, "*?[") != NULL ||
                   (pp->library && strpbrk(pp->library->arg_string, "*?["));
    for (int i = first; i < s->script->probe_count; i++) {
        if (point->components->arg_kind == PROBE_ARG_INT)
            uprobe_only_in_process(s, s->script->probes[i], point->components);
        s->script->probes[i]->may_skip = may_skip;
    }
    return added;
}

int sema_resolve_plt(struct sema *s, struct stmt *body, struct probe_point *point, struct frame_layout *frame)
{
    struct plt_point pp;
    if (!read_plt_point(s, point, &pp))
        return 0;
    struct stmt *named = sema_clone_stmt(s->arena, body);
    ast_stmt_list(named, &(struct ast_visitor){NULL, rewrite_name_in, NULL});
    struct plt_in in = {named, frame, &pp};
    if (process_glob_names_pattern(point->components))
        return process_glob_resolve(s, point, resolve_in_program, &in);
    return resolve_in_program(s, point, pp.path, &in);
}
