/* `never`: a probe whose body is checked as any other's, then dropped
 * (sema_drop_never_probes) so nothing is generated or attached. */
#include "kinds/kinds.h"
#include "sema/sema_internal.h"

static int resolve_never(struct sema *s, struct probe_point *point, struct probe *probe)
{
    if (point->components->next || point->components->arg_kind != PROBE_ARG_NONE)
        return sema_point_error(s, point, point->components->span,
                                "while resolving probe point: unknown probe point %s", sema_point_text(s, point));
    probe->kind = PROBE_NEVER;
    sema_add_probe(s, probe);
    return 1;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "never");
}

const struct probe_kind_ops never_kind = {
    .kind = PROBE_NEVER, .name = "never", .flags = KIND_CHECK_ONLY,
    .heads = (const char *const[]){"never", NULL}, .resolve = resolve_never, .catalogue = catalogue,
};
