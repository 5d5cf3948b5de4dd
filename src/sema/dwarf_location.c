/* DWARF location expressions evaluated at one pc into generic reads:
 * registers (EXPR_REGISTER), memory (EXPR_USER_READ: the traced process's,
 * or the kernel's for vmlinux) and plain
 * arithmetic, so codegen never sees DWARF. Location lists are resolved by
 * dwarf_getlocation_addr; the frame base and DW_OP_call_frame_cfa come from
 * the CFI (.eh_frame) at the pc. */
#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "sema/dwarf.h"

#define EVAL_STACK 16
#define MAX_PIECES 16

struct expr *dwarf_expr_int(struct dwarf_eval *ev, int64_t value)
{
    struct expr *e = ast_expr(ev->arena, EXPR_INT, ev->span);
    e->int_value = value;
    e->type = TYPE_LONG;
    return e;
}

struct expr *dwarf_expr_reg(struct dwarf_eval *ev, int reg)
{
    struct expr *e = ast_expr(ev->arena, EXPR_REGISTER, ev->span);
    e->reg.number = reg;
    e->type = TYPE_LONG;
    return e;
}

struct expr *dwarf_expr_binary(struct dwarf_eval *ev, enum binary_op op, struct expr *a, struct expr *b)
{
    struct expr *e = ast_expr(ev->arena, EXPR_BINARY, ev->span);
    e->binary.op = op;
    e->binary.lhs = a;
    e->binary.rhs = b;
    e->type = TYPE_LONG;
    return e;
}

struct expr *dwarf_expr_add(struct dwarf_eval *ev, struct expr *a, struct expr *b)
{
    if (b->kind == EXPR_INT && b->int_value == 0)
        return a;
    if (a->kind == EXPR_INT && b->kind == EXPR_INT)
        return dwarf_expr_int(ev, (int64_t)((uint64_t)a->int_value + (uint64_t)b->int_value));
    /* (x + c1) + c2 -> x + (c1 + c2): frame-base offsets read plainly */
    if (b->kind == EXPR_INT && a->kind == EXPR_BINARY && a->binary.op == BINARY_ADD &&
        a->binary.rhs->kind == EXPR_INT)
        return dwarf_expr_add(ev, a->binary.lhs, dwarf_expr_int(ev, (int64_t)((uint64_t)a->binary.rhs->int_value +
                                                                             (uint64_t)b->int_value)));
    return dwarf_expr_binary(ev, BINARY_ADD, a, b);
}

struct expr *dwarf_expr_read(struct dwarf_eval *ev, struct expr *address, int size, int is_signed)
{
    struct expr *e = ast_expr(ev->arena, EXPR_USER_READ, ev->span);
    e->user_read.address = address;
    e->user_read.kernel = ev->module && ev->module->is_kernel;
    e->user_read.size = size;
    e->user_read.is_signed = is_signed;
    e->type = TYPE_LONG;
    return e;
}

struct expr *dwarf_expr_narrow(struct dwarf_eval *ev, struct expr *value, int size, int is_signed)
{
    if (size >= 8 || size <= 0)
        return value;
    if (!is_signed)
        return dwarf_expr_binary(ev, BINARY_BITAND, value, dwarf_expr_int(ev, (int64_t)((1ull << (size * 8)) - 1)));
    struct expr *shift = dwarf_expr_int(ev, 64 - size * 8);
    return dwarf_expr_binary(ev, BINARY_SHR, dwarf_expr_binary(ev, BINARY_SHL, value, shift), shift);
}

static int fail(struct dwarf_eval *ev, const char *fmt, unsigned value)
{
    snprintf(ev->error, sizeof(ev->error), fmt, value);
    return 0;
}

/* The CFA at the pc: "register + offset" in every frame gcc describes. */
struct expr *dwarf_frame_cfa_expr(struct dwarf_eval *ev)
{
    if (ev->at_entry)
        return dwarf_expr_add(ev, dwarf_expr_reg(ev, 7), dwarf_expr_int(ev, 8));
    Dwarf_Frame *frame = NULL;
    Dwarf_Op *ops;
    size_t count;
    struct expr *cfa = NULL;
    Dwarf_CFI *cfi = ev->module->cfi ? ev->module->cfi : ev->module->dwarf_cfi;
    if (cfi && dwarf_cfi_addrframe(cfi, ev->pc, &frame) == 0 &&
        dwarf_frame_cfa(frame, &ops, &count) == 0 && count == 1 &&
        (ops[0].atom == DW_OP_bregx || (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31))) {
        int reg = ops[0].atom == DW_OP_bregx ? (int)ops[0].number : ops[0].atom - DW_OP_breg0;
        int64_t offset = ops[0].atom == DW_OP_bregx ? (int64_t)ops[0].number2 : (int64_t)ops[0].number;
        cfa = dwarf_expr_add(ev, dwarf_expr_reg(ev, reg), dwarf_expr_int(ev, offset));
    }
    free(frame);
    if (!cfa)
        snprintf(ev->error, sizeof(ev->error), "no call frame information at pc 0x%llx",
                 (unsigned long long)ev->pc);
    return cfa;
}

static int evaluate(struct dwarf_eval *ev, Dwarf_Op *ops, size_t count, struct dwarf_location *loc,
                    int depth);

static struct expr *frame_base(struct dwarf_eval *ev, int depth)
{
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t count;
    if (!ev->function || !dwarf_attr_integrate(ev->function, DW_AT_frame_base, &attr) ||
        dwarf_getlocation_addr(&attr, ev->pc, &ops, &count, 1) != 1) {
        snprintf(ev->error, sizeof(ev->error), "no frame base at pc 0x%llx", (unsigned long long)ev->pc);
        return NULL;
    }
    struct dwarf_location base;
    if (depth > 2 || !evaluate(ev, ops, count, &base, depth + 1))
        return NULL;
    if (base.kind == LOC_REG)
        return dwarf_expr_reg(ev, base.reg);
    if (base.kind == LOC_MEMORY)
        return base.address;    /* DW_OP_call_frame_cfa and bregN: the address is the base */
    snprintf(ev->error, sizeof(ev->error), "unsupported frame base");
    return NULL;
}

/* The simple location the operations so far describe: the register or
 * value they named, else the address on top of the stack, else nothing. */
static void simple_location(struct dwarf_piece *current, int located, int gone, struct expr **stack, int top)
{
    if (gone || (!located && top == 0)) {
        current->kind = LOC_OPTIMIZED_OUT;
    } else if (!located) {
        current->kind = LOC_MEMORY;
        current->address = stack[top - 1];
    }
}

static int evaluate(struct dwarf_eval *ev, Dwarf_Op *ops, size_t count, struct dwarf_location *loc,
                    int depth)
{
    struct expr *stack[EVAL_STACK];
    int top = 0;
    struct dwarf_piece pieces[MAX_PIECES], current = {0};
    int piece_count = 0;
    int located = 0;    /* current names its place: a register or a value */
    int gone = 0;       /* current is optimized out: skip to its DW_OP_piece */
    memset(loc, 0, sizeof(*loc));
#define PUSH(e) do { struct expr *pushed_ = (e); if (!pushed_) return 0; \
                     if (top == EVAL_STACK) return fail(ev, "DWARF expression too deep%.0u", 0); \
                     stack[top++] = pushed_; } while (0)
#define NEED(n) do { if (top < (n)) return fail(ev, "malformed DWARF expression (op 0x%x)", op->atom); } while (0)
    for (size_t i = 0; i < count; i++) {
        Dwarf_Op *op = &ops[i];
        unsigned atom = op->atom;
        if (atom == DW_OP_piece || atom == DW_OP_bit_piece) {
            if (piece_count == MAX_PIECES)
                return fail(ev, "more than %u pieces in a DWARF location", MAX_PIECES);
            simple_location(&current, located, gone, stack, top);
            current.bit_size = (int)(atom == DW_OP_piece ? op->number * 8 : op->number);
            current.bit_offset = atom == DW_OP_piece ? 0 : (int)op->number2;
            pieces[piece_count++] = current;
            memset(&current, 0, sizeof(current));
            located = gone = top = 0;
            continue;
        }
        if (located || gone)
            continue;   /* nothing but a piece may follow a register or a value */
        if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
            current.kind = LOC_REG;
            current.reg = (int)(atom - DW_OP_reg0);
            located = 1;
            continue;
        }
        if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
            PUSH(dwarf_expr_add(ev, dwarf_expr_reg(ev, (int)(atom - DW_OP_breg0)),
                                dwarf_expr_int(ev, (int64_t)op->number)));
            continue;
        }
        if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
            PUSH(dwarf_expr_int(ev, atom - DW_OP_lit0));
            continue;
        }
        switch (atom) {
        case DW_OP_regx:
            current.kind = LOC_REG;
            current.reg = (int)op->number;
            located = 1;
            break;
        case DW_OP_bregx:
            PUSH(dwarf_expr_add(ev, dwarf_expr_reg(ev, (int)op->number), dwarf_expr_int(ev, (int64_t)op->number2)));
            break;
        case DW_OP_addr: {
            struct expr *address = dwarf_expr_int(ev, (int64_t)op->number);
            if (ev->module->is_kernel) {
                address = dwarf_expr_int(ev, (int64_t)op->number + ev->module->kernel_offset);
            } else if (ev->module->is_shared) {
                struct expr *bias = ev->load_bias ? ev->load_bias(ev) : dwarf_expr_reg(ev, DWARF_REG_LOAD_BIAS);
                if (!bias)
                    return 0;
                address = dwarf_expr_add(ev, bias, address);
            }
            PUSH(address);
            break;
        }
        case DW_OP_fbreg:
            PUSH(dwarf_expr_add(ev, frame_base(ev, depth), dwarf_expr_int(ev, (int64_t)op->number)));
            break;
        case DW_OP_call_frame_cfa: PUSH(dwarf_frame_cfa_expr(ev)); break;
        case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
        case DW_OP_constu:
            PUSH(dwarf_expr_int(ev, (int64_t)op->number));
            break;
        case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
        case DW_OP_consts:
            PUSH(dwarf_expr_int(ev, (int64_t)op->number));
            break;
        case DW_OP_plus_uconst:
            NEED(1);
            stack[top - 1] = dwarf_expr_add(ev, stack[top - 1], dwarf_expr_int(ev, (int64_t)op->number));
            break;
        case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_and: case DW_OP_or:
        case DW_OP_xor: case DW_OP_shl: case DW_OP_shra: {
            NEED(2);
            static const struct { unsigned atom; enum binary_op op; } map[] = {
                {DW_OP_plus, BINARY_ADD}, {DW_OP_minus, BINARY_SUB}, {DW_OP_mul, BINARY_MUL},
                {DW_OP_and, BINARY_BITAND}, {DW_OP_or, BINARY_BITOR}, {DW_OP_xor, BINARY_BITXOR},
                {DW_OP_shl, BINARY_SHL}, {DW_OP_shra, BINARY_SHR},
            };
            enum binary_op bop = BINARY_ADD;
            for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
                if (map[k].atom == atom)
                    bop = map[k].op;
            struct expr *b = stack[--top], *a = stack[--top];
            PUSH(dwarf_expr_binary(ev, bop, a, b));
            break;
        }
        case DW_OP_neg:
            NEED(1);
            stack[top - 1] = dwarf_expr_binary(ev, BINARY_SUB, dwarf_expr_int(ev, 0), stack[top - 1]);
            break;
        case DW_OP_deref:
            NEED(1);
            stack[top - 1] = dwarf_expr_read(ev, stack[top - 1], 8, 0);
            break;
        case DW_OP_deref_size:
            NEED(1);
            stack[top - 1] = dwarf_expr_read(ev, stack[top - 1], (int)op->number, 0);
            break;
        case DW_OP_stack_value:
            NEED(1);
            current.kind = LOC_VALUE;
            current.value = stack[top - 1];
            located = 1;
            break;
        case DW_OP_implicit_value: {
            if (op->number > 8)
                return fail(ev, "implicit value of %u bytes is not supported", (unsigned)op->number);
            int64_t value = 0;
            memcpy(&value, (const void *)(uintptr_t)op->number2, (size_t)op->number);
            current.kind = LOC_VALUE;
            current.value = dwarf_expr_int(ev, value);
            located = 1;
            break;
        }
        case DW_OP_entry_value:
        case DW_OP_GNU_entry_value: {
            /* The block is one DW_OP_regN (or regx): that register at the call.
             * libdw points number2 at the block's ULEB128 length. */
            const unsigned char *block = (const unsigned char *)(uintptr_t)op->number2;
            while (*block & 0x80)
                block++;
            block++;
            int reg = -1;
            if (op->number == 1 && block[0] >= DW_OP_reg0 && block[0] <= DW_OP_reg31)
                reg = block[0] - DW_OP_reg0;
            else if (op->number == 2 && block[0] == DW_OP_regx && block[1] < 0x80)
                reg = block[1];
            struct expr *value = reg < 0 ? NULL
                : ev->at_entry ? dwarf_expr_reg(ev, reg)
                : ev->entry_value ? ev->entry_value(ev, reg) : NULL;
            if (!value) {
                gone = 1;
                break;
            }
            PUSH(value);
            break;
        }
        case DW_OP_GNU_parameter_ref:
            gone = 1;
            break;
        case DW_OP_nop:
            break;
        default:
            return fail(ev, "DWARF operation 0x%x is not supported", atom);
        }
    }
    if (piece_count) {
        loc->kind = LOC_PIECES;
        loc->pieces = ARENA_ARRAY(ev->arena, struct dwarf_piece, piece_count);
        memcpy(loc->pieces, pieces, sizeof(pieces[0]) * (size_t)piece_count);
        loc->piece_count = piece_count;
        return 1;
    }
    simple_location(&current, located, gone, stack, top);
    loc->kind = current.kind;
    loc->reg = current.reg;
    loc->address = current.address;
    loc->value = current.value;
    return 1;
#undef PUSH
#undef NEED
}

static int64_t const_value(Dwarf_Attribute *attr, int *ok)
{
    Dwarf_Sword s;
    Dwarf_Word u;
    *ok = 1;
    if (dwarf_formsdata(attr, &s) == 0)
        return s;
    if (dwarf_formudata(attr, &u) == 0)
        return (int64_t)u;
    *ok = 0;
    return 0;
}

int dwarf_variable_location(struct dwarf_eval *ev, Dwarf_Die *var, struct dwarf_location *loc)
{
    Dwarf_Attribute attr;
    memset(loc, 0, sizeof(*loc));
    if (dwarf_attr_integrate(var, DW_AT_const_value, &attr)) {
        int ok;
        int64_t value = const_value(&attr, &ok);
        loc->kind = ok ? LOC_VALUE : LOC_OPTIMIZED_OUT;
        loc->value = ok ? dwarf_expr_int(ev, value) : NULL;
        return 1;
    }
    if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
        loc->kind = LOC_OPTIMIZED_OUT;
        return 1;
    }
    Dwarf_Op *ops;
    size_t count;
    int n = dwarf_getlocation_addr(&attr, ev->pc, &ops, &count, 1);
    if (n < 0) {
        snprintf(ev->error, sizeof(ev->error), "cannot read the location: %s", dwarf_errmsg(-1));
        return 0;
    }
    if (n == 0 || count == 0) {
        loc->kind = LOC_OPTIMIZED_OUT;
        return 1;
    }
    return evaluate(ev, ops, count, loc, 0);
}

int dwarf_location_evaluate(struct dwarf_eval *ev, Dwarf_Op *ops, size_t count, struct dwarf_location *loc)
{
    return evaluate(ev, ops, count, loc, 0);
}

/* Whether var's location at pc names general-purpose registers only
 * (pieces of them too). */
int dwarf_location_in_registers(Dwarf_Die *var, uint64_t pc)
{
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t count;
    if (!dwarf_attr_integrate(var, DW_AT_location, &attr) || dwarf_getlocation_addr(&attr, pc, &ops, &count, 1) != 1 ||
        count == 0)
        return 0;
    for (size_t i = 0; i < count; i++) {
        unsigned atom = ops[i].atom;
        /* general-purpose registers only: vector ones are not in pt_regs */
        if (!(atom >= DW_OP_reg0 && atom <= DW_OP_reg0 + DWARF_REG_IP) && atom != DW_OP_piece)
            return 0;
    }
    return 1;
}
