/* kernel.lsm("HOOK"): a BPF LSM program on a Linux Security Module hook
 * (SystemTap's BPF runtime has it; tapsets/lsm.tp names the common hooks
 * lsm.HOOK). The program runs on the kernel's bpf_lsm_HOOK trampoline, so
 * its arguments are those of bpf_lsm_HOOK's BTF prototype ($file, $dentry
 * ...), as a kernel.function's; $ctx is the first of them, as SystemTap's
 * (a number: use the named arguments or @cast for members). tap only
 * observes: the program always returns 0, no objection, so the other LSMs
 * decide as before. Writing $return to deny an operation is SystemTap's
 * guru mode, refused like the rest of it. Needs BPF trampolines and "bpf"
 * among the kernel's active LSMs (CONFIG_LSM or lsm= at boot). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "runtime/attach.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"

#define LSM_PREFIX "bpf_lsm_"

static int refuse(struct sema *s, struct probe_point *point, const char *why)
{
    return sema_point_error(s, point, point->components->span, "%s", why);
}

/* 1: "bpf" is an active LSM; 0: it is not; -1: unknown (no securityfs). */
static int bpf_lsm_active(void)
{
    FILE *f = fopen("/sys/kernel/security/lsm", "r");
    if (!f)
        return -1;
    char list[512] = "";
    if (!fgets(list, sizeof(list), f))
        list[0] = 0;
    fclose(f);
    char *rest = NULL;
    for (char *name = strtok_r(list, ",\n", &rest); name; name = strtok_r(NULL, ",\n", &rest))
        if (strcmp(name, "bpf") == 0)
            return 1;
    return 0;
}

static int add_hook(struct sema *s, struct probe *probe, const char *hook, int btf_id, int wildcard)
{
    struct probe *match = sema_add_probe_copy(s, probe);   /* $arguments are lowered per hook */
    match->kind = PROBE_LSM;
    match->function = arena_strdup(s->arena, hook);
    match->kprobe.btf_id = btf_id;
    match->point = arena_printf(s->arena, "kernel.lsm(\"%s\")", hook);
    match->may_skip = wildcard;
    return 1;
}

static int resolve_lsm(struct sema *s, struct probe_point *point, struct probe *probe)
{
    const char *text = sema_point_text(s, point);
    const struct probe_component *lsm = point->components->next;
    if (point->components->arg_kind != PROBE_ARG_NONE || lsm->arg_kind != PROBE_ARG_STRING || lsm->next)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: an LSM hook is kernel.lsm(\"HOOK\") "
                                             "(or the tapset's lsm.HOOK)", text));
    struct kernel_support support = {.fentry = 1};
    const char *offered = s->options->listing ? NULL : sema_kernel_function_support(s, &support);
    if (!support.fentry)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: a BPF LSM program runs on a BPF "
                                             "trampoline: this kernel %s", text, offered));
    if (!s->options->listing && bpf_lsm_active() == 0)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: BPF LSM is not active on this kernel "
                                             "(/sys/kernel/security/lsm has no \"bpf\"): boot it with \"bpf\" in "
                                             "lsm=", text));
    struct btf *btf = sema_kernel_btf(s);
    if (!btf)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: the kernel's BTF cannot be read", text));
    const char *pattern = lsm->arg_string;
    int wildcard = strpbrk(pattern, "*?[") != NULL, added = 0;
    for (int id = 1; id < (int)btf__type_cnt(btf); id++) {
        const struct btf_type *t = btf__type_by_id(btf, (unsigned)id);
        const char *name = btf_is_func(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
        if (name && strncmp(name, LSM_PREFIX, strlen(LSM_PREFIX)) == 0 &&
            fnmatch(pattern, name + strlen(LSM_PREFIX), 0) == 0)
            added += add_hook(s, probe, name + strlen(LSM_PREFIX), id, wildcard);
    }
    if (!added)
        return refuse(s, point, arena_printf(s->arena, "while resolving probe point: %s matched no LSM hook (the "
                                             "kernel's BTF has no %s%s)", text, LSM_PREFIX, pattern));
    return added;
}

static int has_param(struct btf *btf, const struct btf_type *proto, const char *name)
{
    for (int i = 0; i < btf_vlen(proto); i++)
        if (strcmp(btf__name_by_offset(btf, btf_params(proto)[i].name_off), name) == 0)
            return 1;
    return 0;
}

/* $ctx (SystemTap's: the first argument, as a number), the hook's named
 * arguments; $return is refused. */
static int lower_target(struct sema *s, struct expr *e)
{
    if (strcmp(e->target.name, "return") == 0) {
        diag_error(s->diags, e->span, "$return of an LSM probe is the hook's decision, and writing it denies the "
                   "operation: SystemTap's guru mode (-g), which tap refuses; tap's LSM probes only observe");
        return 0;
    }
    struct btf *btf = sema_kernel_btf(s);
    const struct btf_type *func = btf ? btf__type_by_id(btf, (unsigned)s->probe->kprobe.btf_id) : NULL;
    const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
    if (proto && strcmp(e->target.name, "ctx") == 0 && btf_vlen(proto) > 0 && !has_param(btf, proto, "ctx")) {
        if (e->target.components || e->target.address_of || e->target.pretty) {
            diag_error(s->diags, e->span, "$ctx is the hook's first argument as a number: name the argument "
                       "($%s) for its members, or @cast($ctx, \"TYPE\", \"kernel\")",
                       btf__name_by_offset(btf, btf_params(proto)[0].name_off));
            return 0;
        }
        e->target.name = btf__name_by_offset(btf, btf_params(proto)[0].name_off);
    }
    int lowered = proto ? sema_lower_btf_argument(s, btf, proto, 0, e, NULL) : -1;
    if (lowered < 0)
        diag_error(s->diags, e->span, "$%s is not an argument of LSM hook %s ($ctx is its first)", e->target.name,
                   s->probe->function);
    return lowered > 0;
}

static enum register_place register_place(const struct sema *s)
{
    (void)s;
    return REGISTERS_AT_ENTRY;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "kernel.lsm(string)");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    return arena_printf(arena, "lsm/%s", probe->function);
}

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    out->tp_name = strdup(probe->function);
}

static int attach_lsm(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)index;
    (void)state;
    struct bpf_link *link = bpf_program__attach_lsm(prog);
    if (!link)
        return -errno;
    return add_link(s, link);
}

const struct probe_kind_ops lsm_kind = {
    .kind = PROBE_LSM, .name = "lsm", .flags = KIND_FREQUENT,
    .probe_fields = PROBE_FIELDS_KPROBE,
    .heads = (const char *const[]){"kernel.lsm", NULL}, .resolve = resolve_lsm, .catalogue = catalogue,
    .lower_target = lower_target, .register_place = register_place, .register_value = register_arg_on_trampoline,
    .section = section, .describe = describe, .prog_type = BPF_PROG_TYPE_LSM, .attach = attach_lsm,
};
