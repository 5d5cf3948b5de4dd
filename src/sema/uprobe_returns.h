/* .return probes that cannot break unwinding. A uretprobe replaces the
 * return address on the stack with the kernel's trampoline; an exception
 * unwinding through that frame finds no FDE for it and calls
 * std::terminate. In a binary whose frames an exception can unwind through
 * (it has exception tables or raises/propagates exceptions), a .return
 * probe sits on the function's rets instead: the same moment (rax holds
 * the value, rsp + 8 is the CFA, as after a uretprobe rsp is), nothing on
 * the stack changed, at the price of a single-stepped ret (~11 us a hit
 * against ~1.2 us). C code is unwound through too (a C++ callback that
 * throws through libc's qsort), so the same holds there. A function that
 * calls nothing (no exception can start below it) keeps the uretprobe. A
 * function that may leave by a jump (a tail call) cannot be probed at its
 * rets: its value is not known there; in a binary that unwinds it is
 * refused with the reason, in C code it keeps the uretprobe (-v says). */
#ifndef TAP_SEMA_UPROBE_RETURNS_H
#define TAP_SEMA_UPROBE_RETURNS_H

#include <stdint.h>

struct arena;
struct dwarf_module;
struct dwarf_function;

/* Whether exceptions unwind through m's frames: its symbols name the C++
 * or unwinder entry points that raise, rethrow or resume one (__cxa_throw,
 * _Unwind_Resume, __gxx_personality_v0 ...). A .gcc_except_table alone
 * (C cleanups, as glibc's for thread cancellation) does not count. */
int uprobe_module_unwinds(struct dwarf_module *m);

/* A function's ways out, from decoding its code. */
struct function_exits {
    uint64_t *rets;              /* file vaddrs (in the arena) */
    int count;
    int calls;                   /* it calls something: an exception may unwind through it */
    const char *why_not;         /* not every exit is a ret (a tail call), or the code is unknown */
    int module_unwinds;          /* its binary raises or propagates exceptions itself */
};

/* Whether a .return sits at the rets: the function calls something (an
 * exception thrown below may unwind through its frame, also in C code: a
 * callback that throws through libc's qsort), or, in a binary that unwinds,
 * its exits are not all rets (refused). A leaf keeps its uretprobe, and so
 * does a function of a C binary that may leave by a tail jump (its value
 * is not known at its rets: a uretprobe is the only way, and an exception
 * can reach it only through a callback from C++ code). */
int uprobe_exits_at_returns(const struct function_exits *exits);

void uprobe_function_exits(struct arena *arena, struct dwarf_module *m, const struct dwarf_function *f,
                           struct function_exits *out);

#endif
