/* The registry of probe kinds: each kind's descriptor by its enum value
 * (the list is probe_kind.h's), and the kind resolving a probe point. */
#include <string.h>

#include "kinds/kinds.h"
#include "parser/ast.h"

#define DECLARE_KIND(kind, ops) extern const struct probe_kind_ops ops;
PROBE_KIND_LIST(DECLARE_KIND)

#define KIND_ENTRY(kind, ops) [kind] = &ops,
static const struct probe_kind_ops *const kinds[PROBE_KIND_COUNT] = {PROBE_KIND_LIST(KIND_ENTRY)};

const struct probe_kind_ops *probe_kind_ops(enum probe_kind kind)
{
    return (unsigned)kind < PROBE_KIND_COUNT ? kinds[kind] : NULL;
}

/* How many leading components the dotted head matches: all of its parts or 0. */
static int head_match(const char *head, const struct probe_component *c)
{
    int matched = 0;
    for (const char *part = head; *part; matched++, c = c->next) {
        size_t n = strcspn(part, ".");
        if (!c || strlen(c->name) != n || strncmp(c->name, part, n) != 0)
            return 0;
        part += n + (part[n] == '.');
    }
    return matched;
}

const struct probe_kind_ops *probe_kind_for_point(const struct probe_point *point)
{
    const struct probe_kind_ops *best = NULL;
    int best_length = 0;
    for (int k = 0; k < PROBE_KIND_COUNT; k++)
        for (const char *const *head = kinds[k]->heads; head && *head; head++) {
            int length = head_match(*head, point->components);
            if (length > best_length) {
                best = kinds[k];
                best_length = length;
            }
        }
    return best;
}
