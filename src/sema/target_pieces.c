/* Places in composite locations (DW_OP_piece, DW_OP_bit_piece): a struct
 * passed by value in two registers, a local whose members live in a
 * register, a stack slot and a known constant. A member is a bit range of
 * the composite; its value is built from the pieces that cover it, each
 * shifted into position, so codegen still sees registers, reads and
 * arithmetic. */
#include <string.h>

#include "sema/target_internal.h"

static struct expr *low_bits(struct dwarf_eval *ev, struct expr *value, int shift, int bits)
{
    if (shift)
        value = dwarf_expr_binary(ev, BINARY_SHR, value, dwarf_expr_int(ev, shift));
    if (bits < 64)      /* BINARY_SHR is arithmetic: the mask drops the sign bits */
        value = dwarf_expr_binary(ev, BINARY_BITAND, value, dwarf_expr_int(ev, (int64_t)((1ull << bits) - 1)));
    return value;
}

/* `bits` bits from bit `from` of one piece, zero-extended; NULL when a
 * memory piece would need a read wider than 8 bytes or the register is a
 * vector one. */
static struct expr *piece_bits(struct dwarf_eval *ev, const struct dwarf_piece *piece, int from, int bits)
{
    int first = piece->bit_offset + from;
    switch (piece->kind) {
    case LOC_REG:       /* rip and below: vector registers are not in pt_regs */
        return piece->reg <= DWARF_REG_IP ? low_bits(ev, dwarf_expr_reg(ev, piece->reg), first, bits) : NULL;
    case LOC_VALUE: return low_bits(ev, piece->value, first, bits);
    case LOC_MEMORY: {
        int shift = first % 8, bytes = (shift + bits + 7) / 8;
        int size = bytes <= 1 ? 1 : bytes <= 2 ? 2 : bytes <= 4 ? 4 : bytes <= 8 ? 8 : 0;
        if (!size)
            return NULL;
        struct expr *address = dwarf_expr_add(ev, piece->address, dwarf_expr_int(ev, first / 8));
        return low_bits(ev, dwarf_expr_read(ev, address, size, 0), shift, bits);
    }
    default:
        return NULL;
    }
}

/* The `bits`-bit value at p (PLACE_PIECES), from every piece it overlaps. */
struct expr *target_pieces_value(struct lowering *l, const struct place *p, int bits, int is_signed,
                                 const char *what)
{
    struct dwarf_eval *ev = &l->ev;
    int start = p->piece_bit, end = start + bits, covered = 0, piece_start = 0;
    struct expr *value = NULL;
    for (int i = 0; i < p->piece_count; i++) {
        const struct dwarf_piece *piece = &p->pieces[i];
        int piece_end = piece_start + piece->bit_size;
        int from = start > piece_start ? start : piece_start, to = end < piece_end ? end : piece_end;
        if (from < to) {
            if (piece->kind == LOC_OPTIMIZED_OUT)
                break;
            struct expr *part = piece_bits(ev, piece, from - piece_start, to - from);
            if (!part) {
                target_lower_error(l, "%s: a piece of its location is beyond tap (%d bits at bit %d)", what,
                                   to - from, from);
                return NULL;
            }
            if (from > start)
                part = dwarf_expr_binary(ev, BINARY_SHL, part, dwarf_expr_int(ev, from - start));
            value = value ? dwarf_expr_binary(ev, BINARY_BITOR, value, part) : part;
            covered += to - from;
        }
        piece_start = piece_end;
    }
    if (covered < bits) {   /* a piece is optimized out, or the location is shorter than the value */
        target_optimized_out(l, what);
        return NULL;
    }
    if (is_signed && bits < 64) {
        struct expr *shift = dwarf_expr_int(ev, 64 - bits);
        value = dwarf_expr_binary(ev, BINARY_SHR, dwarf_expr_binary(ev, BINARY_SHL, value, shift), shift);
    }
    return value;
}

/* A register or a value seen as one 64-bit piece, so members of a small
 * struct held in a register are its bytes. */
void target_place_to_pieces(struct lowering *l, struct place *p)
{
    if (p->kind != PLACE_REG && p->kind != PLACE_VALUE)
        return;
    struct dwarf_piece *piece = ARENA_NEW(l->s->arena, struct dwarf_piece);
    piece->kind = p->kind == PLACE_REG ? LOC_REG : LOC_VALUE;
    piece->reg = p->reg;
    piece->value = p->value;
    piece->bit_size = 64;
    p->kind = PLACE_PIECES;
    p->pieces = piece;
    p->piece_count = 1;
    p->piece_bit = 0;
}

/* A composite; one whole-byte piece that holds the whole value is a plain
 * register, value or address. */
void target_place_of_pieces(struct dwarf_location *loc, struct place *p)
{
    const struct dwarf_piece *first = &loc->pieces[0];
    Dwarf_Die resolved;
    Dwarf_Word size = p->has_type && dwarf_type_resolve(&p->type, &resolved) ? target_byte_size(&resolved) : 0;
    if (loc->piece_count == 1 && first->bit_offset == 0 && size && (Dwarf_Word)first->bit_size >= size * 8 &&
        first->kind != LOC_OPTIMIZED_OUT) {
        p->kind = first->kind == LOC_REG ? PLACE_REG : first->kind == LOC_VALUE ? PLACE_VALUE : PLACE_MEMORY;
        p->reg = first->reg;
        p->value = first->value;
        p->address = first->address;
        return;
    }
    p->kind = PLACE_PIECES;
    p->pieces = loc->pieces;
    p->piece_count = loc->piece_count;
    p->piece_bit = 0;
}
