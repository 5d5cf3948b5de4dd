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
 * calls nothing (no exception can start below it) keeps the uretprobe.
 *
 * A direct tail jump (`jmp g` once the frame is popped) leaves g's ret to
 * pop the caller's return address, at the stack pointer the function's own
 * ret would have: the probe sits at g's rets too (followed transitively, a
 * few functions deep), and fires there only for a g that the jump entered.
 * An entry program records {thread, CFA}; a program at each tail jump and
 * each chain member's entry keeps the record's state (jumping, then inside
 * the chain) or, at a member entered by anything else at that CFA, deletes
 * the record a frame left by an exception or longjmp would leave behind;
 * the probe runs at a ret only where a record is found (the @entry rule).
 * An exit that cannot be followed (an indirect tail jump, a jump out of
 * the code before the frame is popped) makes it refused in a binary that
 * unwinds; in C code it keeps the uretprobe (-v says the risk): refusing
 * would take .return away from every such C function, in programs no
 * exception can cross. */
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

enum { TAIL_SITE_JUMP = 1, TAIL_SITE_ENTRY = 2 };   /* the cookies of the tail program's sites */

/* A function's ways out, from decoding its code. */
struct function_exits {
    uint64_t *rets;              /* file vaddrs (in the arena): its own, then its tail chain's */
    int count, own_count;
    uint64_t *tail_sites;        /* its chain's tail jumps and member entries */
    int *tail_kinds;             /* TAIL_SITE_JUMP or TAIL_SITE_ENTRY */
    int tail_count;
    const char *tail_names;      /* the members: "qsort_r", or NULL */
    int calls;                   /* it or its chain calls something: an exception may unwind through it */
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
