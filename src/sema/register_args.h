/* Argument registers by number, and registers by name, for probes on
 * functions without DWARF. */
#ifndef TAP_SEMA_REGISTER_ARGS_H
#define TAP_SEMA_REGISTER_ARGS_H

#include "parser/ast.h"

struct sema;

struct register_arg_function {
    const char *name;
    int size;                    /* bytes kept from the register */
    int is_signed;
    int by_name;                 /* register("rsp"): a register name, not an argument number */
    int returned;                /* returnval(): the return register, in .return probes only */
};

/* Terminated by a NULL name (for --dump-functions). */
extern const struct register_arg_function register_arg_functions[];

/* Rewrites a call of one of them into a register read (1), or returns 0
 * when e calls something else. returnstr(format) becomes the tapset's
 * return_str(format, returnval()), still a call to resolve. Errors are
 * reported and return 1. */
int sema_lower_register_arg(struct sema *s, struct expr *e);

/* A call's value as a kind's register_value hook (kinds.h) answers it, or
 * NULL after reporting why not: the register itself; a word of a BPF
 * trampoline's context (fentry/fexit: the arguments, then the return
 * value); a word of a syscall tracepoint's record. */
struct expr *register_arg_in_register(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                      int reg);
struct expr *register_arg_on_trampoline(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                        int reg);
struct expr *register_arg_at_tracepoint(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                        int reg);

#endif
