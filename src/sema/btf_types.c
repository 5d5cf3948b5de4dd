/* Kernel BTF for kernel.trace (see btf_types.h). Spelling follows
 * dwarf_type_spell, so -L lines look the same for both. */
#include "sema/btf_types.h"

#include <stdio.h>

#include <bpf/btf.h>

#include "base/strbuf.h"

const struct btf_type *btf_stub_prototype(const struct btf *btf, int stub_id)
{
    const struct btf_type *proto = stub_id > 0 ? btf__type_by_id(btf, btf__type_by_id(btf, stub_id)->type) : NULL;
    return proto && btf_is_func_proto(proto) && btf_vlen(proto) >= 1 ? proto : NULL;
}

const struct btf_type *btf_tracepoint_prototype(const struct btf *btf, const char *tracepoint)
{
    static const char *const prefixes[] = {BTF_STUB_PREFIX, BTF_ITER_PREFIX};
    for (int i = 0; i < 2; i++) {
        char name[256];
        snprintf(name, sizeof(name), "%s%s", prefixes[i], tracepoint);
        const struct btf_type *proto = btf_stub_prototype(btf, btf__find_by_name_kind(btf, name, BTF_KIND_FUNC));
        if (proto)
            return proto;
    }
    return NULL;
}

static void spell_function_pointer(struct strbuf *sb, const struct btf *btf, const struct btf_type *proto)
{
    btf_type_spell(sb, btf, (int)proto->type);
    strbuf_puts(sb, " (*) (");
    const struct btf_param *param = btf_params(proto);
    for (int i = 0; i < btf_vlen(proto); i++) {
        if (!param[i].type)
            strbuf_printf(sb, "%s...", i ? ", " : "");   /* variadic */
        else {
            strbuf_puts(sb, i ? ", " : "");
            btf_type_spell(sb, btf, (int)param[i].type);
        }
    }
    strbuf_putc(sb, ')');
}

static void spell_named(struct strbuf *sb, const char *kind, const char *name)
{
    strbuf_printf(sb, "%s%s", kind, name && *name ? name : "{...}");
}

void btf_type_spell(struct strbuf *sb, const struct btf *btf, int type_id)
{
    const struct btf_type *t = type_id ? btf__type_by_id(btf, (unsigned)type_id) : NULL;
    if (!t) {
        strbuf_puts(sb, "void");
        return;
    }
    const char *name = btf__name_by_offset(btf, t->name_off);
    const struct btf_type *target = btf__type_by_id(btf, t->type);
    switch (btf_kind(t)) {
    case BTF_KIND_STRUCT: spell_named(sb, "struct ", name); return;
    case BTF_KIND_UNION: spell_named(sb, "union ", name); return;
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64: spell_named(sb, "enum ", name); return;
    case BTF_KIND_FWD: spell_named(sb, btf_kflag(t) ? "union " : "struct ", name); return;
    case BTF_KIND_PTR:
        if (target && btf_is_func_proto(target)) {
            spell_function_pointer(sb, btf, target);
            return;
        }
        btf_type_spell(sb, btf, (int)t->type);
        strbuf_putc(sb, '*');
        return;
    case BTF_KIND_CONST:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
        btf_type_spell(sb, btf, (int)t->type);
        strbuf_puts(sb, btf_is_const(t) ? " const" : btf_is_volatile(t) ? " volatile" : " restrict");
        return;
    case BTF_KIND_TYPE_TAG:   /* __user, __rcu: annotations, not C types */
        btf_type_spell(sb, btf, (int)t->type);
        return;
    case BTF_KIND_ARRAY:
        btf_type_spell(sb, btf, (int)btf_array(t)->type);
        strbuf_puts(sb, "[]");
        return;
    case BTF_KIND_FUNC_PROTO:
        spell_function_pointer(sb, btf, t);
        return;
    default:   /* INT, FLOAT, TYPEDEF: by name */
        strbuf_puts(sb, name && *name ? name : "?");
    }
}

int btf_record_size(const struct btf *btf, int type_id)
{
    int id = btf__resolve_type(btf, (unsigned)type_id);
    const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (unsigned)id) : NULL;
    return t && (btf_is_struct(t) || btf_is_union(t)) ? (int)t->size : 0;
}

int btf_trampoline_word(const struct btf *btf, const struct btf_type *proto, int index)
{
    int word = 0;
    for (int i = 0; i < index && i < btf_vlen(proto); i++)
        word += btf_record_size(btf, (int)btf_params(proto)[i].type) > 8 ? 2 : 1;
    return word;
}
