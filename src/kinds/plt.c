/* process(...).plt and process(...).library(...).plt: a function called
 * through its PLT entry (SystemTap's .plt probes, its ltrace.stp). The
 * resolver (sema/uprobe_plt.c) makes its probes at the stubs, plt at the
 * call and plt_return at its return: uprobes and uretprobes there, which
 * the uprobe kind's hooks (kinds/uprobe.h) generate, load and attach. */
#include "kinds/kinds.h"
#include "kinds/uprobe.h"
#include "sema/uprobe.h"

static int resolve_plt(struct sema *s, struct probe_point *point, struct probe *probe)
{
    return sema_resolve_plt(s, probe->body, point, probe->frame);
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    static const char *const forms[] = {
        "process.plt", "process.plt.return", "process.plt(string)", "process.plt(string).return",
        "process(string).plt", "process(string).plt.return", "process(string).plt(string)",
        "process(string).plt(string).return", "process(number).plt", "process(number).plt.return",
        "process(number).plt(string)", "process(number).plt(string).return",
        "process.library(string).plt", "process.library(string).plt.return",
        "process.library(string).plt(string)", "process.library(string).plt(string).return",
        "process(string).library(string).plt", "process(string).library(string).plt.return",
        "process(string).library(string).plt(string)", "process(string).library(string).plt(string).return",
    };
    for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++)
        add(lines, forms[i]);
}

const struct probe_kind_ops plt_kind = {
    .kind = PROBE_PLT, .name = "plt", .flags = UPROBE_FLAGS,
    .heads = (const char *const[]){"process.plt", "process.library.plt", NULL}, .resolve = resolve_plt,
    .catalogue = catalogue, .register_place = uprobe_hook_register_place, UPROBE_LOAD_AND_ATTACH,
};

/* made by plt's resolver, for .plt.return */
const struct probe_kind_ops plt_return_kind = {
    .kind = PROBE_PLT_RETURN, .name = "plt_return", .flags = URETPROBE_FLAGS,
    .register_place = uprobe_hook_register_place, UPROBE_LOAD_AND_ATTACH,
};
