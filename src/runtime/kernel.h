/* What the running kernel is: the oldest tap runs on, and the BPF
 * instruction set its verifier accepts (kernel.c). */
#ifndef TAP_RUNTIME_KERNEL_H
#define TAP_RUNTIME_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* The oldest kernel tap supports (README.md, "Kernels"): the newest helper
 * every script's runtime may call, bpf_map_lookup_percpu_elem, is 5.19's. */
#define KERNEL_FLOOR_MAJOR 5
#define KERNEL_FLOOR_MINOR 19

/* 0, or -1 with one line in error saying which kernel this is and why it
 * is too old. A release that does not parse passes. */
int kernel_check_floor(char *error, size_t error_size);

/* The newest BPF instruction set (LLVM's -mcpu=vN) the kernel loads: 4 (sign-
 * extending moves and loads, signed division: 6.6), 3 (32-bit jumps: 5.1) or
 * 2; 0 when it loads no program at all (no privilege). */
int kernel_bpf_isa(void);

/* Loads a GPL program of that type for a feature probe: its fd, or -1 with
 * errno. */
struct bpf_insn;
int kernel_load_test_program(int prog_type, int expected_attach_type, const struct bpf_insn *insns, int count);

/* Which kernel runs: its release, and its build id (its image's GNU build
 * id note) in hex, empty where either is not shown. A compiled object
 * records it (its structure offsets are that kernel's) and --run checks it. */
struct kernel_identity {
    char release[65];
    char build_id[129];
};
void kernel_identity_read(struct kernel_identity *id);

/* Where /proc/kallsyms puts vmlinux's symbol NAME: 0 with *address (0
 * for a reader without CAP_SYSLOG), or -1. *lists_data (unless NULL):
 * whether it lists local data symbols at all (CONFIG_KALLSYMS_ALL). */
int kernel_symbol_address(const char *name, uint64_t *address, int *lists_data);

/* The first kernel release with instruction set isa: "6.6" for 4. */
const char *kernel_isa_release(int isa);

#endif
