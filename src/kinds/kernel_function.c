/* kernel.function("name") and .call/.return: BPF trampolines (fentry,
 * fexit), typed from the kernel's BTF. A wildcard matches BTF's function
 * names; each match is its own program (a trampoline has one target),
 * except that more than KERNEL_FUNCTION_GROUP_MIN matches whose body reads
 * no $variable share one kprobe program (one kprobe_multi link where the
 * kernel has them, else a perf-event kprobe each).
 * $argument and ->member walks come from the function's BTF prototype
 * (sema/tracepoint_args.c: the context is the arguments as u64s, $return
 * the word after them). A function goes on a kprobe (kinds/kprobe.c)
 * instead where the kernel loads no fentry program, where a trampoline
 * cannot take its arguments (more than 6), for a .return reading @entry
 * (fexit has no entry program), where the kernel will not build a
 * trampoline for its prototype (a struct returned, one over 16 bytes
 * passed, or variadic), or everywhere with TAP_KERNEL_PROBES=kprobe.
 * Functions the kernel will not trace are refused by name: not in
 * available_filter_functions (notrace, inlined), on the kprobe blacklist,
 * or named as other functions are where the kernel would attach the
 * name elsewhere (kernel_ambiguous). A function BTF lacks that the kernel
 * has as one GCC clone (6.1's finish_task_switch.isra.0) goes on a kprobe
 * at the clone's symbol, its $arguments from the kernel's DWARF at the
 * clone's entry (add_clone). module("m").function(...) is the same on a loaded module's
 * functions, typed from its BTF (/sys/kernel/btf/m). kernel.statement is
 * kinds/kprobe.c's. -L adds each function's @file:line where the kernel's
 * DWARF is installed (sema/dwarf_kernel.c). Everything is refused on a kernel with neither fentry nor kprobes
 * (sema/kernel_functions.c says why, from checks). */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "kinds/kprobe.h"
#include "runtime/attach.h"
#include "sema/btf_types.h"
#include "sema/dwarf.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"

/* kernel.function("PATTERN") or module("NAME").function("PATTERN"), then
 * .call or .return; 0 for any other form. *module: NULL for the kernel. */
static int read_point(const struct probe_point *point, const char **module, const char **pattern,
                      int *is_return, const char **suffix_text)
{
    const struct probe_component *head = point->components, *f = head->next;
    if (strcmp(head->name, "kernel") == 0 && head->arg_kind == PROBE_ARG_NONE)
        *module = NULL;
    else if (strcmp(head->name, "module") == 0 && head->arg_kind == PROBE_ARG_STRING &&
             !strpbrk(head->arg_string, "*?[/"))
        *module = head->arg_string;
    else
        return 0;
    if (!kernel_function_components(f, pattern, is_return))
        return 0;
    *suffix_text = f->next ? (*is_return ? ".return" : ".call") : "";
    return 1;
}

static int refuse(struct sema *s, struct probe_point *point, const char *why)
{
    return sema_point_error(s, point, point->components->span, "%s", why);
}

static int module_loaded(const char *module)
{
    char path[300];
    snprintf(path, sizeof(path), "/sys/module/%s", module);
    return access(path, F_OK) == 0;
}

static void note_entry(struct expr *e, void *data)
{
    if (e->kind == EXPR_ENTRY)
        *(int *)data = 1;
}

/* A .return body reading @entry(...) needs an entry program: fexit has none. */
static int reads_entry(const struct probe *probe)
{
    int reads = 0;
    ast_visit_exprs(probe->body, note_entry, &reads);
    if (probe->condition) {
        struct stmt holder = {.kind = STMT_EXPR, .expr = probe->condition};
        ast_visit_exprs(&holder, note_entry, &reads);
    }
    return reads;
}

/* A struct or union the trampoline cannot pass: the kernel will not attach
 * one to a function returning one, or taking one larger than 16 bytes
 * (btf_distill_func_proto: "return type STRUCT is unsupported"). */
static int untrampolined_record(struct btf *btf, int type_id, int is_return)
{
    int id = btf__resolve_type(btf, (unsigned)type_id);
    const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (unsigned)id) : NULL;
    return t && (btf_is_struct(t) || btf_is_union(t)) && (is_return || t->size > 16);
}

/* Whether the function goes on a kprobe, not a trampoline. */
static int on_kprobe(const struct kernel_support *support, struct btf *btf, const struct btf_type *proto,
                     int entry_on_return)
{
    if (!support->kprobes)
        return 0;
    int records = untrampolined_record(btf, (int)proto->type, 1);
    for (int i = 0; i < btf_vlen(proto); i++)
        records |= untrampolined_record(btf, (int)btf_params(proto)[i].type, 0);
    /* a variadic function ("..." is a last parameter of type 0): the kernel
     * builds no trampoline for it ("with variable args is unsupported") */
    int variadic = btf_vlen(proto) > 0 && btf_params(proto)[btf_vlen(proto) - 1].type == 0;
    return !support->fentry || support->kprobes_forced || btf_vlen(proto) > 6 || entry_on_return || records ||
           variadic;
}

/* "@fs/read_write.c:450" for -L where the kernel's DWARF is at hand, as
 * SystemTap lists kernel functions; "" without it (pp() stays the name:
 * the same script prints the same with and without DWARF). */
static const char *listed_source(struct sema *s, struct dwarf_module *kernel_dwarf, const char *name)
{
    struct dwarf_function f;
    if (!kernel_dwarf || !dwarf_kernel_function(s->arena, kernel_dwarf, name, &f) || !f.decl_file)
        return "";
    return arena_printf(s->arena, "@%s:%d", dwarf_kernel_source(s->arena, kernel_dwarf, &f), f.decl_line);
}

/* NAME@FILE (kernel.function("*@net/socket.c")): BTF knows no source files,
 * so the kernel's DWARF says which functions have their code in a compile
 * unit of a file FILE matches; their names, sorted. */
struct file_functions {
    struct arena *arena;
    struct function_pattern pattern;
    const char **names;
    int count;
};

static int unit_matches(const char *file, void *ctx)
{
    struct file_functions *ff = ctx;
    struct function_pattern any_name = ff->pattern;
    any_name.function = "*";
    return uprobe_function_matches(&any_name, &(struct dwarf_function){.name = "", .decl_file = file});
}

static void add_file_function(const char *name, const char *file, void *ctx)
{
    struct file_functions *ff = ctx;
    if (!uprobe_function_matches(&ff->pattern, &(struct dwarf_function){.name = name, .decl_file = file}))
        return;
    if ((ff->count & (ff->count - 1)) == 0)   /* 0, 1, 2, 4 ...: double */
        ff->names = arena_realloc(ff->arena, ff->names, sizeof(*ff->names) * (size_t)ff->count,
                                  sizeof(*ff->names) * (size_t)(ff->count ? 2 * ff->count : 1));
    ff->names[ff->count++] = arena_strdup(ff->arena, name);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 0 after refusing the point; else *pattern becomes NAME. */
static int read_file_functions(struct sema *s, struct probe_point *point, const char *text, const char *module,
                               const char **pattern, struct file_functions *ff)
{
    *ff = (struct file_functions){.arena = s->arena};
    uprobe_parse_pattern(s->arena, *pattern, &ff->pattern);
    if (module || ff->pattern.line || ff->pattern.line_text || ff->pattern.any_line || ff->pattern.scope_count)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: tap probes kernel functions by source file "
                                             "as kernel.function(\"NAME@FILE\"), without a line", text));
    char error[512];
    struct dwarf_module *m = dwarf_kernel_open(s->options->modules, error, sizeof(error));
    if (!m)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: a kernel function by source file needs the "
                                             "kernel's DWARF: %s", text, error));
    dwarf_kernel_each_function(m, &(struct dwarf_kernel_walk){unit_matches, add_file_function, ff});
    if (ff->count)
        qsort(ff->names, (size_t)ff->count, sizeof(*ff->names), compare_names);
    *pattern = ff->pattern.function;
    return 1;
}

/* A wildcard matching more functions than this, whose body reads no
 * $variable (so one program can serve them all), goes on kprobes in one
 * group: one program, one kprobe_multi link where the kernel has them,
 * else a perf-event kprobe each. Each function on a trampoline costs a
 * program compiled, verified and loaded, and a trampoline built (about a
 * second apiece under the VM's emulator: the gallery's fs wildcard, ~1000 functions,
 * took minutes); up to this many that stays a few seconds, and the
 * trampolines keep their lower cost per call. */
#define KERNEL_FUNCTION_GROUP_MIN 8

struct function_match {
    const char *name;
    int btf_id;
};

/* The BTF functions `pattern` (and, with a file, in_file) matches that the
 * kernel traces; *refusal says why the last one it does not was left out.
 * A literal pattern is compared with strcmp: fnmatch on 60k names costs
 * seconds under TCG. */
static int collect_matches(struct sema *s, const struct kernel_lists *lists, struct btf *btf, int first_id,
                           const char *pattern, int literal, const struct file_functions *in_file,
                           struct function_match **out, const char **refusal)
{
    struct function_match *matches = NULL;
    int count = 0;
    for (int id = first_id; btf && id < (int)btf__type_cnt(btf); id++) {
        const struct btf_type *t = btf__type_by_id(btf, id);
        const char *name = btf_is_func(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
        if (!name || (literal ? strcmp(pattern, name) : fnmatch(pattern, name, 0)) != 0 ||
            (in_file->arena && !bsearch(&name, in_file->names, (size_t)in_file->count, sizeof(*in_file->names), compare_names)))
            continue;
        const char *why = kernel_untraceable(lists, name);
        if (why) {
            *refusal = arena_printf(s->arena, "kernel function %s cannot be probed: %s", name, why);
            continue;   /* a wildcard leaves it out */
        }
        if ((count & (count - 1)) == 0)   /* 0, 1, 2, 4 ...: double */
            matches = arena_realloc(s->arena, matches, sizeof(*matches) * (size_t)count,
                                    sizeof(*matches) * (size_t)(count ? 2 * count : 1));
        matches[count++] = (struct function_match){name, id};
    }
    *out = matches;
    return count;
}

/* The clone's entry in the kernel's DWARF, where its $arguments are (the
 * clone's own, as GCC left them); NULL without the kernel's DWARF. */
static struct uprobe_site *clone_entry_site(struct sema *s, const char *clone)
{
    char error[512];
    struct dwarf_module *m = dwarf_kernel_open(s->options->modules, error, sizeof(error));
    struct dwarf_function *f = ARENA_NEW(s->arena, struct dwarf_function);
    if (!m || !dwarf_kernel_function(s->arena, m, clone, f))
        return NULL;
    struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
    *site = (struct uprobe_site){.module = m, .function = f, .pc = f->entry, .at_entry = 1, .out_of_line = 1};
    return site;
}

/* A function BTF does not have, that the kernel has as one GCC clone
 * (kernel_function_clone): a kprobe on the clone's symbol, named as the
 * script names it; -1 (no probe, no error) where there is none. */
static int add_clone(struct sema *s, struct probe_point *point, struct probe *probe, const struct kernel_lists *lists,
                     const char *name, int is_return, const char *suffix)
{
    const char *clone = kernel_function_clone(s, lists, name);
    if (!clone)
        return -1;
    const char *why = kernel_untraceable(lists, clone);
    if (!why && !s->options->listing)
        why = kernel_ambiguous(s, lists, clone, 1);
    if (why)
        return refuse(s, point, arena_printf(s->arena, "kernel function %s (its clone %s) cannot be probed: %s", name,
                                             clone, why));
    const char *pp = arena_printf(s->arena, "kernel.function(\"%s\")%s", name, suffix);
    struct probe *added = kprobe_add_function(s, probe, name, 0, is_return, pp, NULL, 0);
    added->kprobe.symbol = clone;
    added->kprobe.site = is_return ? NULL : clone_entry_site(s, clone);
    added->may_skip = point->optional;
    return 1;
}

static int resolve_kernel_function(struct sema *s, struct probe_point *point, struct probe *probe)
{
    const char *text = sema_point_text(s, point);
    const char *module, *pattern, *suffix;
    int is_return;
    if (!read_point(point, &module, &pattern, &is_return, &suffix))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: tap probes kernel functions as "
                                             "kernel.function(\"NAME\") or module(\"MODULE\").function(\"NAME\"), "
                                             "then .call or .return", text));
    struct btf *btf = sema_probe_btf(s, module);
    if (module && !btf)
        return refuse(s, point, arena_printf(s->arena, module_loaded(module)
                                             ? "probe point %s: module %s has no BTF (no /sys/kernel/btf/%s): "
                                               "tap types its functions from BTF"
                                             : "probe point %s: module %s is not loaded (no /sys/module/%s)",
                                             text, module, module));
    struct kernel_support support = {.fentry = 1};   /* listed (-L) as on a trampoline, */
    const char *offered = s->options->listing ? NULL    /* where nothing attaches */
                                              : sema_kernel_function_support(s, &support);
    if (!support.fentry && !support.kprobes)
        return refuse(s, point, arena_printf(s->arena, "probe point %s needs kprobes or BPF trampolines (fentry): "
                                             "this kernel %s", text, offered));
    if (support.kprobes_forced && !support.kprobes)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: TAP_KERNEL_PROBES=kprobe, but this kernel %s",
                                             text, offered));
    struct file_functions in_file = {0};
    if (strchr(pattern, '@') && !read_file_functions(s, point, text, module, &pattern, &in_file))
        return 0;
    /* a module's BTF continues vmlinux's: its own functions come after */
    int first_id = module ? (int)btf__type_cnt(sema_kernel_btf(s)) : 1;
    probe->kprobe.module = module;
    int wildcard = strpbrk(pattern, "*?[") != NULL || in_file.arena;
    int literal = strpbrk(pattern, "*?[\\") == NULL;   /* no fnmatch escape either */
    const char *refusal = NULL;
    struct function_match *matches;
    const struct kernel_lists *lists = kernel_read_lists(s);
    int count = collect_matches(s, lists, btf, first_id, pattern, literal, &in_file, &matches, &refusal);
    const char *owner = !count && !wildcard && !module ? kernel_function_module(s, pattern) : NULL;
    if (owner)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: %s is a function of module %s, not of the "
                                             "kernel: probe it as module(\"%s\").function(\"%s\")",
                                             text, pattern, owner, owner, pattern));
    int cloned = !count && !refusal && !wildcard && !module && (support.kprobes || s->options->listing)
                 ? add_clone(s, point, probe, lists, pattern, is_return, suffix) : -1;
    if (cloned >= 0)
        return cloned;
    if (!count && refusal && !wildcard)
        return refuse(s, point, refusal);
    if (!count)
        return refuse(s, point, arena_printf(s->arena, "while resolving probe point: %s matched no %s function%s",
                                             text, module ? "module" : "kernel",
                                             btf ? "" : " (the kernel's BTF cannot be read)"));
    /* many functions, one body: one kprobe group (the module's functions
     * stay apart: 6.1's kprobe_multi finds vmlinux's symbols only) */
    int grouped = wildcard && count > KERNEL_FUNCTION_GROUP_MIN && !module && support.kprobes &&
                  !kprobe_body_reads_targets(probe);
    int entry_on_return = is_return && reads_entry(probe);
    struct probe *leader = NULL;
    char no_dwarf[512];   /* -L without the kernel's DWARF lists names only */
    struct dwarf_module *kernel_dwarf = s->options->listing && !module
                                        ? dwarf_kernel_open(s->options->modules, no_dwarf, sizeof(no_dwarf)) : NULL;
    int added = 0;
    for (int i = 0; i < count; i++) {
        const char *name = matches[i].name;
        int id = matches[i].btf_id;
        const struct btf_type *t = btf__type_by_id(btf, id);
        int kprobe = grouped || on_kprobe(&support, btf, btf__type_by_id(btf, t->type), entry_on_return);
        const char *why = s->options->listing ? NULL : module ? kernel_module_ambiguous(s, module, name)
                                                              : kernel_ambiguous(s, lists, name, kprobe);
        if (why) {
            refusal = arena_printf(s->arena, "kernel function %s cannot be probed: %s", name, why);
            continue;   /* a wildcard leaves it out */
        }
        const char *pp = module ? arena_printf(s->arena, "module(\"%s\").function(\"%s\")%s", module, name, suffix)
                                : arena_printf(s->arena, "kernel.function(\"%s%s\")%s", name,
                                               listed_source(s, kernel_dwarf, name), suffix);
        struct probe *match;
        if (kprobe) {
            match = kprobe_add_function(s, probe, name, id, is_return, pp, wildcard ? &leader : NULL,
                                        support.kprobe_multi);
        } else {
            match = sema_add_probe_copy(s, probe);   /* $arguments are lowered per function */
            match->kind = is_return ? PROBE_FEXIT : PROBE_FENTRY;
            match->function = arena_strdup(s->arena, name);
            match->kprobe.btf_id = id;
            match->point = pp;
        }
        match->may_skip = wildcard || point->optional;
        added++;
    }
    if (!added)
        return refuse(s, point, refusal);
    return added;
}

static int lower_target(struct sema *s, struct expr *e)
{
    struct btf *btf = sema_probe_btf(s, s->probe->kprobe.module);
    const struct btf_type *func = btf ? btf__type_by_id(btf, (unsigned)s->probe->kprobe.btf_id) : NULL;
    const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
    int lowered = proto ? sema_lower_btf_argument(s, btf, proto, s->probe->kind == PROBE_FEXIT, e, NULL) : -1;
    if (lowered < 0)
        diag_error(s->diags, e->span, "$%s is not an argument of kernel function %s%s", e->target.name,
                   s->probe->function, s->probe->kind == PROBE_FEXIT ? "" : " ($return is known in .return)");
    return lowered > 0;
}

/* @entry in fexit: only where the kernel has no kprobes (else the probe is
 * a kretprobe, see on_kprobe). */
static int lower_entry(struct sema *s, struct expr *e)
{
    diag_error(s->diags, e->span, "@entry in %s needs an entry program on a kprobe: this kernel has no kprobes",
               s->probe->point);
    return 0;
}

static enum register_place register_place(const struct sema *s)
{
    return s->probe->kind == PROBE_FEXIT && !s->at_call ? REGISTERS_AT_RETURN : REGISTERS_AT_ENTRY;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "kernel.function(string)");
    add(lines, "kernel.function(string).call");
    add(lines, "kernel.function(string).return");
    add(lines, "module(string).function(string)");
    add(lines, "module(string).function(string).call");
    add(lines, "module(string).function(string).return");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    return arena_printf(arena, "%s/%s", probe->kind == PROBE_FEXIT ? "fexit" : "fentry", probe->function);
}

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
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
    .kind = PROBE_FENTRY, .name = "fentry", .flags = KIND_FREQUENT | KIND_FUNC_IP,
    .probe_fields = PROBE_FIELDS_KPROBE,
    .heads = (const char *const[]){"kernel", "module", NULL}, .resolve = resolve_kernel_function,
    .catalogue = catalogue, .lower_target = lower_target, .lower_entry = lower_entry,
    .register_place = register_place, .register_value = register_arg_on_trampoline,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_TRACING, .attach = attach_trampoline,
};

/* made by fentry's resolver for .return */
const struct probe_kind_ops fexit_kind = {
    .kind = PROBE_FEXIT, .name = "fexit",
    .flags = KIND_FREQUENT | KIND_AT_RETURN | KIND_FUNC_IP, .lower_target = lower_target, .lower_entry = lower_entry,
    .probe_fields = PROBE_FIELDS_KPROBE,
    .register_place = register_place, .register_value = register_arg_on_trampoline,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_TRACING, .attach = attach_trampoline,
};
