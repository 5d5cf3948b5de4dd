/* kinds/kprobe.c's resolution, shared with kernel.function, which puts the
 * functions it cannot give a BPF trampoline on kprobes. */
#ifndef TAP_KINDS_KPROBE_H
#define TAP_KINDS_KPROBE_H

struct sema;
struct probe;

/* A copy of `model` on kernel function `name` (btf_id: its BTF FUNC, typing
 * $arguments; 0: none, as kprobe.function) as a kprobe, or a kretprobe when
 * is_return, with pp() `point`. With `leader`, a body reading no $variable
 * joins the group *leader heads (one program; one kprobe_multi link when
 * multi, the kernel having them). */
struct probe *kprobe_add_function(struct sema *s, const struct probe *model, const char *name, int btf_id,
                                  int is_return, const char *point, struct probe **leader, int multi);

/* Whether the body (or condition) reads a $variable, @entry or @defined:
 * code that differs from one function to the next, so no shared program. */
int kprobe_body_reads_targets(const struct probe *probe);

#endif
