/* Kernel BTF for kernel.trace: a tracepoint's prototype, and BTF types
 * spelled as SystemTap spells types in listings ("struct task_struct*",
 * "char const*", "bool"). */
#ifndef TAP_SEMA_BTF_TYPES_H
#define TAP_SEMA_BTF_TYPES_H

struct btf;
struct btf_type;
struct strbuf;

/* The FUNC_PROTO of a function the kernel declares with the tracepoint's
 * prototype after a `void *__data` (its arguments named), or NULL when BTF
 * has none: `__probestub_NAME` (6.4 on), else `__traceiter_NAME` (5.10 on;
 * 6.1 has no stubs, and its `__bpf_trace_*` are named after event classes). */
const struct btf_type *btf_tracepoint_prototype(const struct btf *btf, const char *tracepoint);
/* The same from the id of such a FUNC (0: none). */
#define BTF_STUB_PREFIX "__probestub_"
#define BTF_ITER_PREFIX "__traceiter_"
const struct btf_type *btf_stub_prototype(const struct btf *btf, int stub_id);

/* The bytes of a struct or union type passed by value; 0 for anything else. */
int btf_record_size(const struct btf *btf, int type_id);
/* Where parameter `index` of a kernel function (its return value at index
 * vlen) is in a BPF trampoline's context, in u64 words: a struct or union
 * passed by value takes one per 8 bytes (the kernel takes up to 16), any
 * other parameter one. */
int btf_trampoline_word(const struct btf *btf, const struct btf_type *proto, int index);

/* Typedef names as written, qualifiers after what they qualify. */
void btf_type_spell(struct strbuf *sb, const struct btf *btf, int type_id);

#endif
