/* SystemTap's autocast: a value read from a target variable or a @cast keeps
 * its C type, which flows through locals (assignments in one body),
 * parenthesized expressions, ternaries of one type and function returns, so
 * `p = $f; p->level` needs no @cast. The member walk is the target
 * variables' own: DWARF (target_vars.c) or the kernel's BTF
 * (tracepoint_args.c). Not visible outside src/sema. */
#ifndef TAP_SEMA_AUTOCAST_H
#define TAP_SEMA_AUTOCAST_H

#include "sema/dwarf.h"
#include "sema/sema_internal.h"

enum c_type_source { C_TYPE_DWARF, C_TYPE_BTF };

struct c_type {
    enum c_type_source source;
    int address_of;              /* the value is the address of an object of this type (`&$v->f`) */
    Dwarf_Die die;               /* C_TYPE_DWARF: the type as declared */
    const char *module;          /* C_TYPE_BTF: the kernel module whose split BTF has type_id; NULL: vmlinux */
    int type_id;                 /* C_TYPE_BTF */
};

/* Notes on a lowered read the C type of its value. */
void sema_note_dwarf_ctype(struct sema *s, struct expr *e, Dwarf_Die *type, int address_of);
void sema_note_btf_ctype(struct sema *s, struct expr *e, struct btf *btf, int type_id, int address_of);

/* `local = value`: the local takes the value's C type (resolve.c). */
void sema_assign_ctype(struct sema *s, struct expr *assign);
/* `return value` in a function: its return's C type. */
void sema_return_ctype(struct sema *s, struct expr *value);

/* Lowers an EXPR_AUTOCAST whose operand is resolved; 0 after an error. */
int sema_lower_autocast(struct sema *s, struct expr *e);

/* @defined(autocast): folds e to 0 or 1. */
int sema_autocast_defined(struct sema *s, struct expr *e);

/* The lowerings of each type source (target_vars.c, tracepoint_args.c). */
int target_lower_autocast(struct sema *s, struct expr *e, const struct c_type *type, const char *what);
int sema_lower_btf_autocast(struct sema *s, struct expr *e, const struct c_type *type, const char *what);
const char *sema_btf_type_text(struct sema *s, struct btf *btf, int id);

#endif
