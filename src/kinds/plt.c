/* process(...).plt and process(...).library(...).plt: a function called
 * through its PLT entry (SystemTap's .plt probes, its ltrace.stp). The
 * resolver (sema/uprobe_plt.c) makes uprobes and uretprobes at the stubs:
 * this kind labels no probe of its own, the uprobe kinds load and attach
 * them. */
#include "kinds/kinds.h"
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
    .kind = PROBE_PLT, .name = "plt",
    .heads = (const char *const[]){"process.plt", "process.library.plt", NULL}, .resolve = resolve_plt,
    .catalogue = catalogue,
};
