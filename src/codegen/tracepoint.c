/* Reads of the probe's context record (EXPR_CTX_READ): tracepoint fields.
 * Scalars are direct loads at a constant offset from ctx (the verifier allows
 * nothing else on a tracepoint ctx); strings are copied into a scratch slot. */
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

static LLVMTypeRef int_type(struct codegen *cg, int size)
{
    switch (size) {
    case 1: return cg->i8;
    case 2: return LLVMInt16TypeInContext(cg->context);
    case 4: return cg->i32;
    }
    return cg->i64;
}

static LLVMValueRef ctx_at(struct codegen *cg, LLVMValueRef ctx, LLVMValueRef offset)
{
    return cg_byte_ptr(cg, ctx, offset);
}

static LLVMValueRef load_field(struct codegen *cg, LLVMValueRef ctx, int offset, int size, int is_signed)
{
    LLVMValueRef value = cg_load_as(cg, int_type(cg, size), ctx_at(cg, ctx, cg_const(cg, offset)), "");
    LLVMSetAlignment(value, (unsigned)size);
    if (size == 8)
        return value;
    return is_signed ? cg_widen_signed(cg, value)
                     : cg_widen(cg, value);
}

static LLVMValueRef copy_string(struct codegen *cg, LLVMValueRef src, uint32_t max)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    if (max > cg->string_size || max == 0)
        max = cg->string_size;
    LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, max, 0), src};
    cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    return slot;
}

LLVMValueRef cg_ctx_read(struct codegen *cg, struct expr *e)
{
    /* kernel memory needs no context: also in loops and functions */
    switch (e->ctx_read.kind) {
    case CTX_READ_KERNEL_LONG: {
        LLVMValueRef value = cg_read_kernel(cg, cg_operand(cg, e->ctx_read.address), 0, e->ctx_read.size);
        if (!e->ctx_read.is_signed || e->ctx_read.size == 8)
            return value;
        LLVMValueRef shift = cg_const(cg, 64 - 8 * e->ctx_read.size);
        return cg_ashr(cg, cg_shl(cg, value, shift), shift);
    }
    case CTX_READ_KERNEL_CHARS:
        return copy_string(cg, cg_pointer(cg, cg_operand(cg, e->ctx_read.address)),
                           (uint32_t)e->ctx_read.size + 1);
    default:
        break;
    }
    if (cg->fn->kind != FN_PROBE) {
        diag_error(cg->diags, e->span, "tracepoint fields cannot be read inside loops yet: "
                   "copy the field into a local before the loop");
        return e->type == TYPE_STRING ? cg_string_literal(cg, "", 0) : cg_const(cg, 0);
    }
    LLVMValueRef ctx = cg->fn->record ? cg->fn->record : LLVMGetParam(cg->fn->function, 0);
    switch (e->ctx_read.kind) {
    case CTX_READ_LONG:
        return load_field(cg, ctx, e->ctx_read.offset, e->ctx_read.size, e->ctx_read.is_signed);
    case CTX_READ_CHARS:
        /* a char[N] that fills its array has no NUL: N + 1 keeps the last char */
        return copy_string(cg, ctx_at(cg, ctx, cg_const(cg, e->ctx_read.offset)),
                           (uint32_t)e->ctx_read.size + 1);
    case CTX_READ_DATA_LOC: {
        LLVMValueRef loc = load_field(cg, ctx, e->ctx_read.offset, 4, 0);
        LLVMValueRef offset = cg_and(cg, loc, cg_const(cg, 0xffff));
        return copy_string(cg, ctx_at(cg, ctx, offset), 0);
    }
    case CTX_READ_FUNC_ARG: {
        uint32_t slot = cg_alloc_scratch(cg, 8);
        LLVMValueRef args[3] = {ctx, cg_const(cg, e->ctx_read.offset / 8), cg_scratch_ptr(cg, slot)};
        cg_helper(cg, BPF_FUNC_get_func_arg, cg->i64, args, 3);
        return cg_load(cg, cg_scratch_ptr(cg, slot));
    }
    case CTX_READ_KERNEL_LONG: case CTX_READ_KERNEL_CHARS:
        break;
    }
    return cg_const(cg, 0);
}
