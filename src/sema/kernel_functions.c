/* What this kernel offers to probe its own functions, for kernel.function
 * and kprobe.function (kinds/kernel_function.c, kinds/kprobe.c): every part
 * of a refusal is a check made here, never assumed. kprobes: the perf event
 * source libbpf attaches them through. BPF trampolines: an fentry program
 * on bpf_fentry_test1 (the function the kernel keeps for testing them)
 * loads. And the functions it will not trace, by name. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "sema/sema_internal.h"

#define KPROBE_SOURCE "/sys/bus/event_source/devices/kprobe"

/* 0 when an fentry program loads, else the errno of the refusal. */
static int fentry_refusal(struct sema *s)
{
    struct btf *btf = sema_kernel_btf(s);
    int id = btf ? btf__find_by_name_kind(btf, "bpf_fentry_test1", BTF_KIND_FUNC) : -1;
    if (id <= 0)
        return ENOENT;
    struct bpf_insn insns[2] = {
        {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
        {.code = BPF_JMP | BPF_EXIT},
    };
    LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY, .attach_btf_id = (unsigned)id);
    int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns, 2, &opts);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

/* Whether the kernel makes kprobe_multi links (fprobe: 6.1 as Debian builds
 * it has none), asked as libbpf does: a link on a function that does not
 * exist fails with ESRCH where they exist (ftrace_lookup_symbols; ENOENT
 * also taken), EOPNOTSUPP where not. */
static int has_kprobe_multi(void)
{
    struct bpf_insn insns[2] = {
        {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
        {.code = BPF_JMP | BPF_EXIT},
    };
    LIBBPF_OPTS(bpf_prog_load_opts, load, .expected_attach_type = BPF_TRACE_KPROBE_MULTI);
    int prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &load);
    if (prog < 0)
        return 0;
    const char *names[1] = {"tap_no_such_kernel_function"};
    LIBBPF_OPTS(bpf_link_create_opts, opts, .kprobe_multi.syms = names, .kprobe_multi.cnt = 1);
    int link = bpf_link_create(prog, 0, BPF_TRACE_KPROBE_MULTI, &opts);
    int err = errno;
    if (link >= 0)
        close(link);
    close(prog);
    return link < 0 && (err == ESRCH || err == ENOENT);
}

const char *sema_kernel_function_support(struct sema *s, struct kernel_support *support)
{
    int kprobes = access(KPROBE_SOURCE, F_OK) == 0;
    int refusal = fentry_refusal(s);
    const char *forced = getenv("TAP_KERNEL_PROBES");
    support->fentry = !refusal;
    support->kprobes = kprobes;
    support->kprobes_forced = forced && strcmp(forced, "kprobe") == 0;
    support->kprobe_multi = kprobes && has_kprobe_multi();
    const char *kprobe_part = kprobes ? "has kprobes" : "has no kprobes (no " KPROBE_SOURCE ")";
    if (!refusal)
        return arena_printf(s->arena, "%s and loads fentry programs", kprobe_part);
    if (refusal == ENOENT)
        return arena_printf(s->arena, "%s and no BTF for fentry programs", kprobe_part);
    return arena_printf(s->arena, "%s and refuses fentry programs (%s)", kprobe_part, strerror(refusal));
}

/* --- functions the kernel will not trace ---------------------------------- */

#define TRACEABLE_LIST "/sys/kernel/tracing/available_filter_functions"
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends name (copied) to set, whose room *capacity doubles as it fills. */
static void names_add(struct arena *arena, struct kernel_names *set, size_t *capacity, const char *name)
{
    if (set->count == *capacity) {
        size_t grown = *capacity ? *capacity * 2 : 4096;
        set->names = arena_realloc(arena, set->names, *capacity * sizeof(char *), grown * sizeof(char *));
        *capacity = grown;
    }
    set->names[set->count++] = arena_strdup(arena, name);
}

/* The words at `column` of a kernel list file, sorted; names NULL when it
 * cannot be read. */
static struct kernel_names read_names(struct arena *arena, const char *path, int column)
{
    struct kernel_names set = {0};
    FILE *f = fopen(path, "r");
    if (!f)
        return set;
    size_t capacity = 0;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        char *word = strtok(line, " \t\n");
        for (int i = 0; i < column && word; i++)
            word = strtok(NULL, " \t\n");
        if (!word)
            continue;
        names_add(arena, &set, &capacity, word);
    }
    fclose(f);
    qsort(set.names, set.count, sizeof(char *), compare_names);
    if (!set.names)
        set.names = ARENA_ARRAY(arena, char *, 1);   /* read, but empty */
    return set;
}

int kernel_names_has(const struct kernel_names *set, const char *name)
{
    return bsearch(&name, set->names, set->count, sizeof(char *), compare_names) != NULL;
}

/* Read once: a script's kernel.function points (a tapset's aliases name
 * dozens) each consult them, and reading them costs a second under TCG. */
const struct kernel_lists *kernel_read_lists(struct sema *s)
{
    if (!s->kernel_lists) {
        s->kernel_lists = ARENA_NEW(s->arena, struct kernel_lists);
        s->kernel_lists->traceable = read_names(s->arena, TRACEABLE_LIST, 0);
        s->kernel_lists->blacklist = read_names(s->arena, KPROBE_BLACKLIST, 1);   /* "0xADDR-0xADDR\tname" */
    }
    return s->kernel_lists;
}

const char *kernel_untraceable(const struct kernel_lists *lists, const char *name)
{
    if (lists->blacklist.names && kernel_names_has(&lists->blacklist, name))
        return "it is on the kprobe blacklist (" KPROBE_BLACKLIST ")";
    if (lists->traceable.names && !kernel_names_has(&lists->traceable, name))
        return "the kernel does not trace it (notrace or inlined: not in " TRACEABLE_LIST ")";
    return NULL;
}

static size_t names_count(const struct kernel_names *set, const char *name)
{
    char **hit = bsearch(&name, set->names, set->count, sizeof(char *), compare_names);
    if (!hit)
        return 0;
    char **first = hit, **last = hit;
    while (first > set->names && strcmp(first[-1], name) == 0)
        first--;
    while (last + 1 < set->names + set->count && strcmp(last[1], name) == 0)
        last++;
    return (size_t)(last - first) + 1;
}

/* The names of /proc/kallsyms' symbols, vmlinux's and the modules',
 * sorted: a name once per symbol that has it, of any type, as the kernel
 * counts them before a kprobe (number_of_same_symbols) and may find a
 * variable first when it looks a name up. */
static struct kernel_names *read_kernel_symbols(struct arena *arena, struct kernel_names *in_modules)
{
    struct kernel_names *set = ARENA_NEW(arena, struct kernel_names);
    FILE *f = fopen("/proc/kallsyms", "r");
    if (!f)
        return set;
    size_t capacity = 0, module_capacity = 0;
    char line[512], type, name[256], module[64];
    while (fgets(line, sizeof(line), f)) {
        int fields = sscanf(line, "%*s %c %255s [%63[^]]]", &type, name, module);
        if (fields < 2)
            continue;
        names_add(arena, set, &capacity, name);
        if (fields == 3)
            names_add(arena, in_modules, &module_capacity, arena_printf(arena, "%s [%s]", name, module));
    }
    fclose(f);
    qsort(set->names, set->count, sizeof(char *), compare_names);
    qsort(in_modules->names, in_modules->count, sizeof(char *), compare_names);
    return set;
}

static void read_symbols_once(struct sema *s)
{
    if (!s->kernel_symbols) {
        s->module_symbols = ARENA_NEW(s->arena, struct kernel_names);
        s->kernel_symbols = read_kernel_symbols(s->arena, s->module_symbols);
    }
}

/* The kernel attaches by name to the first function of that name it
 * finds: where several share it (static functions of different files) and
 * ftrace traces fewer of them, a trampoline may land on one without an
 * ftrace site (6.1's t_stop: EBUSY, no nop to patch); a kprobe it refuses
 * outright (EADDRNOTAVAIL since 6.1.5x and 6.6). */
const char *kernel_ambiguous(struct sema *s, const struct kernel_lists *lists, const char *name, int on_kprobe)
{
    read_symbols_once(s);
    size_t named = names_count(s->kernel_symbols, name);
    size_t traced = lists->traceable.names ? names_count(&lists->traceable, name) : named;
    if (named < 2 || (!on_kprobe && traced >= named))
        return NULL;
    if (on_kprobe)
        return arena_printf(s->arena, "%zu kernel symbols are named %s (static functions of different files, or a "
                            "variable): the kernel refuses a kprobe on a name they share", named, name);
    return arena_printf(s->arena, "%zu kernel symbols are named %s (static functions of different files, or a "
                        "variable) and the kernel traces %zu of them: it attaches a name to the first it finds, which may be one it "
                        "does not trace", named, name, traced);
}

/* Whether `rest` is one or more GCC clone suffixes whose code is the
 * whole function (".isra.0", ".constprop.0.isra.0"); ".part.N" (the part
 * of a function partly inlined into its callers) and ".cold" are not. */
static int whole_clone_suffix(const char *rest)
{
    static const char *const kinds[] = {".isra.", ".constprop."};
    while (*rest) {
        size_t n = 0;
        for (int k = 0; k < 2 && !n; k++)
            n = strncmp(rest, kinds[k], strlen(kinds[k])) == 0 ? strlen(kinds[k]) : 0;
        if (!n || !isdigit((unsigned char)rest[n]))
            return 0;
        for (rest += n; isdigit((unsigned char)*rest); rest++)
            continue;
    }
    return 1;
}

/* pahole leaves a clone out of BTF (its arguments are not the source's),
 * yet the clone is where the function's callers go: kernel.function of the
 * name attaches a kprobe to it, as SystemTap probes it from DWARF. */
const char *kernel_function_clone(struct sema *s, const struct kernel_lists *lists, const char *name)
{
    read_symbols_once(s);
    const struct kernel_names *set = lists->traceable.names ? &lists->traceable : s->kernel_symbols;
    size_t length = strlen(name);
    const char *clone = NULL;
    for (size_t i = 0; i < set->count; i++) {
        const char *symbol = set->names[i];
        if (strncmp(symbol, name, length) != 0 || !whole_clone_suffix(symbol + length))
            continue;
        if (clone && strcmp(clone, symbol) != 0)
            return NULL;   /* several clones: which one the callers reach is not known */
        clone = symbol;
    }
    return clone;
}

/* The loaded module whose function NAME is (kallsyms' "[nfsd]"), or NULL:
 * kernel.function names vmlinux's functions only, as in SystemTap. */
const char *kernel_function_module(struct sema *s, const char *name)
{
    read_symbols_once(s);
    const struct kernel_names *set = s->module_symbols;
    size_t length = strlen(name), low = 0, high = set->count;
    while (low < high) {   /* the first "NAME [" key: keys sort by name first */
        size_t middle = (low + high) / 2;
        if (strcmp(set->names[middle], name) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    for (; low < set->count && strncmp(set->names[low], name, length) == 0; low++)
        if (strncmp(set->names[low] + length, " [", 2) == 0) {
            const char *module = set->names[low] + length + 2;
            return arena_strndup(s->arena, module, strlen(module) - 1);
        }
    return NULL;
}

/* Why MODULE's function NAME cannot be attached by name: the module has
 * several symbols so named (6.1's nfsd: nfsctl.c's static nfsd_open and
 * vfs.c's), and the kernel attaches the first. NULL: one. */
const char *kernel_module_ambiguous(struct sema *s, const char *module, const char *name)
{
    read_symbols_once(s);
    size_t named = names_count(s->module_symbols, arena_printf(s->arena, "%s [%s]", name, module));
    if (named < 2)
        return NULL;
    return arena_printf(s->arena, "module %s has %zu symbols named %s (static functions of different files): the kernel "
                        "attaches a name to the first it finds, which may not be the one meant", module, named, name);
}

int kernel_function_components(const struct probe_component *f, const char **pattern, int *is_return)
{
    if (!f || strcmp(f->name, "function") != 0 || f->arg_kind != PROBE_ARG_STRING)
        return 0;
    const struct probe_component *suffix = f->next;
    if (suffix && (suffix->next || suffix->arg_kind != PROBE_ARG_NONE ||
                   (strcmp(suffix->name, "call") != 0 && strcmp(suffix->name, "return") != 0)))
        return 0;
    *pattern = f->arg_string;
    *is_return = suffix && strcmp(suffix->name, "return") == 0;
    return 1;
}
