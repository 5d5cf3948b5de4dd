/* kernel.function("name"), kernel.statement, module("m").function and
 * kprobe.*: tap does not attach kernel functions yet; the refusal says
 * what this kernel offers (sema/kernel_functions.c checks it). */
#include "kinds/kinds.h"
#include "sema/sema_internal.h"

static int resolve_kernel_function(struct sema *s, struct probe_point *point, struct probe *probe)
{
    (void)probe;
    int usable;
    const char *support = sema_kernel_function_support(s, &usable);
    const char *text = arena_printf(s->arena, "probe point %s needs kprobes or BPF trampolines: this kernel %s%s",
                                    sema_point_text(s, point), support,
                                    usable ? ", but tap does not attach kernel functions yet" : "");
    return sema_point_error(s, point, point->components->span, "%s", text);
}

const struct probe_kind_ops fentry_kind = {
    .kind = PROBE_FENTRY, .name = "fentry",
    .heads = (const char *const[]){"kernel", "module", "kprobe", NULL}, .resolve = resolve_kernel_function,
};
