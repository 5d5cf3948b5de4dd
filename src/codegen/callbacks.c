/* Functions the kernel calls back (bpf_loop, bpf_for_each_map_elem):
 * begun and ended around the caller's generation, each finding this CPU's
 * scratch again. */
#include <stdio.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

LLVMValueRef cg_begin_callback(struct codegen *cg, const char *prefix, int map_callback, struct fn_state *state)
{
    char name[64];
    snprintf(name, sizeof(name), "%s_%d", prefix, cg->callback_count++);
    LLVMTypeRef loop_params[2] = {cg->i64, cg->ptr}, map_params[4] = {cg->ptr, cg->ptr, cg->ptr, cg->ptr};
    const char *loop_names[2] = {"index", "ctx"}, *map_names[4] = {"map", "key", "value", "ctx"};
    LLVMTypeRef type = map_callback ? LLVMFunctionType(cg->i64, map_params, 4, 0)
                                    : LLVMFunctionType(cg->i64, loop_params, 2, 0);
    LLVMValueRef fn = cg_new_function(cg, name, type, ".text", map_callback ? map_names : loop_names, 1);
    *state = *cg->fn;
    state->kind = FN_USER;
    state->function = fn;
    state->scope = LLVMGetSubprogram(fn);
    state->parent = cg->fn;
    state->parent_block = LLVMGetInsertBlock(cg->builder);
    state->loop_context = NULL;
    state->kernel_read_slot = NULL;
    cg->fn = state;
    return fn;
}

/* A callback's first block: this CPU's scratch found again (a pointer kept
 * by the caller would not survive the verifier's view of the callback). A
 * miss cannot happen, as BPF programs do not migrate, but the verifier wants
 * the check: it returns miss_result. Call it first: its block is the
 * function's entry. */
void cg_callback_entry(struct codegen *cg, struct fn_state *state, struct span span, int64_t miss_result)
{
    LLVMBasicBlockRef entry = cg_block(cg, "entry"), miss = cg_block(cg, "no_scratch"), run = cg_block(cg, "run");
    cg_position(cg, entry);
    cg_set_location(cg, span);
    state->scratch = cg_load_scratch(cg);
    cg_branch_if(cg, cg_is_null(cg, state->scratch), miss, run);
    cg_position(cg, miss);
    cg_callback_return(cg, miss_result);
    cg_position(cg, run);
}

void cg_end_callback(struct codegen *cg, struct fn_state *state)
{
    cg->fn = state->parent;
    cg_position(cg, state->parent_block);
}

/* A loop callback: body(cg, index, data) with ctx the callback's second
 * parameter (the caller's loop context). */
LLVMValueRef cg_loop_callback(struct codegen *cg, const char *prefix, struct span span, cg_loop_body body, void *data)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, prefix, 0, &state);
    cg_callback_entry(cg, &state, span, 1);
    body(cg, LLVMGetParam(fn, 0), data);
    cg_end_callback(cg, &state);
    cg_set_location(cg, span);
    return fn;
}

/* bpf_loop(count: an i32, fn, ctx): ctx NULL or on the stack. */
static void loop_helper(struct codegen *cg, LLVMValueRef count, LLVMValueRef fn, LLVMValueRef ctx)
{
    LLVMValueRef args[4] = {count, fn, ctx ? ctx : LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_helper(cg, BPF_FUNC_loop, cg->i64, args, 4);
}

/* bpf_loop(count clamped to 0..MAXSTRINGLEN, fn, ctx). */
void cg_call_loop(struct codegen *cg, LLVMValueRef count, LLVMValueRef fn, LLVMValueRef ctx)
{
    LLVMValueRef n = cg_select(cg, cg_compare(cg, LLVMIntSLT, count, 0), cg_const(cg, 0), count);
    n = cg_select(cg, cg_compare(cg, LLVMIntSGT, n, cg->string_size), cg_const(cg, cg->string_size), n);
    loop_helper(cg, cg_u32(cg, n), fn, ctx);
}

void cg_bounded_loop(struct codegen *cg, struct span span, LLVMValueRef count, cg_loop_body body, void *data)
{
    cg_call_loop(cg, count, cg_loop_callback(cg, "string_loop", span, body, data), NULL);
}

void cg_counted_loop(struct codegen *cg, struct span span, uint32_t times, cg_loop_body body, void *data)
{
    loop_helper(cg, cg_i32(cg, (int32_t)times), cg_loop_callback(cg, "counted_loop", span, body, data), NULL);
}
