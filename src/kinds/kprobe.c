/* Kernel functions on kprobes and kretprobes: kprobe.function("name") and
 * .return (SystemTap's dwarfless probes: int_arg(n), returnval() ...), and
 * kernel.function(...) where the kernel cannot use a BPF trampoline for it
 * (kinds/kernel_function.c decides, TAP_KERNEL_PROBES=kprobe forces it).
 * The context is the probed thread's struct pt_regs, copied into scratch as
 * a process probe's is (codegen/probed_thread.c): $arguments of kernel.function
 * are its argument registers, typed from BTF; in .return they are the
 * values at the call, saved by an entry kprobe keyed by thread and frame,
 * as @entry(...) is. A body that reads no $variable serves every function
 * a wildcard matched from one program, pp() and ppfunc() by cookie: one
 * kprobe_multi link where the kernel has them, else a perf-event kprobe
 * per function. kernel.statement(ADDRESS) is a kprobe at function+offset (below). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "kinds/kprobe.h"
#include "sema/btf_types.h"
#include "runtime/attach.h"
#include "runtime/symbols.h"
#include "sema/dwarf.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"

/* DWARF numbers of rdi, rsi, rdx, rcx, r8, r9: the x86-64 argument registers. */
static const int argument_registers[] = {5, 4, 1, 2, 8, 9};
#define DWARF_REG_RAX 0
#define DWARF_REG_RSP 7

/* --- which bodies can share one program ----------------------------------- */

static void note_target(struct expr *e, void *data)
{
    if (e->kind == EXPR_TARGET || e->kind == EXPR_ENTRY || e->kind == EXPR_DEFINED)
        *(int *)data = 1;
}

/* Whether the body (or condition) reads a $variable, @entry or @defined:
 * code that differs from one function to the next. */
int kprobe_body_reads_targets(const struct probe *probe)
{
    int reads = 0;
    ast_visit_exprs(probe->body, note_target, &reads);
    if (probe->condition) {
        struct stmt holder = {.kind = STMT_EXPR, .expr = probe->condition};
        ast_visit_exprs(&holder, note_target, &reads);
    }
    return reads;
}

struct probe *kprobe_add_function(struct sema *s, const struct probe *model, const char *name, int btf_id,
                                  int is_return, const char *point, struct probe **leader, int multi)
{
    struct probe *probe = sema_add_probe_copy(s, model);
    probe->kind = is_return ? PROBE_KRETPROBE : PROBE_KPROBE;
    probe->function = arena_strdup(s->arena, name);
    probe->kprobe.btf_id = btf_id;
    probe->point = point;
    probe->kprobe.multi = multi;
    if (leader && !kprobe_body_reads_targets(probe)) {
        if (*leader && (*leader)->kind == probe->kind)
            sema_join_group(s, *leader, probe);
        else
            *leader = probe;
    }
    return probe;
}

/* --- kprobe.function("name")[.return] ------------------------------------ */

static int refuse(struct sema *s, struct probe_point *point, const char *why)
{
    return sema_point_error(s, point, point->components->span, "%s", why);
}

/* --- kernel.statement(ADDRESS)[.absolute] -------------------------------- */

static int refuse_blacklisted(struct sema *s, struct probe_point *point, const char *text, const char *function)
{
    const struct kernel_lists *lists = kernel_read_lists(s);
    if (lists->blacklist.names && kernel_names_has(&lists->blacklist, function))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: kernel function %s is on the kprobe blacklist",
                                             text, function));
    return 0;
}

/* kernel.statement("FUNCTION@FILE:LINE"), LINE also "*", "2*" or "20-30":
 * each line's first address in vmlinux DWARF (sema/dwarf_kernel.c), a
 * kprobe at function+offset whose $variables are those in scope there,
 * read from DWARF's locations over pt_regs as a process statement's are. */
static int resolve_statement_line(struct sema *s, struct probe_point *point, struct probe *probe, const char *spec)
{
    const char *text = sema_point_text(s, point);
    char error[512];
    struct dwarf_module *m = dwarf_kernel_open(s->options->modules, error, sizeof(error));
    if (!m)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: a kernel statement by source line needs "
                                             "the kernel's DWARF: %s", text, error));
    struct function_pattern pattern, in_file;
    uprobe_parse_pattern(s->arena, spec, &pattern);
    if (!pattern.file || (!pattern.line && !pattern.line_text && !pattern.any_line) || pattern.scope_count ||
        strpbrk(pattern.function, "*?[{"))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: tap probes kernel statements by source line "
                                             "as kernel.statement(\"FUNCTION@FILE:LINE\"), one function by name", text));
    struct dwarf_function *f = ARENA_NEW(s->arena, struct dwarf_function);
    if (!dwarf_kernel_function(s->arena, m, pattern.function, f))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: the kernel's DWARF (%s) has no function %s",
                                             text, m->path, pattern.function));
    const char *source = dwarf_kernel_source(s->arena, m, f);
    in_file = pattern;
    in_file.line = in_file.any_line = 0;
    in_file.line_text = NULL;
    if (!uprobe_function_matches(&in_file, f))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: kernel function %s is in %s, not %s", text,
                                             f->name, source, pattern.file));
    struct kernel_support support = {.kprobes = 1};
    const char *offered = s->options->listing ? NULL : sema_kernel_function_support(s, &support);
    if (!support.kprobes)
        return refuse(s, point, arena_printf(s->arena, "probe point %s needs kprobes: this kernel %s", text, offered));
    if (refuse_blacklisted(s, point, text, f->name))
        return 0;
    struct line_address *lines;
    int n = uprobe_function_lines(m, f, &lines), count = 0;
    for (int k = 0; k < n; k++) {
        if (!uprobe_line_matches(&pattern, lines[k].line))
            continue;
        struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
        *site = (struct uprobe_site){.module = m, .function = f, .pc = lines[k].pc, .is_statement = 1,
                                     .line = lines[k].line, .at_entry = lines[k].pc == f->entry};
        const char *pp = arena_printf(s->arena, "kernel.statement(\"%s@%s:%d\")", f->name, source, lines[k].line);
        struct probe *added = kprobe_add_function(s, probe, f->name, 0, 0, pp, NULL, 0);
        added->kprobe.offset = lines[k].pc - f->entry;
        added->kprobe.site = site;
        added->may_skip = point->optional;
        count++;
    }
    int first = n ? lines[0].line : 0, last = n ? lines[n - 1].line : 0;
    free(lines);
    if (!count)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: no statement of kernel function %s is at line "
                                             "%s of %s (its statements are on lines %d-%d)", text, f->name, strrchr(spec, ':') + 1,
                                             source, first, last));
    return count;
}

/* A kprobe at an address from /proc/kallsyms, attached as function+offset
 * (the kernel checks that it is an instruction boundary in probeable text).
 * No $variables: which are live there is DWARF's to say. By source line
 * ("func@file:line"): resolve_statement_line. */
static int resolve_statement(struct sema *s, struct probe_point *point, struct probe *probe)
{
    const char *text = sema_point_text(s, point);
    const struct probe_component *statement = point->components->next;
    const struct probe_component *suffix = statement ? statement->next : NULL;
    if (!statement || strcmp(statement->name, "statement") != 0 || statement->arg_kind == PROBE_ARG_NONE ||
        (suffix && (suffix->next || suffix->arg_kind != PROBE_ARG_NONE || strcmp(suffix->name, "absolute") != 0)))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: tap probes kernel statements as "
                                             "kernel.statement(ADDRESS)[.absolute] only", text));
    if (statement->arg_kind == PROBE_ARG_STRING && !suffix)
        return resolve_statement_line(s, point, probe, statement->arg_string);
    if (statement->arg_kind == PROBE_ARG_STRING)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: .absolute takes an address, as in "
                                             "kernel.statement(ADDRESS).absolute", text));
    uint64_t address = (uint64_t)statement->arg_int;
    text = arena_printf(s->arena, "kernel.statement(0x%llx)%s", (unsigned long long)address, suffix ? ".absolute" : "");
    struct kernel_support support = {.kprobes = 1};
    const char *offered = s->options->listing ? NULL : sema_kernel_function_support(s, &support);
    if (!support.kprobes)
        return refuse(s, point, arena_printf(s->arena, "probe point %s needs kprobes: this kernel %s", text, offered));
    struct symbols *symbols = symbols_new();
    struct symbol_hit hit;
    const char *function = NULL;
    if (symbols_find_kernel(symbols, address, &hit) == 0 && hit.name)
        function = arena_strdup(s->arena, hit.name);
    symbols_free(symbols);
    if (!function)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: 0x%llx is in no kernel function "
                                             "(/proc/kallsyms; it shows no addresses to users without "
                                             "CAP_SYSLOG)", text, (unsigned long long)address));
    if (refuse_blacklisted(s, point, text, function))
        return 0;
    struct probe *added = kprobe_add_function(s, probe, function, 0, 0, text, NULL, 0);
    added->kprobe.offset = hit.offset;
    added->may_skip = point->optional;
    return 1;
}

/* Matches the kernel's traceable functions (or, where that list cannot be
 * read, BTF's): names only, no types, as SystemTap's dwarfless probes. */
static int resolve_kprobe(struct sema *s, struct probe_point *point, struct probe *probe)
{
    struct kernel_support support = {.kprobes = 1};   /* -L: listed, never attached */
    if (strcmp(point->components->name, "kernel") == 0)
        return resolve_statement(s, point, probe);
    const char *offered = s->options->listing ? NULL : sema_kernel_function_support(s, &support);
    const char *text = sema_point_text(s, point);
    if (!support.kprobes)
        return refuse(s, point, arena_printf(s->arena, "probe point %s needs kprobes: this kernel %s", text, offered));
    const char *pattern;
    int is_return;
    if (point->components->arg_kind != PROBE_ARG_NONE ||
        !kernel_function_components(point->components->next, &pattern, &is_return))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: tap probes kprobes as "
                                             "kprobe.function(\"NAME\")[.call|.return] only", text));
    const struct kernel_lists *lists = kernel_read_lists(s);
    struct btf *btf = lists->traceable.names ? NULL : sema_kernel_btf(s);
    size_t candidates = btf ? btf__type_cnt(btf) : lists->traceable.count;
    int wildcard = strpbrk(pattern, "*?[") != NULL, count = 0;
    const char *refusal = NULL, *previous = "";
    struct probe *leader = NULL;
    for (size_t i = btf ? 1 : 0; i < candidates; i++) {
        const char *name = lists->traceable.names ? lists->traceable.names[i] : NULL;
        if (btf) {
            const struct btf_type *t = btf__type_by_id(btf, (unsigned)i);
            name = btf_is_func(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
        }
        if (!name || strcmp(name, previous) == 0 || fnmatch(pattern, name, 0) != 0)
            continue;   /* the list repeats a name defined in several files */
        previous = name;
        const char *why = kernel_untraceable(lists, name);
        if (!why && !s->options->listing)
            why = kernel_ambiguous(s, lists, name, 1);
        if (why) {
            refusal = arena_printf(s->arena, "kernel function %s cannot be probed: %s", name, why);
            continue;
        }
        const char *pp = arena_printf(s->arena, "kprobe.function(\"%s\")%s", name, is_return ? ".return" : "");
        struct probe *added = kprobe_add_function(s, probe, name, 0, is_return, pp, wildcard ? &leader : NULL,
                                                  support.kprobe_multi);
        added->may_skip = wildcard || point->optional;
        count++;
    }
    if (!count && refusal && !wildcard)
        return refuse(s, point, refusal);
    if (!count)
        return refuse(s, point, arena_printf(s->arena, "while resolving probe point: %s matched no kernel function", text));
    return count;
}

/* --- $arguments and @entry ------------------------------------------------- */

static struct expr *register_value(struct sema *s, struct span span, int reg, int size, int is_signed)
{
    struct dwarf_eval ev = {.arena = s->arena, .span = span};
    return dwarf_expr_narrow(&ev, dwarf_expr_reg(&ev, reg), size, is_signed);
}

/* Saves `value` at the call (the entry kprobe computes it); returns the
 * pseudo register the .return probe reads it from, or -1 when full. The
 * key is the frame's CFA: rsp + 8 at the entry, rsp after the return (the
 * kretprobe trampoline reports it so). */
static int add_snapshot(struct sema *s, struct expr *value)
{
    struct probe *probe = s->probe;
    if (probe->entry_count == MAX_ENTRY_SNAPSHOTS)
        return -1;
    if (!probe->entry_key)
        probe->entry_key = register_value(s, value->span, DWARF_REG_RSP, 8, 0);
    if (!probe->entry_values)
        probe->entry_values = ARENA_ARRAY(s->arena, struct expr *, MAX_ENTRY_SNAPSHOTS);
    probe->entry_values[probe->entry_count] = value;
    return DWARF_REG_ENTRY_SNAPSHOT + probe->entry_count++;
}

static struct expr *too_many_entry_values(struct sema *s, struct span span)
{
    diag_error(s->diags, span, "too many @entry values in one probe (at most %d)", MAX_ENTRY_SNAPSHOTS);
    return NULL;
}

/* The argument register that holds argument `index`, as the x86-64 ABI
 * passes them: a struct returned over 16 bytes takes the first (its
 * address), a struct argument of up to 16 bytes one or two, a larger one
 * none (it is on the stack); -1 for an argument on the stack. */
static int argument_register_slot(struct sema *s, int index)
{
    struct btf *btf = sema_probe_btf(s, s->probe->kprobe.module);
    const struct btf_type *func = btf ? btf__type_by_id(btf, (unsigned)s->probe->kprobe.btf_id) : NULL;
    const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
    if (!proto)
        return index;
    int slot = btf_record_size(btf, (int)proto->type) > 16;
    for (int i = 0; i < index; i++) {
        int size = btf_record_size(btf, (int)btf_params(proto)[i].type);
        slot += !size ? 1 : size <= 8 ? 1 : size <= 16 ? 2 : 0;
    }
    int size = btf_record_size(btf, (int)btf_params(proto)[index].type);
    return size > 16 ? -1 : slot + (size > 8) > 5 ? 6 : slot;
}

/* The stack word (0: the first after the return address) that holds
 * argument `index`, when it and every argument before it is one word (no
 * struct passed by value: those change which arguments go where); -1: in
 * a register, or not known. */
static int stack_argument_word(struct sema *s, int index)
{
    struct btf *btf = sema_probe_btf(s, s->probe->kprobe.module);
    const struct btf_type *func = btf ? btf__type_by_id(btf, (unsigned)s->probe->kprobe.btf_id) : NULL;
    const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
    if (!proto || index < 6 || btf_record_size(btf, (int)proto->type) > 16)
        return -1;
    for (int i = 0; i <= index; i++) {
        const struct btf_type *t = btf__type_by_id(btf, (unsigned)btf__resolve_type(btf, btf_params(proto)[i].type));
        if (!t || btf_is_composite(t) || btf_record_size(btf, (int)btf_params(proto)[i].type) > 8)
            return -1;
    }
    return index - 6;
}

/* Argument `index` of the probed function (its return value at index
 * vlen): a register at the entry; in a kretprobe, $return is rax and an
 * argument the register saved at the call. */
static struct expr *read_argument(struct sema *s, struct expr *e, int index, int size, int is_signed)
{
    int is_return = strcmp(e->target.name, "return") == 0;
    if (is_return)
        return register_value(s, e->span, DWARF_REG_RAX, size, is_signed);
    int slot = argument_register_slot(s, index);
    int word = stack_argument_word(s, index);
    if (word >= 0) {
        /* at the entry, [rsp] is the return address and the stack's arguments follow it */
        struct dwarf_eval ev = {.arena = s->arena, .span = e->span};
        struct expr *address = dwarf_expr_add(&ev, dwarf_expr_reg(&ev, DWARF_REG_RSP),
                                              dwarf_expr_int(&ev, 8 + 8 * word));
        struct expr *value = dwarf_expr_read(&ev, address, size > 0 && size < 8 ? size : 8, is_signed);
        value->user_read.kernel = 1;
        if (s->probe->kind != PROBE_KRETPROBE || s->at_call)
            return value;
        int reg = add_snapshot(s, value);
        return reg < 0 ? too_many_entry_values(s, e->span) : register_value(s, e->span, reg, size, is_signed);
    }
    if (slot < 0 || slot >= 6) {
        diag_error(s->diags, e->span, "$%s is argument %d of kernel function %s: kprobes read the 6 argument "
                   "registers, and it is passed %s", e->target.name, index + 1, s->probe->function,
                   slot < 0 ? "on the stack (a struct over 16 bytes)" : "after them");
        return NULL;
    }
    struct expr *value = register_value(s, e->span, argument_registers[slot], size, is_signed);
    if (s->probe->kind != PROBE_KRETPROBE || s->at_call)
        return value;
    int reg = add_snapshot(s, value);
    return reg < 0 ? too_many_entry_values(s, e->span) : register_value(s, e->span, reg, size, is_signed);
}

static int lower_target(struct sema *s, struct expr *e)
{
    if (s->probe->kind == PROBE_KPROBE && s->probe->kprobe.site)
        return sema_lower_target(s, e);   /* a statement by line, a clone's entry: vmlinux DWARF */
    struct btf *btf = s->probe->kprobe.btf_id ? sema_probe_btf(s, s->probe->kprobe.module) : NULL;
    const struct btf_type *func = btf ? btf__type_by_id(btf, (unsigned)s->probe->kprobe.btf_id) : NULL;
    const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
    int is_return = s->probe->kind == PROBE_KRETPROBE && !s->at_call;
    if (!proto && s->probe->kprobe.symbol) {
        diag_error(s->diags, e->span, "$%s: kernel function %s is compiled as its clone %s, whose arguments are not the "
                   "source's (GCC drops and splits them) and which BTF does not type: tap reads its $variables from the kernel's DWARF, at its entry",
                   e->target.name, s->probe->function, s->probe->kprobe.symbol);
        return 0;
    }
    if (!proto) {
        diag_error(s->diags, e->span, "$%s: kprobe.function and kernel.statement probes have no target variables (no types): "
                   "int_arg(n), pointer_arg(n) ... read the arguments%s", e->target.name,
                   is_return ? ", returnval() the return value" : "");
        return 0;
    }
    int lowered = sema_lower_btf_argument(s, btf, proto, is_return, e, read_argument);
    if (lowered < 0)
        diag_error(s->diags, e->span, "$%s is not an argument of kernel function %s%s", e->target.name,
                   s->probe->function, is_return ? "" : " ($return is known in .return)");
    return lowered > 0;
}

/* @entry(expr) in a kretprobe: expr is lowered and resolved as at the call
 * (its $arguments are the registers there), and the entry kprobe saves it. */
static int lower_entry(struct sema *s, struct expr *e)
{
    if (s->probe->kind != PROBE_KRETPROBE) {
        diag_error(s->diags, e->span, "@entry is only available in .return probes");
        return 0;
    }
    struct expr *operand = e->unary_at.operand;
    int errors = s->diags->error_count, saved = s->at_call;
    s->at_call = 1;
    sema_resolve_expr(s, operand);
    s->at_call = saved;
    if (s->diags->error_count != errors)
        return 0;
    int reg = add_snapshot(s, operand);
    if (reg < 0)
        return too_many_entry_values(s, e->span) != NULL;
    sema_become_snapshot(e, reg);
    return 1;
}

/* --- codegen and runtime --------------------------------------------------- */

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "kprobe.function(string)");
    add(lines, "kprobe.function(string).call");
    add(lines, "kprobe.function(string).return");
    add(lines, "kernel.statement(number)");
    add(lines, "kernel.statement(string)");
    add(lines, "kernel.statement(number).absolute");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    const char *kind = probe->kind == PROBE_KRETPROBE ? "kretprobe" : "kprobe";
    if (probe->group_count > 1 && probe->kprobe.multi)
        return arena_printf(arena, "%s.multi/%s", kind, probe->function);
    return arena_printf(arena, "%s/%s", kind, probe->function);
}

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    out->tp_name = strdup(probe->kprobe.symbol ? probe->kprobe.symbol : probe->function);
    out->cookie = probe->cookie;
    out->may_skip = probe->may_skip;
}

/* Every probe of this program (one per function a wildcard matched) in one
 * kprobe_multi link, each function with its cookie. */
static int attach_multi(struct session *s, struct bpf_program *prog, int first, char *state)
{
    const struct program *program = s->program;
    const struct program_probe *head = &program->probes[first];
    size_t n = (size_t)program->probe_count;
    const char **syms = calloc(n, sizeof(*syms));
    __u64 *cookies = calloc(n, sizeof(*cookies));
    int count = 0, err = 0;
    for (int i = first; syms && cookies && i < program->probe_count; i++) {
        const struct program_probe *p = &program->probes[i];
        if (state[i] != PROBE_PENDING || p->kind != head->kind || strcmp(p->prog_name, head->prog_name) != 0)
            continue;
        syms[count] = p->tp_name;
        cookies[count++] = p->cookie;
        state[i] = PROBE_CLAIMED;
    }
    LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = syms, .cookies = cookies, .cnt = (size_t)count,
                .retprobe = head->kind == PROBE_KRETPROBE);
    struct bpf_link *link = syms && cookies ? bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts) : NULL;
    err = link ? add_link(s, link) : -(errno ? errno : ENOMEM);
    free(syms);
    free(cookies);
    if (!link) {   /* the kernel names no function: not one to skip, all of them would go */
        fprintf(stderr, "ERROR: cannot attach probe %s and the %d other kernel functions its wildcard matched "
                "(one kprobe_multi link): %s\n", head->point, count - 1, strerror(-err));
        return ATTACH_REPORTED;
    }
    return err;
}

static int attach_kprobe(struct session *s, struct bpf_program *prog, int index, char *state)
{
    const struct program_probe *probe = &s->program->probes[index];
    const char *section_name = bpf_program__section_name(prog);
    if (strstr(section_name, ".multi/"))
        return attach_multi(s, prog, index, state);
    LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = probe->cookie, .offset = probe->offset,
                .retprobe = probe->kind == PROBE_KRETPROBE);
    struct bpf_link *link = bpf_program__attach_kprobe_opts(prog, probe->tp_name, &opts);
    if (!link)
        return -errno;
    s->slow_detach = 1;   /* a perf-event kprobe's close waits for an RCU grace period */
    return add_link(s, link);
}

static const char *attach_error(const struct program_probe *probe, int err)
{
    if (err == -EADDRNOTAVAIL)   /* number_of_same_symbols, as sema's kernel_ambiguous counts */
        return "the kernel refuses a kprobe on a name several of its symbols share";
    if (err == -EILSEQ)   /* register_kprobe decodes the function from its start */
        return probe->offset ? "the kernel's kprobes refuse the address: not the start of an instruction"
                             : "the kernel's kprobes refuse the function's entry";
    return NULL;
}

static enum register_place register_place(const struct sema *s)
{
    return s->probe->kind == PROBE_KRETPROBE && !s->at_call ? REGISTERS_AT_RETURN : REGISTERS_AT_ENTRY;
}

/* In a kretprobe (not in its @entry), only the return register still
 * holds what the function left there. */
static struct expr *kretprobe_register_value(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                             int reg)
{
    if (s->probe->kind == PROBE_KRETPROBE && !s->at_call && !f->returned && !f->by_name) {
        /* the argument registers are the callee's scratch by then */
        diag_error(s->diags, e->span, "%s in a .return probe would read the register at the return: "
                   "@entry(%s(...)) reads it at the call", f->name, f->name);
        return NULL;
    }
    return register_arg_in_register(s, f, e, reg);
}

const struct probe_kind_ops kprobe_kind = {
    .kind = PROBE_KPROBE, .name = "kprobe", .flags = KIND_FREQUENT | KIND_PT_REGS | KIND_FUNC_IP,
    .probe_fields = PROBE_FIELDS_KPROBE,
    .heads = (const char *const[]){"kprobe", "kernel.statement", NULL}, .resolve = resolve_kprobe, .catalogue = catalogue,
    .lower_target = lower_target, .lower_entry = lower_entry, .register_place = register_place,
    .section = section, .describe = describe,
    .prog_type = BPF_PROG_TYPE_KPROBE, .attach = attach_kprobe, .attach_error = attach_error,
};

/* made by kprobe's and kernel.function's resolvers for .return */
const struct probe_kind_ops kretprobe_kind = {
    .kind = PROBE_KRETPROBE, .name = "kretprobe", .flags = KIND_FREQUENT | KIND_PT_REGS | KIND_AT_RETURN | KIND_FUNC_IP | KIND_RETURN_PROBE,
    .probe_fields = PROBE_FIELDS_KPROBE,
    .entry_kind = PROBE_KPROBE,
    .lower_target = lower_target, .lower_entry = lower_entry, .register_place = register_place,
    .register_value = kretprobe_register_value, .section = section, .describe = describe,
    .prog_type = BPF_PROG_TYPE_KPROBE, .attach = attach_kprobe, .attach_error = attach_error,
};
