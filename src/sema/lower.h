/* Lowering: what a probe's $variables, @entry, @defined, @cast and
 * assignments to its $variables mean where the probe is. Name resolution
 * (resolve.c) calls it at each such node, in its own order: a folded
 * @defined decides which branch is resolved at all, a local's C type comes
 * from the value first assigned to it (autocast), and a lowered expression
 * may hold calls and names (return_str, _tap_hex) to resolve in turn. The
 * kind of the probe says how, by the hooks of its descriptor (kinds.h);
 * the rest is DWARF's (target_vars.c). */
#ifndef TAP_SEMA_LOWER_H
#define TAP_SEMA_LOWER_H

struct sema;
struct expr;

enum lowering_result {
    LOWER_NOT_HERE,        /* not the kind's: resolve binds it as any expression */
    LOWER_DONE,            /* lowered to a final read, or reported */
    LOWER_RESOLVE_AGAIN,   /* rewritten into an expression to resolve */
};

/* A $target, $var, @entry, @defined or @cast (its address resolved). */
enum lowering_result sema_lower_target_read(struct sema *s, struct expr *e);
/* An assignment: LOWER_NOT_HERE unless it writes a $target the kind takes
 * (procfs's $value). */
enum lowering_result sema_lower_assign(struct sema *s, struct expr *assign);
/* Reports why the $target, $var, @cast or autocast e cannot be written. */
void sema_refuse_target_write(struct sema *s, struct expr *e);

#endif
