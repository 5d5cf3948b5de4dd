/* uprobe_multi links (kernel >= 6.6): one link attaches a program at many
 * offsets of one binary, with a cookie each, and closes in ~30 ms whatever
 * its size, where every perf-event uprobe costs ~100 ms to close. libbpf
 * 1.1.2 predates them, so the link is created with the raw syscall; the
 * attr offsets are those of the kernel's union bpf_attr (runtime.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "runtime/kernel.h"
#include "runtime/session.h"

#define ATTACH_TYPE_UPROBE_MULTI 48
#define UPROBE_MULTI_RETURN 1u

static void put32(unsigned char *attr, size_t offset, uint32_t value)
{
    memcpy(attr + offset, &value, sizeof(value));
}

static void put64(unsigned char *attr, size_t offset, uint64_t value)
{
    memcpy(attr + offset, &value, sizeof(value));
}

static int sys_bpf(int command, unsigned char *attr, size_t size)
{
    return (int)syscall(SYS_bpf, command, attr, size);
}

/* Whether the kernel makes uprobe_multi links, asked as libbpf's
 * probe_uprobe_multi_link does: a kernel without them loads the program
 * anyway (6.1 ignores a kprobe program's attach type), so a link is made on
 * "/", which a kernel with them refuses as no regular file (EBADF) and one
 * without as an unknown attach type (EINVAL). */
int uprobe_multi_supported(void)
{
    struct bpf_insn insns[2] = {
        {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
        {.code = BPF_JMP | BPF_EXIT},
    };
    int fd = kernel_load_test_program(BPF_PROG_TYPE_KPROBE, ATTACH_TYPE_UPROBE_MULTI, insns, 2);
    if (fd < 0)
        return 0;
    uint64_t offset = 0;
    int link = uprobe_multi_attach(fd, "/", &offset, NULL, NULL, 1, 0);
    if (link >= 0)
        close(link);
    close(fd);
    return link == -EBADF;
}

/* Returns the link fd, or -errno. */
int uprobe_multi_attach(int prog_fd, const char *path, const uint64_t *offsets, const uint64_t *ref_ctr_offsets,
                        const uint64_t *cookies, uint32_t count, int is_return)
{
    unsigned char attr[128];
    memset(attr, 0, sizeof(attr));
    put32(attr, 0, (uint32_t)prog_fd);
    put32(attr, 8, ATTACH_TYPE_UPROBE_MULTI);
    put64(attr, 16, (uint64_t)(uintptr_t)path);
    put64(attr, 24, (uint64_t)(uintptr_t)offsets);
    put64(attr, 32, (uint64_t)(uintptr_t)ref_ctr_offsets);
    put64(attr, 40, (uint64_t)(uintptr_t)cookies);
    put32(attr, 48, count);
    put32(attr, 52, is_return ? UPROBE_MULTI_RETURN : 0);
    int fd = sys_bpf(BPF_LINK_CREATE, attr, sizeof(attr));
    return fd < 0 ? -errno : fd;
}
