/* What this kernel offers to probe its own functions, for the refusal of
 * kernel.function and friends (probes.c): every part of the reason is a
 * check made here, never assumed. kprobes: the perf event source libbpf
 * attaches them through. BPF trampolines: an fentry program on
 * bpf_fentry_test1 (the function the kernel keeps for testing them) loads. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "sema/sema_internal.h"

#define KPROBE_SOURCE "/sys/bus/event_source/devices/kprobe"

/* 0 when an fentry program loads, else the errno of the refusal. */
static int fentry_refusal(struct sema *s)
{
    struct btf *btf = sema_kernel_btf(s);
    int id = btf ? btf__find_by_name_kind(btf, "bpf_fentry_test1", BTF_KIND_FUNC) : -1;
    if (id <= 0)
        return ENOENT;
    struct bpf_insn insns[2] = {
        {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
        {.code = BPF_JMP | BPF_EXIT},
    };
    LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY, .attach_btf_id = (unsigned)id);
    int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns, 2, &opts);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

const char *sema_kernel_function_support(struct sema *s, int *usable)
{
    int kprobes = access(KPROBE_SOURCE, F_OK) == 0;
    int refusal = fentry_refusal(s);
    *usable = !refusal;   /* tap attaches kernel functions with fentry/fexit */
    const char *kprobe_part = kprobes ? "has kprobes" : "has no kprobes (no " KPROBE_SOURCE ")";
    if (!refusal)
        return arena_printf(s->arena, "%s and loads fentry programs", kprobe_part);
    if (refusal == ENOENT)
        return arena_printf(s->arena, "%s and no BTF for fentry programs", kprobe_part);
    return arena_printf(s->arena, "%s and refuses fentry programs (%s)", kprobe_part, strerror(refusal));
}
