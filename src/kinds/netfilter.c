/* netfilter.hook("NF_INET_LOCAL_IN").pf("NFPROTO_IPV4")[.priority("N")]
 * (and .pf(...).hook(...)): SystemTap's netfilter hooks as BPF netfilter
 * programs (BPF_PROG_TYPE_NETFILTER, attached by a BPF_NETFILTER link;
 * Linux 6.4 and later with CONFIG_NETFILTER_BPF_LINK, found by the
 * kernel's BTF having struct bpf_nf_ctx). The context is that struct,
 * {state, skb}, two words: $skb is the second, $in, $out, $hooknum and $pf
 * are members of the first (struct nf_hook_state), read as kernel function
 * arguments are (sema/tracepoint_args.c). The program's return value is
 * the packet's verdict: always NF_ACCEPT, since writing $verdict (guru mode
 * in SystemTap) is refused: tap offers no guru mode. The kernel's links
 * take IPv4 and IPv6 only, not ARP or bridge hooks. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "runtime/attach.h"
#include "sema/sema_internal.h"

/* Linux 6.4's uapi; Debian 12's headers (6.1) and libbpf 1.1 lack them */
#define BPF_PROG_TYPE_NETFILTER_ 32
#define BPF_NETFILTER_ 45
#define NF_ACCEPT_ 1

extern const struct probe_kind_ops netfilter_kind;

struct named { const char *name; int value; };

static const struct named families[] = {
    {"NFPROTO_IPV4", 2}, {"NFPROTO_IPV6", 10}, {"NFPROTO_ARP", 3}, {"NFPROTO_BRIDGE", 7}, {NULL, 0},
};

static const struct named hooks[] = {
    {"NF_INET_PRE_ROUTING", 0}, {"NF_INET_LOCAL_IN", 1}, {"NF_INET_FORWARD", 2},
    {"NF_INET_LOCAL_OUT", 3}, {"NF_INET_POST_ROUTING", 4},
    {"NF_IP_PRE_ROUTING", 0}, {"NF_IP_LOCAL_IN", 1}, {"NF_IP_FORWARD", 2},
    {"NF_IP_LOCAL_OUT", 3}, {"NF_IP_POST_ROUTING", 4},
    {"NF_IP6_PRE_ROUTING", 0}, {"NF_IP6_LOCAL_IN", 1}, {"NF_IP6_FORWARD", 2},
    {"NF_IP6_LOCAL_OUT", 3}, {"NF_IP6_POST_ROUTING", 4},
    {"NF_ARP_IN", 0}, {"NF_ARP_OUT", 1}, {"NF_ARP_FORWARD", 2},
    {"NF_BR_PRE_ROUTING", 0}, {"NF_BR_LOCAL_IN", 1}, {"NF_BR_FORWARD", 2},
    {"NF_BR_LOCAL_OUT", 3}, {"NF_BR_POST_ROUTING", 4}, {"NF_BR_BROUTING", 5}, {NULL, 0},
};

/* <linux/netfilter_ipv4.h>'s and <linux/netfilter_ipv6.h>'s priorities */
static const struct named priorities[] = {
    {"NF_IP_PRI_FIRST", INT_MIN}, {"NF_IP_PRI_RAW_BEFORE_DEFRAG", -450}, {"NF_IP_PRI_CONNTRACK_DEFRAG", -400},
    {"NF_IP_PRI_RAW", -300}, {"NF_IP_PRI_SELINUX_FIRST", -225}, {"NF_IP_PRI_CONNTRACK", -200},
    {"NF_IP_PRI_MANGLE", -150}, {"NF_IP_PRI_NAT_DST", -100}, {"NF_IP_PRI_FILTER", 0},
    {"NF_IP_PRI_SECURITY", 50}, {"NF_IP_PRI_NAT_SRC", 100}, {"NF_IP_PRI_SELINUX_LAST", 225},
    {"NF_IP_PRI_CONNTRACK_HELPER", 300}, {"NF_IP_PRI_CONNTRACK_CONFIRM", INT_MAX}, {"NF_IP_PRI_LAST", INT_MAX},
    {"NF_IP6_PRI_FIRST", INT_MIN}, {"NF_IP6_PRI_RAW_BEFORE_DEFRAG", -450}, {"NF_IP6_PRI_CONNTRACK_DEFRAG", -400},
    {"NF_IP6_PRI_RAW", -300}, {"NF_IP6_PRI_SELINUX_FIRST", -225}, {"NF_IP6_PRI_CONNTRACK", -200},
    {"NF_IP6_PRI_MANGLE", -150}, {"NF_IP6_PRI_NAT_DST", -100}, {"NF_IP6_PRI_FILTER", 0},
    {"NF_IP6_PRI_SECURITY", 50}, {"NF_IP6_PRI_NAT_SRC", 100}, {"NF_IP6_PRI_SELINUX_LAST", 225},
    {"NF_IP6_PRI_CONNTRACK_HELPER", 300}, {"NF_IP6_PRI_LAST", INT_MAX}, {NULL, 0},
};

/* A component's value: a name of the table, or a number (as a string too,
 * priority("255")); 0 when it is neither. */
static int named_value(const struct probe_component *c, const struct named *table, int *value)
{
    if (c->arg_kind == PROBE_ARG_INT) {
        *value = (int)c->arg_int;
        return c->arg_int >= INT_MIN && c->arg_int <= INT_MAX;
    }
    if (c->arg_kind != PROBE_ARG_STRING)
        return 0;
    for (const struct named *n = table; n->name; n++)
        if (strcmp(n->name, c->arg_string) == 0) {
            *value = n->value;
            return 1;
        }
    char *end;
    long number = strtol(c->arg_string, &end, 0);
    *value = (int)number;
    return *c->arg_string && !*end && number >= INT_MIN && number <= INT_MAX;
}

/* The kernel's BTF names the context only where BPF netfilter links exist. */
static int has_netfilter_links(struct sema *s)
{
    struct btf *btf = sema_kernel_btf(s);
    return btf && btf__find_by_name_kind(btf, "bpf_nf_ctx", BTF_KIND_STRUCT) > 0;
}

static int resolve_netfilter(struct sema *s, struct probe_point *point, struct probe *probe)
{
    const char *text = sema_point_text(s, point);
    const struct probe_component *hook = NULL, *pf = NULL, *priority = NULL, *first = point->components->next;
    if (!first || (strcmp(first->name, "hook") != 0 && strcmp(first->name, "pf") != 0))
        return RESOLVE_AS_ALIAS;   /* netfilter.ipv4.local_in ... (tapsets/netfilter.tp) */
    for (const struct probe_component *c = point->components->next; c; c = c->next) {
        const struct probe_component **slot = strcmp(c->name, "hook") == 0 ? &hook
                                              : strcmp(c->name, "pf") == 0 ? &pf
                                              : strcmp(c->name, "priority") == 0 ? &priority : NULL;
        if (!slot || *slot || (slot == &priority && (!hook || !pf)))
            return sema_point_error(s, point, c->span, "while resolving probe point: netfilter probes are "
                                    "netfilter.hook(\"HOOK\").pf(\"NFPROTO_...\") or .pf(...).hook(...), then "
                                    "optionally .priority(\"N\"): %s", text);
        *slot = c;
    }
    int pf_value, hook_value, priority_value = 0;
    if (!hook || !pf)
        return sema_point_error(s, point, point->components->span, "while resolving probe point: a netfilter "
                                "probe names its hook and protocol family, as in %s",
                                "netfilter.hook(\"NF_INET_LOCAL_IN\").pf(\"NFPROTO_IPV4\")");
    if (!named_value(pf, families, &pf_value))
        return sema_point_error(s, point, pf->span, "while resolving probe point: unknown protocol family "
                                "(NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP, NFPROTO_BRIDGE): %s", text);
    if (!named_value(hook, hooks, &hook_value) || hook_value < 0)
        return sema_point_error(s, point, hook->span, "while resolving probe point: unknown netfilter hook "
                                "(NF_INET_PRE_ROUTING ... NF_INET_POST_ROUTING and the NF_IP_, NF_IP6_, "
                                "NF_ARP_, NF_BR_ names): %s", text);
    if (priority && !named_value(priority, priorities, &priority_value))
        return sema_point_error(s, point, priority->span, "while resolving probe point: a netfilter priority is "
                                "a number or an NF_IP_PRI_/NF_IP6_PRI_ name: %s", text);
    if (!s->options->listing && !has_netfilter_links(s))
        return sema_point_error(s, point, point->components->span, "probe point %s needs BPF netfilter links "
                                "(BPF_PROG_TYPE_NETFILTER, Linux 6.4 and later with CONFIG_NETFILTER_BPF_LINK): "
                                "this kernel's BTF has no struct bpf_nf_ctx", text);
    if (pf_value != 2 && pf_value != 10)
        return sema_point_error(s, point, pf->span, "probe point %s: the kernel's BPF netfilter links take "
                                "NFPROTO_IPV4 and NFPROTO_IPV6 hooks only (ARP and bridge hooks need "
                                "SystemTap's kernel module)", text);
    if (hook_value > 4 || priority_value == INT_MIN || priority_value == INT_MAX)
        return sema_point_error(s, point, (hook_value > 4 ? hook : priority)->span, "probe point %s: the "
                                "kernel's BPF netfilter links take the five NF_INET hooks, at a priority "
                                "between NF_IP_PRI_FIRST and NF_IP_PRI_LAST (excluded)", text);
    probe->kind = PROBE_NETFILTER;
    probe->netfilter = (struct netfilter_probe){.pf = pf_value, .hooknum = hook_value, .priority = priority_value};
    sema_add_probe(s, probe);
    return 1;
}

#define VERDICT_REFUSAL "$verdict (a packet's fate: nf_drop drops it) is written in SystemTap's guru mode (-g), " \
                        "which tap does not offer: its netfilter probes observe, and accept every packet"

/* $skb is the context's second word; $in, $out, $hooknum and $pf are
 * members of struct nf_hook_state, its first. */
static int lower_target(struct sema *s, struct expr *e)
{
    static const struct { const char *name, *state_member; } names[] = {
        {"skb", NULL}, {"in", "in"}, {"out", "out"}, {"hooknum", "hook"}, {"pf", "pf"},
    };
    const char *name = e->target.name;
    if (strcmp(name, "verdict") == 0) {
        diag_error(s->diags, e->span, "%s", netfilter_kind.target_write_refusal);
        return 0;
    }
    struct btf *btf = sema_kernel_btf(s);
    int ctx_id = btf ? btf__find_by_name_kind(btf, "bpf_nf_ctx", BTF_KIND_STRUCT) : -1;
    const struct btf_type *ctx = ctx_id > 0 ? btf__type_by_id(btf, (unsigned)ctx_id) : NULL;
    for (size_t i = 0; ctx && i < sizeof(names) / sizeof(*names); i++) {
        if (strcmp(name, names[i].name) != 0)
            continue;
        int word = names[i].state_member ? 0 : 1;
        if (e->target.address_of && !e->target.components) {
            /* SystemTap's are the hook's parameters: $in is no member to take the address of */
            diag_error(s->diags, e->span, "cannot take the address of $%s: it is not in memory", name);
            return 0;
        }
        if (names[i].state_member) {
            struct component *member = ARENA_NEW(s->arena, struct component);
            *member = (struct component){.kind = COMPONENT_MEMBER, .span = e->span,
                                         .member = names[i].state_member, .next = e->target.components};
            e->target.components = member;
        }
        return sema_lower_btf_word(s, btf, e, word, (int)btf_members(ctx)[word].type, NULL);
    }
    diag_error(s->diags, e->span, "netfilter probes have $skb, $in, $out, $hooknum and $pf (the tapset's "
               "netfilter.* aliases name what they hold)");
    return 0;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    (void)arena;
    add(lines, "netfilter.hook(string).pf(string)");
    add(lines, "netfilter.hook(string).pf(string).priority(string)");
    add(lines, "netfilter.pf(string).hook(string)");
    add(lines, "netfilter.pf(string).hook(string).priority(string)");
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    (void)probe;
    return "netfilter";
}

/* Its program_probe's own fields: where the link goes. */
struct netfilter_program_fields {
    uint32_t pf, hooknum;    /* the link's protocol family and hook */
    int32_t priority;
};

static const struct program_fields program_fields = PROGRAM_FIELDS(struct netfilter_program_fields,
    PROGRAM_FIELD(U32, struct netfilter_program_fields, pf),
    PROGRAM_FIELD(U32, struct netfilter_program_fields, hooknum),
    PROGRAM_FIELD(I32, struct netfilter_program_fields, priority));

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    struct netfilter_program_fields *fields = calloc(1, sizeof(*fields));
    fields->pf = (uint32_t)probe->netfilter.pf;
    fields->hooknum = (uint32_t)probe->netfilter.hooknum;
    fields->priority = probe->netfilter.priority;
    out->kind_fields = fields;
}

/* BPF_LINK_CREATE's netfilter member, as Linux 6.4's union bpf_attr has it */
struct netfilter_link_attr {
    uint32_t prog_fd, target_fd, attach_type, flags;
    uint32_t pf, hooknum;
    int32_t priority;
    uint32_t netfilter_flags;
};

static int link_netfilter(struct bpf_program *prog, const struct program_probe *probe, int32_t priority)
{
    const struct netfilter_program_fields *fields = probe->kind_fields;
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    struct netfilter_link_attr link = {.prog_fd = (uint32_t)bpf_program__fd(prog), .attach_type = BPF_NETFILTER_,
                                       .pf = fields->pf, .hooknum = fields->hooknum,
                                       .priority = priority};
    _Static_assert(sizeof(link) <= sizeof(attr), "union bpf_attr holds the netfilter link");
    memcpy(&attr, &link, sizeof(link));
    int fd = (int)syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
    return fd < 0 ? -errno : fd;
}

/* The kernel takes one BPF program a hook and priority (EBUSY). Probes at
 * the default priority 0 (SystemTap runs every probe on a hook: netfilter.ip.forward
 * and netfilter.ipv4.forward in one script) take the next free one, up to
 * NETFILTER_DEFAULT_SPREAD; a priority the script chose is kept. */
enum { NETFILTER_DEFAULT_SPREAD = 64 };

static int attach_netfilter(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    const struct netfilter_program_fields *fields = probe->kind_fields;
    int32_t last = fields->priority == 0 ? NETFILTER_DEFAULT_SPREAD - 1 : fields->priority;
    int fd = -EBUSY;
    for (int32_t priority = fields->priority; fd == -EBUSY && priority <= last; priority++)
        fd = link_netfilter(prog, probe, priority);
    return fd < 0 ? fd : add_raw_link(s, fd);
}

static const char *attach_error(const struct program_probe *probe, int err)
{
    (void)probe;
    if (err == -EBUSY)
        return "another BPF netfilter program holds this hook at this priority: choose another .priority";
    return NULL;
}

const struct probe_kind_ops netfilter_kind = {
    .kind = PROBE_NETFILTER, .name = "netfilter", .flags = KIND_FREQUENT,
    .probe_fields = PROBE_FIELDS_NETFILTER,
    .heads = (const char *const[]){"netfilter", NULL}, .resolve = resolve_netfilter, .catalogue = catalogue,
    .lower_target = lower_target, .target_write_refusal = VERDICT_REFUSAL, .section = section, .describe = describe,
    .program_fields = &program_fields, .prog_type = BPF_PROG_TYPE_NETFILTER_, .expected_attach_type = BPF_NETFILTER_, .returns = NF_ACCEPT_,
    .attach = attach_netfilter, .attach_error = attach_error,
};
