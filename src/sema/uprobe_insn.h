/* How the kernel's x86-64 uprobes treat the instruction a probe sits on
 * (arch/x86/kernel/uprobes.c): a few it emulates (push, call, jmp, jcc,
 * nop: ~0.6 us a hit), most it single-steps out of line (~11 us), and
 * some it refuses (ENOTSUPP, 524): a lock or cs/ds/es/ss prefix, a branch
 * with an operand-size prefix, and opcodes it will not single-step (int3,
 * int N, in/out, hlt, cli/sti, iret, mov to ss, and the invalid ones).
 * Knowing it at compile time lets a refused entry probe move to the
 * function's calls, or be skipped or reported by name before attaching. */
#ifndef TAP_SEMA_UPROBE_INSN_H
#define TAP_SEMA_UPROBE_INSN_H

#include <stdint.h>

struct arena;
struct dwarf_module;

/* Whether the kernel emulates the instruction at vaddr (else it single-steps it). */
int uprobe_insn_is_emulated(struct dwarf_module *m, uint64_t vaddr);

/* NULL when the kernel takes a uprobe at vaddr; else why not, in words
 * ("the kernel's uprobes refuse its instruction `lock dec dword ptr [rdi]`
 * (a lock prefix)"). */
const char *uprobe_insn_refusal(struct arena *arena, struct dwarf_module *m, uint64_t vaddr);

#endif
