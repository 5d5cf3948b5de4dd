/* t_insns SECONDS: functions each starting with one instruction whose fate
 * at a uprobe the kernel decides (arch/x86/kernel/uprobes.c): insn_R_* it
 * refuses, insn_ok_* it takes. The program only sleeps, so the file is
 * mapped while a test attaches: the kernel checks an instruction when it
 * writes the breakpoint into a process, and accepts (then never fires) a
 * probe on a file no process maps. */
#include <stdlib.h>
#include <unistd.h>

#define INSN(name, bytes) \
    __attribute__((naked, noinline, used)) void name(void) { __asm__(".byte " bytes "\n\tret"); }

INSN(insn_R_lock, "0xf0,0xff,0x07")              /* lock incl (%rdi) */
INSN(insn_R_cs, "0x2e,0x8b,0x07")                /* mov %cs:(%rdi),%eax */
INSN(insn_R_callw, "0x66,0xe8,0x00,0x00")        /* callw */
INSN(insn_R_hlt, "0xf4")
INSN(insn_R_int3, "0xcc")
INSN(insn_R_in, "0xec")                          /* in (%dx),%al */
INSN(insn_R_mov_ss, "0x8e,0xd0")                 /* mov %eax,%ss */
INSN(insn_R_vptest, "0xc4,0xe2,0x7d,0x17,0xc1")  /* VEX opcode 17: the one-byte table's pop ss */
INSN(insn_ok_mov, "0x8b,0x07")
INSN(insn_ok_fs, "0x64,0x8b,0x07")               /* mov %fs:(%rdi),%eax */
INSN(insn_ok_vzeroupper, "0xc5,0xf8,0x77")
INSN(insn_ok_syscall, "0x0f,0x05")               /* two-byte opcodes all pass */
INSN(insn_ok_ud2, "0x0f,0x0b")
INSN(insn_ok_rep_stos, "0xf3,0x48,0xab")
INSN(insn_ok_nopw, "0x66,0x90")
INSN(insn_ok_endbr64, "0xf3,0x0f,0x1e,0xfa")

int main(int argc, char **argv)
{
    sleep(argc > 1 ? (unsigned)atoi(argv[1]) : 1);
    return 0;
}
