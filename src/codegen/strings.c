/* Strings in BPF: literals live in .rodata, values in scratch slots or .data,
 * all at most string_size bytes with a NUL. Copies use the kernel's bounded
 * string copy; comparisons a bounded loop (or bpf_strncmp against literals). */
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "base/format.h"

LLVMValueRef cg_string_literal(struct codegen *cg, const char *text, int len)
{
    if ((uint32_t)len >= cg->string_size)
        len = (int)cg->string_size - 1;   /* MAXSTRINGLEN truncates, as everywhere */
    LLVMValueRef init = LLVMConstStringInContext(cg->context, text, (unsigned)len, 0);
    LLVMValueRef global = LLVMAddGlobal(cg->module, LLVMTypeOf(init), "str");
    LLVMSetInitializer(global, init);
    LLVMSetGlobalConstant(global, 1);
    LLVMSetLinkage(global, LLVMPrivateLinkage);
    LLVMSetSection(global, ".rodata");
    return global;
}

static int is_literal(LLVMValueRef value)
{
    return LLVMIsAGlobalVariable(value) && LLVMIsGlobalConstant(value);
}

void cg_string_copy(struct codegen *cg, LLVMValueRef dst, LLVMValueRef src)
{
    LLVMValueRef args[3] = {dst, LLVMConstInt(cg->i32, cg->string_size, 0), src};
    cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
}

/* Copies s to slot + length (NULL: to the empty slot); the new length. A
 * failed copy leaves the string as it was (the kernel zeroes what it was
 * given). Masking bounds the offset for the verifier; the scratch slack
 * covers offset + room past the slot. */
LLVMValueRef cg_string_append(struct codegen *cg, LLVMValueRef slot, LLVMValueRef length, LLVMValueRef s)
{
    LLVMValueRef offset = length ? cg_and(cg, length, cg_const(cg, cg->string_size - 1)) : NULL;
    LLVMValueRef dst = offset ? cg_byte_ptr(cg, slot, offset) : slot;
    LLVMValueRef room = offset ? cg_u32(cg, cg_sub(cg, cg_const(cg, cg->string_size), offset))
                               : LLVMConstInt(cg->i32, cg->string_size, 0);
    LLVMValueRef args[3] = {dst, room, s};
    LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    /* copied counts the NUL; a failed copy (< 1) adds nothing. Without a
     * branch: the verifier would follow both lengths through every later
     * append (2^n paths for a chain of n), and the next append masks the
     * length anyway. The mask goes through memory so LLVM cannot turn it
     * back into a select. */
    LLVMValueRef less_one = cg_sub(cg, copied, cg_const(cg, 1));
    LLVMValueRef failed = cg_opaque(cg, cg_ashr(cg, less_one, cg_const(cg, 63)));
    LLVMValueRef added = cg_and(cg, less_one, cg_not(cg, failed));
    return offset ? cg_add(cg, offset, added) : added;
}

/* value, through a volatile scratch round trip: what LLVM proved about it
 * is forgotten, so it keeps the arithmetic as written (no select, which
 * the BPF backend turns into a branch). */
LLVMValueRef cg_opaque(struct codegen *cg, LLVMValueRef value)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, SCRATCH_OPAQUE);
    LLVMSetVolatile(cg_store(cg, value, slot), 1);
    LLVMValueRef loaded = cg_load(cg, slot);
    LLVMSetVolatile(loaded, 1);
    return loaded;
}

LLVMValueRef cg_string_concat(struct codegen *cg, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_string_append(cg, slot, cg_string_append(cg, slot, NULL, a), b);
    return slot;
}

/* A string that is not a literal, copied into a slot when it is one, so the
 * loop functions below only ever read inside string_size bytes. */
static LLVMValueRef bounded(struct codegen *cg, LLVMValueRef s)
{
    if (!is_literal(s))
        return s;
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_string_copy(cg, slot, s);
    return slot;
}

LLVMValueRef cg_string_compare(struct codegen *cg, LLVMValueRef a, LLVMValueRef b)
{
    if (is_literal(b) || is_literal(a)) {
        /* bpf_strncmp wants the constant second, in a read-only map. */
        int swapped = !is_literal(b);
        LLVMValueRef var = swapped ? b : a, lit = swapped ? a : b;
        if (is_literal(var))
            var = bounded(cg, var);
        LLVMValueRef args[3] = {var, LLVMConstInt(cg->i32, cg->string_size, 0), lit};
        LLVMValueRef result = cg_helper(cg, BPF_FUNC_strncmp, cg->i64, args, 3);
        return swapped ? cg_neg(cg, result) : result;
    }
    LLVMValueRef args[2] = {a, b};
    return cg_call(cg, LLVMGlobalGetValueType(cg->strcmp_fn), cg->strcmp_fn, args, 2);
}

LLVMValueRef cg_string_length(struct codegen *cg, LLVMValueRef s)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, cg->string_size, 0), s};
    LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    LLVMValueRef is_bad = cg_compare(cg, LLVMIntSLT, copied, 1);
    return cg_select(cg, is_bad, cg_const(cg, 0), cg_sub(cg, copied, cg_const(cg, 1)));
}

/* long tap_strcmp(char *a, char *b): a loop bounded by string_size. */
void cg_define_string_functions(struct codegen *cg)
{
    LLVMTypeRef params[2] = {cg->ptr, cg->ptr};
    LLVMTypeRef type = LLVMFunctionType(cg->i64, params, 2, 0);
    const char *names[2] = {"a", "b"};
    struct fn_state state;
    struct subprogram_caller caller;
    LLVMValueRef fn = cg_begin_subprogram(cg, "tap_strcmp", type, names, &state, &caller);
    cg->strcmp_fn = fn;
    LLVMBasicBlockRef equal = cg_block(cg, "equal");
    struct cg_loop loop = cg_loop_start(cg, cg_block(cg, "loop"), "i");
    LLVMValueRef index = loop.index;
    LLVMValueRef a = cg_load_as(cg, cg->i8, cg_byte_ptr(cg, LLVMGetParam(fn, 0), index), "");
    LLVMValueRef b = cg_load_as(cg, cg->i8, cg_byte_ptr(cg, LLVMGetParam(fn, 1), index), "");
    LLVMBasicBlockRef same = cg_if(cg, cg_compare_values(cg, LLVMIntNE, a, b), "differ", "same");
    cg_return(cg, cg_sub(cg, cg_widen(cg, a), cg_widen(cg, b)));

    cg_position(cg, same);
    cg_jump_if(cg, cg_compare_values(cg, LLVMIntEQ, a, LLVMConstInt(cg->i8, 0, 0)), equal, "next");
    cg_loop_next(cg, &loop, cg->string_size, equal);

    cg_position(cg, equal);
    cg_return(cg, cg_const(cg, 0));
    cg_end_subprogram(cg, &caller);
}
