/* Where a function-entry uprobe traps cheaply. The kernel emulates a few
 * x86 instructions at a uprobe (push, call, jmp, jcc: ~0.6 us a hit) and
 * single-steps every other (~11 us). At -O2 a function's first instruction
 * is often a mov or a sub: then, when every way into the function is a
 * direct call or jump this binary makes (no export, no address taken), the
 * probe sits on those instead, each an emulated instruction, and still
 * fires exactly once per call. */
#ifndef TAP_SEMA_CALL_SITES_H
#define TAP_SEMA_CALL_SITES_H

#include <stdint.h>

struct arena;
struct dwarf_module;

enum { CALL_SITES_MAX = 64 };    /* beyond this many, each a broken COW page: stay at the entry */

struct call_sites {
    uint64_t entry;              /* in: the function's first instruction (file vaddr) */
    uint64_t *vaddrs;            /* out: the calls and jumps to entry; NULL: stay at the entry */
    int count;
    const char *why_not;         /* out: why not, for -v */
};

/* Fills in each of `functions` (one pass over the code for all of them). */
void call_sites_find(struct arena *arena, struct dwarf_module *m, struct call_sites *functions, int count);

#endif
