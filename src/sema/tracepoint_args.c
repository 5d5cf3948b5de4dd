/* kernel.trace arguments from BTF: `$prev->comm` at sched:sched_switch
 * names the tracepoint's TP_PROTO argument `prev` (a struct task_struct *)
 * rather than a tracefs record field. A probe reading arguments runs as a
 * raw tracepoint program: its context is the arguments as u64s, and
 * members are read with bpf_probe_read_kernel, which this kernel allows
 * under integrity lockdown (fentry and tp_btf's typed direct loads are
 * not needed). Argument names come from the BTF of `__probestub_NAME` or
 * `__traceiter_NAME` (btf_types.h), which have the tracepoint's prototype
 * with named parameters. */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/strbuf.h"
#include "sema/autocast.h"
#include "sema/btf_types.h"
#include "sema/sema_internal.h"

/* A typed place while components are applied: a value or kernel memory. */
struct kplace {
    struct expr *value;          /* the value itself, or NULL when at address */
    struct expr *address;
    int type_id;
    int bit_shift, bit_size;     /* a bitfield: its bits from address on (bit_size 0: not one) */
};

struct btf *sema_kernel_btf(struct sema *s)
{
    if (!s->kernel_btf && !s->kernel_btf_failed) {
        s->kernel_btf = btf__load_vmlinux_btf();
        s->kernel_btf_failed = s->kernel_btf == NULL;
    }
    return s->kernel_btf;
}

void sema_release_kernel_btf(struct sema *s)
{
    for (int i = 0; i < s->module_btf_count; i++)
        btf__free(s->module_btfs[i].btf);
    s->module_btf_count = 0;
    btf__free(s->kernel_btf);
    s->kernel_btf = NULL;
}

/* Each module's BTF is read once and kept: a probe on one module's function
 * reads types of others (nfsd's probes cast to sunrpc's svc_rqst), and a
 * BTF freed while a caller holds its types would be read after the free. */
struct btf *sema_probe_btf(struct sema *s, const char *module)
{
    struct btf *vmlinux = sema_kernel_btf(s);
    if (!module || !vmlinux)
        return vmlinux;
    for (int i = 0; i < s->module_btf_count; i++)
        if (strcmp(s->module_btfs[i].name, module) == 0)
            return s->module_btfs[i].btf;
    int n = s->module_btf_count;
    if ((n & (n - 1)) == 0)   /* 0, 1, 2, 4 ...: room for twice as many */
        s->module_btfs = arena_realloc(s->arena, s->module_btfs, sizeof(*s->module_btfs) * (size_t)n,
                                       sizeof(*s->module_btfs) * (size_t)(n ? 2 * n : 1));
    s->module_btfs[n].name = arena_strdup(s->arena, module);
    s->module_btfs[n].btf = btf__load_module_btf(module, vmlinux);
    s->module_btf_count = n + 1;
    return s->module_btfs[n].btf;
}

const char *sema_btf_module(struct sema *s, const struct btf *btf)
{
    for (int i = 0; btf && i < s->module_btf_count; i++)
        if (s->module_btfs[i].btf == btf)
            return s->module_btfs[i].name;
    return NULL;
}

/* Strips typedefs and qualifiers. */
static int resolved(struct btf *btf, int id)
{
    int result = btf__resolve_type(btf, id);
    return result < 0 ? 0 : result;
}

static const char *type_text(struct sema *s, struct btf *btf, int id)
{
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, id));
    if (!t)
        return "void";
    const char *name = btf__name_by_offset(btf, t->name_off);
    if (btf_is_ptr(t))
        return arena_printf(s->arena, "%s*", type_text(s, btf, t->type));
    if (btf_is_struct(t))
        return arena_printf(s->arena, "struct %s", name);
    if (btf_is_union(t))
        return arena_printf(s->arena, "union %s", name);
    if (btf_is_array(t))
        return arena_printf(s->arena, "%s[%u]", type_text(s, btf, btf_array(t)->type), btf_array(t)->nelems);
    return name && *name ? name : "?";
}

const char *sema_btf_type_text(struct sema *s, struct btf *btf, int id)
{
    return type_text(s, btf, id);
}

static struct expr *long_node(struct sema *s, struct span span, enum expr_kind kind)
{
    struct expr *e = ast_expr(s->arena, kind, span);
    e->type = TYPE_LONG;
    return e;
}

static struct expr *binary_constant(struct sema *s, struct span span, enum binary_op op, struct expr *lhs,
                                    int64_t value)
{
    struct expr *constant = long_node(s, span, EXPR_INT), *result = long_node(s, span, EXPR_BINARY);
    constant->int_value = value;
    result->binary.op = op;
    result->binary.lhs = lhs;
    result->binary.rhs = constant;
    return result;
}

static struct expr *add_offset(struct sema *s, struct span span, struct expr *address, int64_t offset)
{
    return offset ? binary_constant(s, span, BINARY_ADD, address, offset) : address;
}

/* address + index * size: the index may be any expression (a local, a
 * $var), evaluated when the probe runs. */
static struct expr *add_index(struct sema *s, struct span span, struct expr *address, struct expr *index,
                              int64_t size)
{
    if (index->kind == EXPR_INT)
        return add_offset(s, span, address, index->int_value * size);
    struct expr *scale = long_node(s, span, EXPR_INT), *product = long_node(s, span, EXPR_BINARY);
    struct expr *sum = long_node(s, span, EXPR_BINARY);
    scale->int_value = size;
    product->binary.op = BINARY_MUL;
    product->binary.lhs = index;
    product->binary.rhs = scale;
    sum->binary.op = BINARY_ADD;
    sum->binary.lhs = address;
    sum->binary.rhs = product;
    return sum;
}

static struct expr *kernel_read(struct sema *s, struct span span, struct expr *address, int size, int is_signed)
{
    struct expr *e = long_node(s, span, EXPR_CTX_READ);
    e->ctx_read.kind = CTX_READ_KERNEL_LONG;
    e->ctx_read.address = address;
    e->ctx_read.size = size;
    e->ctx_read.is_signed = is_signed;
    return e;
}

/* Size and signedness of an integer, enum or pointer type; 0 otherwise. */
static int scalar_of(const struct btf_type *t, int *size, int *is_signed)
{
    *is_signed = 0;
    if (btf_is_ptr(t)) {
        *size = 8;
        return 1;
    }
    if (btf_is_enum(t) || btf_is_enum64(t)) {
        *size = (int)t->size;
        *is_signed = btf_kflag(t);
        return 1;
    }
    if (btf_is_int(t) && (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8)) {
        *size = (int)t->size;
        *is_signed = (btf_int_encoding(t) & BTF_INT_SIGNED) != 0;
        return 1;
    }
    return 0;
}

/* A member by name, looking inside anonymous structs and unions; *bit_size
 * is a bitfield's width (0 for a whole member). */
static int find_member(struct btf *btf, const struct btf_type *t, const char *name, int *type_id, int64_t *bits,
                       int *bit_size)
{
    const struct btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); i++, m++) {
        const char *member = btf__name_by_offset(btf, m->name_off);
        int64_t offset = btf_member_bit_offset(t, (uint32_t)i);
        if (member && strcmp(member, name) == 0) {
            *type_id = (int)m->type;
            *bits = offset;
            *bit_size = (int)btf_member_bitfield_size(t, (uint32_t)i);
            return 1;
        }
        const struct btf_type *inner = btf__type_by_id(btf, resolved(btf, (int)m->type));
        if ((!member || !*member) && inner && (btf_is_struct(inner) || btf_is_union(inner)) &&
            find_member(btf, inner, name, type_id, bits, bit_size)) {
            *bits += offset;
            return 1;
        }
    }
    return 0;
}

static int place_error(struct sema *s, struct span span, const char *message)
{
    diag_error(s->diags, span, "%s", message);
    return 0;
}

/* The address a place's pointer value points at (reading it from memory
 * first when the place is in memory). */
static struct expr *pointer_value(struct sema *s, struct span span, struct kplace *p)
{
    return p->value ? p->value : kernel_read(s, span, p->address, 8, 0);
}

static int apply_component(struct sema *s, struct btf *btf, struct kplace *p, struct component *c,
                           const char *what)
{
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, p->type_id));
    if (c->kind == COMPONENT_INDEX) {
        if (!t || (!btf_is_array(t) && !btf_is_ptr(t)))
            return place_error(s, c->span, arena_printf(s->arena, "%s is a %s, not an array or pointer", what,
                                                        type_text(s, btf, p->type_id)));
        int element = btf_is_array(t) ? (int)btf_array(t)->type : (int)t->type;
        struct expr *base = btf_is_array(t) ? p->address : pointer_value(s, c->span, p);
        if (!base)
            return place_error(s, c->span, arena_printf(s->arena, "%s is not in memory", what));
        int64_t size = btf__resolve_size(btf, element);
        p->address = add_index(s, c->span, base, c->index, size > 0 ? size : 0);
        p->value = NULL;
        p->type_id = element;
        return 1;
    }
    struct expr *base = p->address;
    if (t && btf_is_ptr(t)) {        /* -> through a pointer */
        base = pointer_value(s, c->span, p);
        t = btf__type_by_id(btf, resolved(btf, (int)t->type));
    }
    int member_type, bit_size;
    int64_t bits;
    if (p->bit_size)
        return place_error(s, c->span, arena_printf(s->arena, "%s is a bitfield, which has no member %s", what,
                                                    c->member));
    if (!t || (!btf_is_struct(t) && !btf_is_union(t)) || !base)
        return place_error(s, c->span, arena_printf(s->arena, "%s is a %s, which has no member %s", what,
                                                    type_text(s, btf, p->type_id), c->member));
    if (!find_member(btf, t, c->member, &member_type, &bits, &bit_size))
        return place_error(s, c->span, arena_printf(s->arena, "%s (%s) has no member %s",
                                                    what, type_text(s, btf, p->type_id), c->member));
    p->address = add_offset(s, c->span, base, bits / 8);
    p->value = NULL;
    p->type_id = member_type;
    p->bit_shift = bit_size ? (int)(bits % 8) : 0;
    p->bit_size = bit_size;
    return 1;
}

/* Applies ->member and [N] in turn; returns the place's description
 * ("$prev->mm"), or NULL after an error. */
static const char *apply_components(struct sema *s, struct btf *btf, struct kplace *p, struct component *c,
                                    const char *what)
{
    for (; c; c = c->next) {
        if (!apply_component(s, btf, p, c, what))
            return NULL;
        what = arena_printf(s->arena, "%s%s%s", what, c->kind == COMPONENT_MEMBER ? "->" : "[...]",
                            c->kind == COMPONENT_MEMBER ? c->member : "");
    }
    return what;
}

/* A bitfield's value: the bytes that hold it, shifted and masked (or
 * sign-extended from its top bit). */
static struct expr *bitfield_value(struct sema *s, struct kplace *p, struct span span, int is_signed)
{
    int bits = p->bit_shift + p->bit_size, size = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
    struct expr *word = kernel_read(s, span, p->address, size, 0);
    if (is_signed)
        return binary_constant(s, span, BINARY_SHR, binary_constant(s, span, BINARY_SHL, word, 64 - bits),
                               64 - p->bit_size);
    struct expr *shifted = p->bit_shift ? binary_constant(s, span, BINARY_SHR, word, p->bit_shift) : word;
    return p->bit_size < 64 ? binary_constant(s, span, BINARY_BITAND, shifted, ((int64_t)1 << p->bit_size) - 1)
                            : shifted;
}

/* The final value: a scalar, or a char array as a string. */
static struct expr *place_value(struct sema *s, struct btf *btf, struct kplace *p, struct span span,
                                const char *what)
{
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, p->type_id));
    int size, is_signed;
    if (p->bit_size && t && scalar_of(t, &size, &is_signed))
        return bitfield_value(s, p, span, is_signed);
    if (t && scalar_of(t, &size, &is_signed))
        return p->value ? p->value : kernel_read(s, span, p->address, size, is_signed);
    const struct btf_type *element = t && btf_is_array(t) ? btf__type_by_id(btf, resolved(btf, btf_array(t)->type))
                                                          : NULL;
    if (element && btf_is_int(element) && element->size == 1 && p->address) {
        struct expr *e = ast_expr(s->arena, EXPR_CTX_READ, span);
        e->type = TYPE_STRING;
        e->ctx_read.kind = CTX_READ_KERNEL_CHARS;
        e->ctx_read.address = p->address;
        e->ctx_read.size = (int)btf_array(t)->nelems;
        return e;
    }
    place_error(s, span, arena_printf(s->arena, "%s is a %s: pick a member or an element", what,
                                      type_text(s, btf, p->type_id)));
    return NULL;
}

/* The index (in the context's u64 arguments, which are the prototype's
 * from parameter `first` on) and type of `name`; -1 when there is no such
 * argument. */
static int find_argument_from(struct btf *btf, const struct btf_type *proto, int first, const char *name,
                              int *type_id)
{
    const struct btf_param *param = btf_params(proto);
    for (int i = first; i < btf_vlen(proto); i++)
        if (strcmp(btf__name_by_offset(btf, param[i].name_off), name) == 0) {
            *type_id = (int)param[i].type;
            return i - first;
        }
    return -1;
}

/* A tracepoint's prototype starts with `void *__data`. */
static int find_argument(struct btf *btf, const struct btf_type *proto, const char *name, int *type_id)
{
    return find_argument_from(btf, proto, 1, name, type_id);
}

int tracepoint_has_argument(struct sema *s, const char *tracepoint, const char *name)
{
    struct btf *btf = sema_kernel_btf(s);
    const struct btf_type *proto = btf ? btf_tracepoint_prototype(btf, tracepoint) : NULL;
    int type_id;
    return proto && find_argument(btf, proto, name, &type_id) >= 0;
}

const char *tracepoint_argument_names(struct sema *s, const char *tracepoint)
{
    struct btf *btf = sema_kernel_btf(s);
    const struct btf_type *proto = btf ? btf_tracepoint_prototype(btf, tracepoint) : NULL;
    struct strbuf sb;
    strbuf_init(&sb);
    for (int i = 1; proto && i < btf_vlen(proto); i++)
        strbuf_printf(&sb, "%s$%s", sb.len ? ", " : "", btf__name_by_offset(btf, btf_params(proto)[i].name_off));
    const char *text = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}


static struct expr *btf_pretty_argument(struct sema *s, struct btf *btf, struct expr *e, int index, int type_id,
                                        btf_argument_reader read, int full);

static int become(struct expr *e, struct expr *value)
{
    if (!value)
        return 0;
    struct expr *next = e->next;
    *e = *value;
    e->next = next;
    return 1;
}

int tracepoint_lower_argument(struct sema *s, struct probe *probe, struct expr *e)
{
    struct btf *btf = sema_kernel_btf(s);
    if (!btf)
        return place_error(s, e->span, arena_printf(s->arena, "$%s: tracepoint arguments need the kernel's BTF "
                                                    "(/sys/kernel/btf/vmlinux), which cannot be read",
                                                    e->target.name));
    const struct btf_type *proto = btf_tracepoint_prototype(btf, probe->tp_name);
    int type_id, index = proto ? find_argument(btf, proto, e->target.name, &type_id) : -1;
    if (index < 0)
        return -1;
    if (probe->tracepoint.reads_fields)
        return place_error(s, e->span, arena_printf(s->arena, "$%s is a tracepoint argument, but this probe "
                                                    "also reads tracefs record fields: a kernel.trace probe "
                                                    "reads one or the other", e->target.name));
    if (e->target.pretty && e->target.address_of)
        return place_error(s, e->span, "cannot take address of pretty-printed variable");
    probe->tracepoint.raw = 1;
    if (e->target.pretty)
        return become(e, btf_pretty_argument(s, btf, e, index, type_id, NULL, e->target.pretty == 2));
    return sema_lower_btf_word(s, btf, e, index, type_id, NULL);
}

/* A trampoline's pointer argument to anything but a struct, union, void or
 * integer (a function, another pointer, an enum): Linux 6.1's verifier will
 * not load it from the context ("arg2 type FUNC_PROTO is not a struct"), so
 * it is read by bpf_get_func_arg (5.17), which any trampoline may call. */
static struct expr *read_func_arg(struct sema *s, struct expr *e, int index, int size, int is_signed)
{
    struct expr *value = long_node(s, e->span, EXPR_CTX_READ);
    value->ctx_read.kind = CTX_READ_FUNC_ARG;
    value->ctx_read.offset = index * 8;
    value->ctx_read.size = size;
    value->ctx_read.is_signed = is_signed;
    return value;
}

static btf_argument_reader trampoline_reader(struct btf *btf, const struct btf_type *proto, int index, int type_id,
                                             btf_argument_reader read)
{
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, type_id));
    if (read || index >= btf_vlen(proto) || !t || !btf_is_ptr(t) || !t->type)
        return read;
    const struct btf_type *target = btf__type_by_id(btf, resolved(btf, (int)t->type));
    return target && (btf_is_struct(target) || btf_is_union(target) || btf_is_int(target)) ? NULL : read_func_arg;
}

/* "name=" and the hex of argument `index` (SystemTap's %#x of its value), or
 * "{...}" for a struct or union passed by value, "?" where the reader cannot
 * reach it (a kprobe's arguments past the sixth); NULL after an error. */
static struct expr *listed_argument(struct sema *s, struct btf *btf, const struct btf_type *proto, struct expr *e,
                                    const char *label, const char *name, int index, int type_id,
                                    btf_argument_reader read)
{
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, type_id));
    int pretty = e->target.pretty;
    if ((!pretty && t && (btf_is_struct(t) || btf_is_union(t))) || (read && index >= 6))
        return sema_string_expr(s, e->span, arena_printf(s->arena, "%s%s", label,
                                                         read && index >= 6 ? "?" : "{...}"));
    struct expr *value = ast_expr(s->arena, EXPR_TARGET, e->span);
    value->target.name = name;
    int word = read ? index : btf_trampoline_word(btf, proto, index);
    if (pretty) {   /* $$parms$: "name=" and $name$ (or $name$$) */
        struct expr *text = btf_pretty_argument(s, btf, value, word, type_id,
                                                trampoline_reader(btf, proto, index, type_id, read), pretty == 2);
        return text ? sema_concat_expr(s, e->span, sema_string_expr(s, e->span, label), text) : NULL;
    }
    if (sema_lower_btf_word(s, btf, value, word, type_id, trampoline_reader(btf, proto, index, type_id, read)) <= 0)
        return NULL;
    struct expr *call = ast_expr(s->arena, EXPR_CALL, e->span);
    call->call.name = "_tap_hex";
    call->call.args = value;
    call->call.arg_count = 1;
    return sema_concat_expr(s, e->span, sema_string_expr(s, e->span, label), call);
}

/* $$parms ("file=0xffff888... count=0x10 pos=0x0") and $$return
 * ("return=0x0"), as SystemTap spells them without the pretty $ form. BTF
 * describes parameters only: $$locals and $$vars would need the kernel's
 * DWARF, so they are refused rather than shown without the locals. */
static int lower_btf_list(struct sema *s, struct btf *btf, const struct btf_type *proto, int is_return,
                          struct expr *e, btf_argument_reader read)
{
    const char *which = e->target.name + 1;
    if (strcmp(which, "parms") != 0 && strcmp(which, "return") != 0)
        return place_error(s, e->span, arena_printf(s->arena, "$$%s: tap types kernel functions from BTF, "
                                                    "which has their parameters, not their locals: $$parms "
                                                    "and $$return are available", which));
    if (e->target.address_of || e->target.components)
        return place_error(s, e->span, "cannot take address of context variable, or pick its members");
    struct expr *text = NULL;
    if (which[0] == 'r') {
        if (!is_return)
            return place_error(s, e->span, "$$return is only available in .return probes");
        if (proto->type)
            text = listed_argument(s, btf, proto, e, "return=", "return", btf_vlen(proto), (int)proto->type, read);
    } else {
        for (int i = 0; i < btf_vlen(proto); i++) {
            const struct btf_param *param = &btf_params(proto)[i];
            if (!param->type)
                break;   /* a variadic function's "...": SystemTap lists the named parameters */
            const char *name = btf__name_by_offset(btf, param->name_off);
            const char *label = arena_printf(s->arena, "%s%s=", i ? " " : "", name);
            struct expr *item = listed_argument(s, btf, proto, e, label, name, i, (int)param->type, read);
            if (!item)
                return 0;
            text = sema_concat_expr(s, e->span, text, item);
        }
    }
    if (which[0] == 'r' && proto->type && !text)
        return 0;
    struct expr *next = e->next;
    *e = *(text ? text : sema_string_expr(s, e->span, ""));
    e->next = next;
    return 1;
}

/* $name, or $return (the word after the arguments), of a function whose
 * arguments are the context's u64s (fentry, fexit); $$parms and $$return. */
int sema_lower_btf_argument(struct sema *s, struct btf *btf, const struct btf_type *proto, int is_return,
                            struct expr *e, btf_argument_reader read)
{
    if (e->target.name[0] == '$')
        return lower_btf_list(s, btf, proto, is_return, e, read);
    int type_id = (int)proto->type, index = btf_vlen(proto);
    if (!is_return || strcmp(e->target.name, "return") != 0)
        index = find_argument_from(btf, proto, 0, e->target.name, &type_id);
    if (index < 0)
        return -1;
    if (e->target.pretty && e->target.address_of)
        return place_error(s, e->span, "cannot take address of pretty-printed variable");
    /* a reader takes the parameter's index; a trampoline's context, its word */
    int word = read ? index : btf_trampoline_word(btf, proto, index);
    if (e->target.pretty)
        return become(e, btf_pretty_argument(s, btf, e, word, type_id,
                                             trampoline_reader(btf, proto, index, type_id, read),
                                             e->target.pretty == 2));
    return sema_lower_btf_word(s, btf, e, word, type_id, trampoline_reader(btf, proto, index, type_id, read));
}

/* Argument `index` of the context (read: NULL for the context's u64s), of
 * BTF type type_id, then e's ->member and [N] components. */
static int argument_place(struct sema *s, struct btf *btf, struct expr *e, int index, int type_id,
                          btf_argument_reader read, struct kplace *place)
{
    *place = (struct kplace){.type_id = type_id};
    int size = 8, is_signed = 0;
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, type_id));
    if (!t || !scalar_of(t, &size, &is_signed))
        size = 8, is_signed = 0;
    if (read) {
        place->value = read(s, e, index, size, is_signed);
        return place->value != NULL;
    }
    place->value = long_node(s, e->span, EXPR_CTX_READ);
    place->value->ctx_read.kind = CTX_READ_LONG;
    place->value->ctx_read.offset = index * 8;
    place->value->ctx_read.size = size;
    place->value->ctx_read.is_signed = is_signed;
    return 1;
}

/* Components, then & or the value; rewrites e in place and notes its C
 * type. An argument itself is a register or a context word, not memory:
 * only what its components reach has an address. */
static int finish_kernel_place(struct sema *s, struct btf *btf, struct kplace *place, struct component *components,
                               int address_of, struct expr *e, const char *what)
{
    what = apply_components(s, btf, place, components, what);
    if (!what)
        return 0;
    if (address_of && (!place->address || place->bit_size))
        return place_error(s, e->span, arena_printf(s->arena, "cannot take the address of %s: %s", what,
                                                    place->bit_size ? "it is a bitfield" : "it is not in memory"));
    struct expr *value = address_of ? place->address : place_value(s, btf, place, e->span, what);
    if (!value)
        return 0;
    struct expr *next = e->next;
    *e = *value;
    e->next = next;
    if (e->type != TYPE_STRING)
        sema_note_btf_ctype(s, e, btf, place->type_id, address_of);
    return 1;
}

/* $name (with its components, or & of them) from argument `index`. */
int sema_lower_btf_word(struct sema *s, struct btf *btf, struct expr *e, int index, int type_id,
                             btf_argument_reader read)
{
    struct kplace place;
    if (!argument_place(s, btf, e, index, type_id, read, &place))
        return 0;
    return finish_kernel_place(s, btf, &place, e->target.components, e->target.address_of, e,
                               arena_printf(s->arena, "$%s", e->target.name));
}

/* --- pretty printing from BTF ($v$, $v$$, $$parms$): SystemTap's
 * dwarf_pretty_print on the kernel's types, as target_pretty.c on DWARF --- */

struct btf_pretty {
    struct sema *s;
    struct btf *btf;
    struct span span;
    struct pretty_text text;
    int full;                    /* $$: nested structs and arrays too */
    int values;                  /* SystemTap stops members at 32 */
};

static void pretty_init(struct btf_pretty *p, struct sema *s, struct btf *btf, struct span span, int full)
{
    *p = (struct btf_pretty){.s = s, .btf = btf, .span = span, .full = full};
    pretty_text_init(&p->text, s, span);
}

static void pretty_append(struct btf_pretty *p, struct expr *piece)
{
    pretty_text_string(&p->text, piece);
}

static void pretty_literal(struct btf_pretty *p, const char *text)
{
    pretty_text_literal(&p->text, text);
}

static struct expr *string_call(struct btf_pretty *p, const char *name, struct expr *arg)
{
    struct expr *call = ast_expr(p->s->arena, EXPR_CALL, p->span);
    call->call.name = name;
    call->call.args = arg;
    call->call.arg_count = 1;
    call->type = TYPE_STRING;
    p->values++;
    return call;
}

/* The place's own value (a pointer's, a number's) with a conversion. */
static void pretty_number(struct btf_pretty *p, struct kplace *place, const char *conversion)
{
    struct kplace copy = *place;
    const struct btf_type *t = btf__type_by_id(p->btf, resolved(p->btf, copy.type_id));
    int size, is_signed;
    struct expr *value = t && scalar_of(t, &size, &is_signed) ? place_value(p->s, p->btf, &copy, p->span, "value")
                                                               : NULL;
    if (!value) {
        pretty_literal(p, "?");
        return;
    }
    pretty_text_value(&p->text, conversion, value);
    p->values++;
}

static int is_char(struct btf *btf, int type_id)
{
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, type_id));
    const char *name = t && btf_is_int(t) && t->size == 1 ? btf__name_by_offset(btf, t->name_off) : NULL;
    return name && strstr(name, "char");   /* pahole leaves BTF_INT_CHAR out */
}

static void btf_pretty_place(struct btf_pretty *p, struct kplace *place, int type_id, int top);

static void pretty_int(struct btf_pretty *p, struct kplace *place, const struct btf_type *t)
{
    int id = resolved(p->btf, place->type_id);
    if (btf_is_int(t) && is_char(p->btf, id) && !place->bit_size) {
        struct kplace copy = *place;
        struct expr *value = place_value(p->s, p->btf, &copy, p->span, "value");
        if (value)
            pretty_append(p, string_call(p, "_tap_char_quoted", value));
        else
            pretty_literal(p, "?");
        return;
    }
    int is_signed = btf_is_int(t) ? (btf_int_encoding(t) & BTF_INT_SIGNED) != 0 : 1;   /* enums: %i */
    pretty_number(p, place, is_signed ? "%lld" : "%llu");
}

static void pretty_members(struct btf_pretty *p, struct kplace *place, const struct btf_type *t, int *count)
{
    const struct btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); i++, m++) {
        const char *name = btf__name_by_offset(p->btf, m->name_off);
        if (++*count > 1)
            pretty_literal(p, ", ");
        if (p->values >= 32) {
            pretty_literal(p, "...");
            return;
        }
        int64_t bits = btf_member_bit_offset(t, (uint32_t)i);
        int bit_size = (int)btf_member_bitfield_size(t, (uint32_t)i);
        struct kplace member = {.address = add_offset(p->s, p->span, place->address, bits / 8),
                                .type_id = (int)m->type, .bit_shift = bit_size ? (int)(bits % 8) : 0,
                                .bit_size = bit_size};
        const struct btf_type *inner = btf__type_by_id(p->btf, resolved(p->btf, (int)m->type));
        if (name && *name)
            pretty_literal(p, arena_printf(p->s->arena, ".%s=", name));
        else
            pretty_literal(p, inner && btf_is_union(inner) ? "<union>=" : inner && btf_is_struct(inner) ? "<class>="
                                                                                                         : "=");
        btf_pretty_place(p, &member, (int)m->type, 0);
    }
}

/* The members of a struct or union in memory at the top of a variable,
 * printed by a function of its address that every identical printer shares
 * (pretty_share.c); 0 when it stays inline. */
static int shared_members(struct btf_pretty *p, struct kplace *place, const struct btf_type *t)
{
    if (!place->address || place->bit_size || p->values || p->s->at_call)
        return 0;
    struct btf_pretty inner;
    pretty_init(&inner, p->s, p->btf, p->span, p->full);
    struct expr *param = sema_pretty_parameter(p->s, p->span);
    struct kplace at = {.address = param, .type_id = place->type_id};
    int count = 0;
    pretty_literal(&inner, "{");
    pretty_members(&inner, &at, t, &count);
    pretty_literal(&inner, "}");
    struct expr *call = sema_share_pretty(p->s, p->span, pretty_text_finish(&inner.text), param,
                                          place->address);
    if (!call)
        return 0;
    pretty_append(p, call);
    p->values += inner.values;
    return 1;
}

/* SystemTap's recurse on a BTF type: the place formatted as type_id. */
static void btf_pretty_place(struct btf_pretty *p, struct kplace *place, int type_id, int top)
{
    int id = resolved(p->btf, type_id);
    const struct btf_type *t = id ? btf__type_by_id(p->btf, id) : NULL;
    if (!t) {
        pretty_number(p, place, "0x%llx");   /* void */
        return;
    }
    if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) {
        pretty_int(p, place, t);
    } else if (btf_is_ptr(t)) {
        int pointee = resolved(p->btf, (int)t->type);
        if (pointee && is_char(p->btf, pointee)) {
            struct kplace copy = *place;
            struct expr *value = place_value(p->s, p->btf, &copy, p->span, "value");
            if (value)
                pretty_append(p, string_call(p, "kernel_string_quoted", value));
            else
                pretty_literal(p, "?");
        } else if (pointee && top) {
            const struct btf_type *target = btf__type_by_id(p->btf, pointee);
            if (target && (btf_is_struct(target) || btf_is_union(target))) {
                struct kplace through = {.address = pointer_value(p->s, p->span, place), .type_id = pointee};
                btf_pretty_place(p, &through, pointee, 1);
            } else {
                btf_pretty_place(p, place, pointee, 1);   /* SystemTap: the pointer's own value */
            }
        } else {
            pretty_number(p, place, "0x%llx");
        }
    } else if (btf_is_array(t)) {
        if (!top && !p->full) {
            pretty_literal(p, "[...]");
        } else if (is_char(p->btf, (int)btf_array(t)->type) && place->address) {
            /* at most the array's bytes: its last need not be a NUL */
            struct expr *address = sema_clone_expr(p->s->arena, place->address);
            struct expr *call = string_call(p, "kernel_string_n_quoted", address);
            struct expr *bound = ast_expr(p->s->arena, EXPR_INT, p->span);
            bound->int_value = btf_array(t)->nelems;
            bound->type = TYPE_LONG;
            address->next = bound;
            call->call.arg_count = 2;
            pretty_append(p, call);
        } else if (place->address && btf_array(t)->nelems > 0) {
            struct kplace first = {.address = place->address, .type_id = (int)btf_array(t)->type};
            pretty_literal(p, "[");
            btf_pretty_place(p, &first, first.type_id, 0);
            pretty_literal(p, ", ...]");
        } else {
            pretty_literal(p, "[...]");
        }
    } else if (btf_is_struct(t) || btf_is_union(t)) {
        if ((!top && !p->full) || !place->address) {
            pretty_literal(p, "{...}");
            return;
        }
        if (top && shared_members(p, place, t))
            return;
        int count = 0;
        pretty_literal(p, "{");
        pretty_members(p, place, t, &count);
        pretty_literal(p, "}");
    } else if (btf_is_func_proto(t)) {
        pretty_literal(p, "<function>:");
        pretty_number(p, place, "0x%llx");
    } else {
        pretty_literal(p, "?");
    }
}

/* $name$ / $name$$ (after its components) of argument `index`. */
static struct expr *btf_pretty_argument(struct sema *s, struct btf *btf, struct expr *e, int index, int type_id,
                                        btf_argument_reader read, int full)
{
    struct kplace place;
    if (!argument_place(s, btf, e, index, type_id, read, &place))
        return NULL;
    if (!apply_components(s, btf, &place, e->target.components, arena_printf(s->arena, "$%s", e->target.name)))
        return NULL;
    struct btf_pretty p;
    pretty_init(&p, s, btf, e->span, full);
    btf_pretty_place(&p, &place, place.type_id, 1);
    return pretty_text_finish(&p.text);
}

/* The BTF id of a kernel type named as @cast names it: "task_struct",
 * "struct task_struct", a union or a typedef; 0 when BTF has none. */
static int kernel_type_id(struct btf *btf, const char *spelled)
{
    int kinds[3] = {BTF_KIND_STRUCT, BTF_KIND_UNION, BTF_KIND_TYPEDEF};
    if (strncmp(spelled, "struct ", 7) == 0) {
        spelled += 7;
        kinds[1] = kinds[2] = BTF_KIND_STRUCT;
    } else if (strncmp(spelled, "union ", 6) == 0) {
        spelled += 6;
        kinds[0] = kinds[2] = BTF_KIND_UNION;
    }
    for (int i = 0; i < 3; i++) {
        int id = btf__find_by_name_kind(btf, spelled, (uint32_t)kinds[i]);
        if (id > 0)
            return id;
    }
    return 0;
}

/* "kernel", "kernel<header.h>", and either followed by ":MODULE" names,
 * as SystemTap spells the kernel and its modules (e.g. "kernel:nfs:sunrpc"). */
int sema_is_kernel_cast(const struct expr *e)
{
    const char *module = e->kind == EXPR_CAST ? e->cast.module : NULL;
    return module && strncmp(module, "kernel", 6) == 0 && strchr("<:", module[6]) != NULL;
}

/* ":MODULE..." after "kernel" or "kernel<...>"; NULL: none */
static const char *cast_modules(const char *spec)
{
    const char *rest = spec + 6;
    if (*rest == '<') {
        const char *close = strchr(rest, '>');
        rest = close ? close + 1 : "";
    }
    return *rest == ':' ? rest : NULL;
}

/* The type in vmlinux's BTF, else in the first of the modules after "kernel"
 * (or "kernel<...>") that has it; *btf_out is the BTF that does. */
static int kernel_cast_type_id(struct sema *s, const char *spec, const char *type_name, struct btf **btf_out,
                               const char **missing)
{
    struct btf *btf = sema_kernel_btf(s);
    int type_id = kernel_type_id(btf, type_name);
    *btf_out = btf;
    *missing = NULL;
    const char *modules = cast_modules(spec);
    while (!type_id && modules && modules[1]) {
        const char *name = modules + 1, *end = strchr(name, ':');
        size_t length = end ? (size_t)(end - name) : strlen(name);
        const char *module = arena_strndup(s->arena, name, length);
        struct btf *module_btf = sema_probe_btf(s, module);
        if (module_btf) {
            type_id = kernel_type_id(module_btf, type_name);
            *btf_out = module_btf;
        } else if (!*missing) {
            *missing = module;
        }
        modules = end;
    }
    return type_id;
}

int sema_lower_kernel_cast(struct sema *s, struct expr *e)
{
    if (!sema_kernel_btf(s))
        return place_error(s, e->span, "@cast(..., \"kernel\") needs the kernel's BTF (/sys/kernel/btf/vmlinux), "
                           "which cannot be read");
    struct btf *btf;
    const char *missing;
    int type_id = kernel_cast_type_id(s, e->cast.module, e->cast.type_name, &btf, &missing);
    if (!type_id && missing)
        return place_error(s, e->span, arena_printf(s->arena, "unable to find type '%s' in the kernel's BTF: "
                                                    "module %s is not loaded (no /sys/kernel/btf/%s)",
                                                    e->cast.type_name, missing, missing));
    if (!type_id)
        return place_error(s, e->span, arena_printf(s->arena, "unable to find type '%s' in the kernel's BTF%s",
                                                    e->cast.type_name,
                                                    cast_modules(e->cast.module) ? " nor its modules'" : ""));
    if (e->cast.pretty)
        return place_error(s, e->span, "pretty printing of kernel @cast is not supported");
    struct kplace place = {.address = e->cast.address, .type_id = type_id};
    const char *what = arena_printf(s->arena, "@cast(..., \"%s\")", e->cast.type_name);
    struct component *components = e->cast.components;
    if (components && components->kind == COMPONENT_INDEX) {
        /* @cast(p, "T")[i] is ((T *)p)[i], as in SystemTap: &@cast(0, "T")[1] is sizeof(T) */
        int64_t size = btf__resolve_size(btf, type_id);
        place.address = add_index(s, components->span, place.address, components->index, size > 0 ? size : 0);
        what = arena_printf(s->arena, "%s[...]", what);
        components = components->next;
    }
    return finish_kernel_place(s, btf, &place, components, e->cast.address_of, e, what);
}

/* `p->f` where p's value has BTF type `type` (autocast.c): a pointer, the
 * address of an object (`&@cast(...)->g`) or of an array. */
int sema_lower_btf_autocast(struct sema *s, struct expr *e, const struct c_type *type, const char *what)
{
    struct btf *btf = sema_probe_btf(s, type->module);
    if (!btf)
        return place_error(s, e->span, "autocast of a kernel type needs the kernel's BTF, which cannot be read");
    if (e->autocast.pretty)
        return place_error(s, e->span, "pretty printing of kernel types is not supported");
    const struct btf_type *t = btf__type_by_id(btf, resolved(btf, type->type_id));
    struct kplace place = {.value = e->autocast.operand, .type_id = type->type_id};
    if (type->address_of || (t && btf_is_array(t))) {
        place.address = place.value;
        place.value = NULL;
    }
    return finish_kernel_place(s, btf, &place, e->autocast.components, e->autocast.address_of, e, what);
}
