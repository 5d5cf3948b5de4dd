/* Functions the kernel calls back (bpf_loop, bpf_for_each_map_elem):
 * begun and ended around the caller's generation, each finding this CPU's
 * scratch again. */
#include <stdio.h>

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
    LLVMBuildCondBr(cg->builder, LLVMBuildIsNull(cg->builder, state->scratch, ""), miss, run);
    cg_position(cg, miss);
    LLVMBuildRet(cg->builder, cg_const(cg, miss_result));
    cg_position(cg, run);
}

void cg_end_callback(struct codegen *cg, struct fn_state *state)
{
    cg->fn = state->parent;
    cg_position(cg, state->parent_block);
}
