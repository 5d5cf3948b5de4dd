/* Shared by the target-variable lowering files (target_vars.c, target_pretty.c):
 * typed places and the lowering context. Not visible outside src/sema. */
#ifndef TAP_SEMA_TARGET_INTERNAL_H
#define TAP_SEMA_TARGET_INTERNAL_H

#include "sema/uprobe.h"

/* A typed place while components are applied. */
enum place_kind { PLACE_MEMORY, PLACE_REG, PLACE_VALUE, PLACE_PIECES };
struct place {
    enum place_kind kind;
    Dwarf_Die type;              /* as declared (typedefs kept for messages) */
    int has_type;
    struct expr *address;        /* PLACE_MEMORY */
    int reg;                     /* PLACE_REG */
    struct expr *value;          /* PLACE_VALUE */
    /* PLACE_PIECES: a composite location; the place starts at bit piece_bit of it */
    const struct dwarf_piece *pieces;
    int piece_count, piece_bit;
    /* a bitfield member: bits within the bytes at address (PLACE_MEMORY),
     * bit_size bits from piece_bit (PLACE_PIECES) */
    int bit_size, bit_offset;
};

struct lowering {
    struct sema *s;
    struct expr *e;              /* reported at */
    struct dwarf_eval ev;
    struct uprobe_site *site;
    int quiet;                   /* @defined: no diagnostics */
    int in_entry;                /* lowering an @entry operand: at the call, not the return */
};

struct variable_list {
    struct target_variable { const char *name; Dwarf_Die die; } *items;
    int count;
};

int target_lower_error(struct lowering *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Variables in scope at the site: innermost first, parameters before locals. */
int target_site_variables(struct uprobe_site *site, struct variable_list *list);
const char *target_die_name(Dwarf_Die *die);
Dwarf_Word target_byte_size(Dwarf_Die *type);
const char *target_type_text(struct lowering *l, Dwarf_Die *type);
/* Size and signedness of a scalar type (base, enum, pointer); 0 otherwise. */
int target_scalar_of(Dwarf_Die *resolved, int *size, int *is_signed);
/* The value at a place as a generic read; NULL after an error. */
struct expr *target_place_value(struct lowering *l, struct place *p, const char *what);
int target_apply_member(struct lowering *l, struct place *p, struct component *c, const char *what);
int target_apply_index(struct lowering *l, struct place *p, struct component *c, const char *what);
int target_pretty_level(const struct expr *e);
int target_optimized_out(struct lowering *l, const char *what);
int target_place_of_location(struct lowering *l, struct dwarf_location *loc, struct place *p, const char *what);
/* Replaces e with the register of a value saved at the call (@entry). */
int target_snapshot(struct lowering *l, struct expr *e);

/* target_pieces.c: places in composite locations (DW_OP_piece). */
struct expr *target_pieces_value(struct lowering *l, const struct place *p, int bits, int is_signed,
                                 const char *what);
void target_place_to_pieces(struct lowering *l, struct place *p);
void target_place_of_pieces(struct dwarf_location *loc, struct place *p);

/* target_pretty.c: $$parms/$$locals/$$vars/$$return, and $v$/$v$$ of a place. */
int target_lower_pretty_list(struct lowering *l, struct expr *e);
int target_lower_pretty_value(struct lowering *l, struct expr *e, struct place *place);

#endif
