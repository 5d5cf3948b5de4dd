/* Kernel BTF for kernel.trace: a tracepoint's prototype, and BTF types
 * spelled as SystemTap spells types in listings ("struct task_struct*",
 * "char const*", "bool"). */
#ifndef TAP_SEMA_BTF_TYPES_H
#define TAP_SEMA_BTF_TYPES_H

struct btf;
struct btf_type;
struct strbuf;

/* The FUNC_PROTO of `__probestub_NAME` (the tracepoint's arguments after the
 * probe's private data, named), or NULL when BTF has none. */
const struct btf_type *btf_tracepoint_prototype(const struct btf *btf, const char *tracepoint);
/* The same from the id of the FUNC `__probestub_NAME` (0: none). */
#define BTF_STUB_PREFIX "__probestub_"
const struct btf_type *btf_stub_prototype(const struct btf *btf, int stub_id);

/* Typedef names as written, qualifiers after what they qualify. */
void btf_type_spell(struct strbuf *sb, const struct btf *btf, int type_id);

#endif
