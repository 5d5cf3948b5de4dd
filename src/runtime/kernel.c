/* The running kernel: its release against tap's floor, and which BPF
 * instruction set its verifier takes. libbpf has no probe for the second:
 * a three-instruction program using the set's newest instruction is loaded,
 * newest set first; the verifier refuses an instruction it does not know
 * ("BPF_MOV uses reserved fields"). Not cached: the probe costs ~0.4 ms
 * (6.18, 2 cores) where a run of a cached `probe begin { exit() }` takes
 * ~90 ms. */
#include "runtime/kernel.h"

#include "base/kernel_build_id.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/bpf.h>

int kernel_check_floor(char *error, size_t error_size)
{
    struct utsname name;
    int major, minor;
    if (uname(&name) != 0 || sscanf(name.release, "%d.%d", &major, &minor) != 2)
        return 0;
    if (major > KERNEL_FLOOR_MAJOR || (major == KERNEL_FLOOR_MAJOR && minor >= KERNEL_FLOOR_MINOR))
        return 0;
    snprintf(error, error_size,
             "kernel %s is older than %d.%d, the oldest tap runs on (BPF helpers such as "
             "bpf_map_lookup_percpu_elem are missing)",
             name.release, KERNEL_FLOOR_MAJOR, KERNEL_FLOOR_MINOR);
    return -1;
}

int kernel_load_test_program(int prog_type, int expected_attach_type, const struct bpf_insn *insns, int count)
{
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.prog_type = (uint32_t)prog_type;
    attr.expected_attach_type = (uint32_t)expected_attach_type;
    attr.insns = (uint64_t)(uintptr_t)insns;
    attr.insn_cnt = (uint32_t)count;
    attr.license = (uint64_t)(uintptr_t)"GPL";
    return (int)syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

/* r0 = 0; <the set's newest instruction on r0>; exit */
static int loads(struct bpf_insn probe)
{
    struct bpf_insn insns[3] = {
        {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
        probe,
        {.code = BPF_JMP | BPF_EXIT},
    };
    int fd = kernel_load_test_program(BPF_PROG_TYPE_SOCKET_FILTER, 0, insns, 3);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

static int newest_isa_loaded(void)
{
    /* v4: r0 = (s8)r0, BPF_MOV with off 8 */
    if (loads((struct bpf_insn){.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_0,
                                .src_reg = BPF_REG_0, .off = 8}))
        return 4;
    /* v3: if w0 > 1 goto +0, a 32-bit jump */
    if (loads((struct bpf_insn){.code = BPF_JMP32 | BPF_JGT | BPF_K, .dst_reg = BPF_REG_0, .imm = 1}))
        return 3;
    /* v2: if r0 < 1 goto +0, the jumps v2 added */
    if (loads((struct bpf_insn){.code = BPF_JMP | BPF_JLT | BPF_K, .dst_reg = BPF_REG_0, .imm = 1}))
        return 2;
    return 0;
}

/* TAP_BPF_ISA=N caps the answer, so that tests run the older sets' code on
 * a newer kernel (as TAP_NO_UPROBE_MULTI=1 takes the perf-event path). */
int kernel_bpf_isa(void)
{
    int isa = newest_isa_loaded();
    const char *cap = getenv("TAP_BPF_ISA");
    if (isa && cap && *cap >= '2' && *cap < '0' + isa && !cap[1])
        isa = *cap - '0';
    return isa;
}

const char *kernel_isa_release(int isa)
{
    return isa >= 4 ? "6.6" : isa == 3 ? "5.1" : "4.14";
}

void kernel_identity_read(struct kernel_identity *id)
{
    struct utsname name;
    snprintf(id->release, sizeof(id->release), "%s", uname(&name) == 0 ? name.release : "");
    unsigned char bytes[64];
    size_t length = kernel_build_id_bytes(bytes, sizeof(bytes));
    id->build_id[0] = 0;
    for (size_t i = 0; i < length && 2 * i + 2 < sizeof(id->build_id); i++)
        snprintf(id->build_id + 2 * i, 3, "%02x", bytes[i]);
}

/* One pass over /proc/kallsyms: "ADDRESS TYPE NAME [MODULE]". Local data
 * symbols (types d, b) are listed only with CONFIG_KALLSYMS_ALL. */
int kernel_symbol_address(const char *name, uint64_t *address, int *lists_data)
{
    FILE *f = fopen("/proc/kallsyms", "re");
    if (!f)
        return -1;
    char line[512];
    int found = 0, data = 0;
    while (fgets(line, sizeof(line), f)) {
        unsigned long long value;
        char type, symbol[256];
        int end = 0;
        if (sscanf(line, "%llx %c %255s%n", &value, &type, symbol, &end) != 3)
            continue;
        data |= type == 'd' || type == 'b';
        if (!found && line[end] == '\n' && strcmp(symbol, name) == 0) {   /* vmlinux's: no [module] */
            *address = value;
            found = 1;
        }
        if (found && (data || !lists_data))
            break;
    }
    fclose(f);
    if (lists_data)
        *lists_data = data;
    return found ? 0 : -1;
}
