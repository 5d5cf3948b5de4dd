/* kernel.function("name") and .call/.return: BPF trampolines (fentry,
 * fexit), typed from the kernel's BTF. A wildcard matches BTF's function
 * names; each match is its own program (a trampoline has one target).
 * $argument and ->member walks come from the function's BTF prototype
 * (sema/tracepoint_args.c: the context is the arguments as u64s, $return
 * the word after them). Functions the kernel will not trace are refused
 * by name: not in available_filter_functions (notrace, inlined), or on the
 * kprobe blacklist. kernel.statement, module(...) and kprobe.* are refused,
 * as is everything on a kernel without fentry (sema/kernel_functions.c
 * says why, from checks). */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/strbuf.h"
#include "kinds/kinds.h"
#include "runtime/attach.h"
#include "sema/btf_types.h"
#include "sema/sema_internal.h"

#define TRACEABLE_LIST "/sys/kernel/tracing/available_filter_functions"
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

/* Names (the word at `column`, module suffixes dropped) of a kernel list
 * file, sorted; NULL when it cannot be read. */
struct name_set {
    char **names;
    size_t count;
};

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct name_set read_names(struct arena *arena, const char *path, int column)
{
    struct name_set set = {0};
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
        if (set.count == capacity) {
            size_t grown = capacity ? capacity * 2 : 4096;
            set.names = arena_realloc(arena, set.names, capacity * sizeof(char *), grown * sizeof(char *));
            capacity = grown;
        }
        set.names[set.count++] = arena_strdup(arena, word);
    }
    fclose(f);
    qsort(set.names, set.count, sizeof(char *), compare_names);
    if (!set.names)
        set.names = ARENA_ARRAY(arena, char *, 1);   /* read, but empty */
    return set;
}

static int has_name(const struct name_set *set, const char *name)
{
    return bsearch(&name, set->names, set->count, sizeof(char *), compare_names) != NULL;
}

struct kernel_lists {
    struct name_set traceable;   /* names: NULL when unreadable (then not checked) */
    struct name_set blacklist;
};

static struct kernel_lists read_kernel_lists(struct arena *arena)
{
    struct kernel_lists lists;
    lists.traceable = read_names(arena, TRACEABLE_LIST, 0);
    lists.blacklist = read_names(arena, KPROBE_BLACKLIST, 1);   /* "0xADDR-0xADDR\tname" */
    return lists;
}

/* Why the kernel will not trace `name`, or NULL. */
static const char *untraceable(const struct kernel_lists *lists, const char *name)
{
    if (lists->blacklist.names && has_name(&lists->blacklist, name))
        return "it is on the kprobe blacklist (" KPROBE_BLACKLIST ")";
    if (lists->traceable.names && !has_name(&lists->traceable, name))
        return "the kernel does not trace it (notrace or inlined: not in " TRACEABLE_LIST ")";
    return NULL;
}

/* kernel.function("PATTERN")[.call|.return]; 0 for any other form. */
static int read_point(const struct probe_point *point, const char **pattern, int *is_return,
                      const char **suffix_text)
{
    const struct probe_component *f = point->components->next;
    if (strcmp(point->components->name, "kernel") != 0 || point->components->arg_kind != PROBE_ARG_NONE ||
        !f || strcmp(f->name, "function") != 0 || f->arg_kind != PROBE_ARG_STRING)
        return 0;
    const struct probe_component *suffix = f->next;
    if (suffix && (suffix->next || suffix->arg_kind != PROBE_ARG_NONE ||
                   (strcmp(suffix->name, "call") != 0 && strcmp(suffix->name, "return") != 0)))
        return 0;
    *pattern = f->arg_string;
    *is_return = suffix && strcmp(suffix->name, "return") == 0;
    *suffix_text = suffix ? (*is_return ? ".return" : ".call") : "";
    return 1;
}

static int refuse(struct sema *s, struct probe_point *point, const char *why)
{
    return sema_point_error(s, point, point->components->span, "%s", why);
}

static int resolve_kernel_function(struct sema *s, struct probe_point *point, struct probe *probe)
{
    int loads_fentry;
    const char *support = sema_kernel_function_support(s, &loads_fentry);
    const char *text = sema_point_text(s, point);
    if (!loads_fentry)
        return refuse(s, point, arena_printf(s->arena, "probe point %s needs BPF trampolines (fentry): this kernel %s",
                                             text, support));
    const char *pattern, *suffix;
    int is_return;
    if (!read_point(point, &pattern, &is_return, &suffix))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: tap probes kernel functions as "
                                             "kernel.function(\"NAME\")[.call|.return] only", text));
    struct btf *btf = sema_kernel_btf(s);
    struct kernel_lists lists = read_kernel_lists(s->arena);
    int wildcard = strpbrk(pattern, "*?[") != NULL, count = 0;
    const char *refusal = NULL;
    for (int id = 1; btf && id < (int)btf__type_cnt(btf); id++) {
        const struct btf_type *t = btf__type_by_id(btf, id);
        const char *name = btf_is_func(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
        if (!name || fnmatch(pattern, name, 0) != 0)
            continue;
        const char *why = untraceable(&lists, name);
        if (why) {
            refusal = arena_printf(s->arena, "kernel function %s cannot be probed: %s", name, why);
            continue;   /* a wildcard leaves it out */
        }
        struct probe *match = sema_add_probe_copy(s, probe);   /* $arguments are lowered per function */
        match->kind = is_return ? PROBE_FEXIT : PROBE_FENTRY;
        match->function = arena_strdup(s->arena, name);
        match->kernel_btf_id = id;
        match->may_skip = wildcard || point->optional;
        match->point = arena_printf(s->arena, "kernel.function(\"%s\")%s", name, suffix);
        count++;
    }
    if (!count && refusal && !wildcard)
        return refuse(s, point, refusal);
    if (!count)
        return refuse(s, point, arena_printf(s->arena, "while resolving probe point: %s matched no kernel function%s",
                                             text, btf ? "" : " (the kernel's BTF cannot be read)"));
    return count;
}

static const struct btf_type *prototype(struct sema *s, const struct probe *probe)
{
    struct btf *btf = sema_kernel_btf(s);
    const struct btf_type *func = btf ? btf__type_by_id(btf, probe->kernel_btf_id) : NULL;
    return func ? btf__type_by_id(btf, func->type) : NULL;
}

static int lower_target(struct sema *s, struct expr *e)
{
    const struct btf_type *proto = prototype(s, s->probe);
    int lowered = proto ? sema_lower_btf_argument(s, proto, s->probe->kind == PROBE_FEXIT, e) : -1;
    if (lowered < 0)
        diag_error(s->diags, e->span, "$%s is not an argument of kernel function %s%s", e->target.name,
                   s->probe->function, s->probe->kind == PROBE_FEXIT ? "" : " ($return is known in .return)");
    return lowered > 0;
}

/* -L: "kernel.function("vfs_read").call $file:struct file* $buf:char* ...", and
 * $return:TYPE in .return, as stap lists them (no @file:line without DWARF). */
static int list_kernel_functions(FILE *out, struct arena *arena, const char *point, int with_variables)
{
    char pattern[256], suffix[16] = "";
    if (sscanf(point, "kernel.function(\"%255[^\"]\")%15s", pattern, suffix) < 1)
        return 1;
    int is_return = strcmp(suffix, ".return") == 0;
    struct btf *btf = btf__load_vmlinux_btf();
    if (!btf) {
        fprintf(stderr, "ERROR: kernel functions are listed from the kernel's BTF, which cannot be read\n");
        return 1;
    }
    struct kernel_lists lists = read_kernel_lists(arena);
    int count = 0;
    for (int id = 1; id < (int)btf__type_cnt(btf); id++) {
        const struct btf_type *t = btf__type_by_id(btf, id);
        const char *name = btf_is_func(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
        if (!name || fnmatch(pattern, name, 0) != 0 || untraceable(&lists, name))
            continue;
        const struct btf_type *proto = btf__type_by_id(btf, t->type);
        struct strbuf sb;
        strbuf_init(&sb);
        strbuf_printf(&sb, "kernel.function(\"%s\")%s", name, suffix);
        if (with_variables && is_return && proto->type) {
            strbuf_puts(&sb, " $return:");
            btf_type_spell(&sb, btf, (int)proto->type);
        }
        for (int i = 0; with_variables && i < btf_vlen(proto); i++) {
            const struct btf_param *param = &btf_params(proto)[i];
            strbuf_printf(&sb, " $%s:", btf__name_by_offset(btf, param->name_off));
            btf_type_spell(&sb, btf, (int)param->type);
        }
        fprintf(out, "%s\n", sb.data);
        strbuf_free(&sb);
        count++;
    }
    btf__free(btf);
    if (count == 0) {   /* as -l of a process function that matches nothing */
        fprintf(stderr, "semantic error: while resolving probe point: no match for kernel function \"%s\"\n", pattern);
        return 1;
    }
    return 0;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "kernel.function(string)");
    add(lines, "kernel.function(string).call");
    add(lines, "kernel.function(string).return");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    return arena_printf(arena, "%s/%s", probe->kind == PROBE_FEXIT ? "fexit" : "fentry", probe->function);
}

static void describe(const struct probe *probe, struct program_probe *out)
{
    out->tp_name = strdup(probe->function);
}

static int attach_trampoline(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)index;
    (void)state;
    struct bpf_link *link = bpf_program__attach_trace(prog);
    if (!link)
        return -errno;
    return add_link(s, link);
}

const struct probe_kind_ops fentry_kind = {
    .kind = PROBE_FENTRY, .name = "fentry", .flags = KIND_FREQUENT,
    .heads = (const char *const[]){"kernel", "module", "kprobe", NULL}, .resolve = resolve_kernel_function,
    .list = list_kernel_functions, .catalogue = catalogue, .lower_target = lower_target,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_TRACING, .attach = attach_trampoline,
};

/* made by fentry's resolver for .return */
const struct probe_kind_ops fexit_kind = {
    .kind = PROBE_FEXIT, .name = "fexit", .flags = KIND_FREQUENT, .lower_target = lower_target,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_TRACING, .attach = attach_trampoline,
};
