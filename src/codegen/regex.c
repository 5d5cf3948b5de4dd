/* `s =~ "re"` and `!~`: the literal regex becomes a DFA at compile time
 * (regex_dfa.c); its transition table goes to .rodata and BPF runs it over
 * the string in a bpf_loop callback, one table lookup per character.
 * Anything the compiler does not support is a compile-time error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "codegen/regex_dfa.h"

static LLVMValueRef rodata_bytes(struct codegen *cg, const uint8_t *bytes, size_t size, const char *name)
{
    LLVMValueRef init = LLVMConstStringInContext(cg->context, (const char *)bytes, (unsigned)size, 1);
    LLVMValueRef global = LLVMAddGlobal(cg->module, LLVMTypeOf(init), name);
    LLVMSetInitializer(global, init);
    LLVMSetGlobalConstant(global, 1);
    LLVMSetLinkage(global, LLVMPrivateLinkage);
    LLVMSetSection(global, ".rodata");
    return global;
}

struct run {
    uint32_t slot, state;
    LLVMValueRef table;
    int states;
};

static LLVMValueRef byte_from(struct codegen *cg, LLVMValueRef base, LLVMValueRef index)
{
    LLVMValueRef p = cg_byte_ptr(cg, base, index);
    return cg_load_unsigned(cg, cg->i8, p);
}

/* long step(index, ctx): one character through the table. */
static LLVMValueRef step_callback(struct codegen *cg, struct run *r, struct span span)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, "regex_step", 0, &state);
    cg_callback_entry(cg, &state, span, 1);
    LLVMValueRef index = cg_and(cg, LLVMGetParam(fn, 0), cg_const(cg, cg->string_size - 1));
    LLVMValueRef c = byte_from(cg, cg_scratch_ptr(cg, r->slot), index);
    LLVMValueRef state_ptr = cg_scratch_ptr(cg, r->state);
    LLVMValueRef current = cg_load(cg, state_ptr);
    LLVMValueRef at = cg_add(cg, cg_mul(cg, current, cg_const(cg, 256)), c);
    at = cg_opaque_clamp(cg, at, (int64_t)r->states * 256 - 1);
    LLVMValueRef next = byte_from(cg, r->table, at);
    cg_store(cg, next, state_ptr);
    LLVMBasicBlockRef go = cg_if(cg, cg_compare(cg, LLVMIntEQ, next, REGEX_DEAD), "stop", "go");
    cg_callback_return(cg, 1);
    cg_position(cg, go);
    cg_callback_return(cg, 0);
    cg_end_callback(cg, &state);
    cg_set_location(cg, span);
    return fn;
}

LLVMValueRef cg_regex_match(struct codegen *cg, struct expr *e)
{
    struct expr *re = e->binary.rhs;
    if (re->kind != EXPR_STRING) {
        diag_error(cg->diags, re->span, "a regular expression must be a string literal");
        return cg_const(cg, 0);
    }
    const char *text = re->string.value;
    struct regex_dfa dfa;
    const char *error = regex_compile(text, &dfa);
    if (error) {
        diag_error(cg->diags, re->span, "regular expression \"%s\": %s", text, error);
        return cg_const(cg, 0);
    }
    LLVMValueRef subject = cg_operand(cg, e->binary.lhs);
    cg_set_location(cg, e->span);
    struct run r = {.states = dfa.count};
    r.table = rodata_bytes(cg, dfa.table, (size_t)dfa.count * 256, "regex_table");
    LLVMValueRef accept = rodata_bytes(cg, dfa.accept, (size_t)dfa.count + 1, "regex_accept");
    regex_dfa_free(&dfa);
    r.slot = cg_alloc_string_slot(cg);
    r.state = cg_alloc_scratch(cg, 8);
    LLVMValueRef args[3] = {cg_scratch_ptr(cg, r.slot), LLVMConstInt(cg->i32, cg->string_size, 0), subject};
    LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    LLVMValueRef length = cg_select(cg, cg_compare(cg, LLVMIntSLT, copied, 1), cg_const(cg, 0), cg_sub(cg, copied, cg_const(cg, 1)));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, r.state));
    LLVMValueRef loop_args[4] = {cg_u32(cg, length), step_callback(cg, &r, e->span),
                                 LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_helper(cg, BPF_FUNC_loop, cg->i64, loop_args, 4);
    LLVMValueRef final = cg_load(cg, cg_scratch_ptr(cg, r.state));
    LLVMValueRef dead = cg_compare(cg, LLVMIntEQ, final, REGEX_DEAD);
    LLVMValueRef at = cg_opaque_clamp(cg, final, dfa.count);
    LLVMValueRef accepted = cg_compare(cg, LLVMIntNE, byte_from(cg, accept, at), 0);
    LLVMValueRef matched = cg_and(cg, accepted, cg_not(cg, dead));
    if (e->binary.op == BINARY_REGEX_NOMATCH)
        matched = cg_not(cg, matched);
    return cg_widen(cg, matched);
}
