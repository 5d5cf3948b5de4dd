/* Loops become bpf_loop() callbacks that share the enclosing function's
 * frame, so the verifier checks each body once however many times it runs,
 * and a runaway loop is a runtime error, never a rejection. A loop's body
 * and step are generated through the dispatch points (cg_statement,
 * cg_operand): while, for and foreach all sit above this file. */
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

LLVMValueRef cg_frame_field(struct codegen *cg, int field)
{
    return cg_field_ptr(cg, cg->fn->frame_type, cg->fn->frame, (unsigned)field, "");
}

static void set_loop_exit(struct codegen *cg, enum loop_exit exit)
{
    cg_store(cg, cg_const(cg, exit), cg_frame_field(cg, FRAME_LOOP_EXIT));
}

/* Ends the current callback iteration: 0 goes on, 1 stops the loop. */
static void loop_return(struct codegen *cg, int stop)
{
    cg_callback_return(cg, stop);
}

/* The callback: long body(u64 index, void *unused); the frame is found again
 * in this CPU's scratch. */
static LLVMValueRef loop_callback(struct codegen *cg, struct stmt *body, struct expr *step, cg_loop_hook hook,
                                  void *hook_data)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, "loop", 0, &state);
    state.kind = FN_LOOP_BODY;
    state.open_trys = 0;

    cg_callback_entry(cg, &state, body ? body->span : (struct span){.line = 1, .col = 1}, 1);
    state.unwind_block = cg_block(cg, "unwind");
    state.continue_block = cg_block(cg, "continue");
    state.frame = cg_scratch_ptr(cg, state.frame_offset);
    if (hook) {
        LLVMBasicBlockRef run = cg_block(cg, "run"), done = cg_block(cg, "done");
        cg_branch_if(cg, hook(cg, hook_data), run, done);
        cg_position(cg, done);
        set_loop_exit(cg, LOOP_DONE);
        loop_return(cg, 1);
        cg_position(cg, run);
    }
    cg_statement(cg, body);
    if (cg_block_open(cg))
        cg_branch(cg, state.continue_block);
    cg_position(cg, state.continue_block);
    if (step)
        cg_operand(cg, step);
    loop_return(cg, 0);

    cg_position(cg, state.unwind_block);
    set_loop_exit(cg, LOOP_UNWIND);
    loop_return(cg, 1);

    cg_end_callback(cg, &state);
    cg_set_location(cg, body ? body->span : (struct span){.line = 1, .col = 1});
    return fn;
}

void cg_add_try_depth(struct codegen *cg, int delta)
{
    LLVMValueRef depth = cg_scratch_ptr(cg, SCRATCH_TRY_DEPTH);
    cg_store(cg, cg_add(cg, cg_load(cg, depth), cg_const(cg, delta)), depth);
}

/* break, continue and return leave this function's open trys without
 * passing through their landings. */
void cg_close_trys(struct codegen *cg)
{
    if (cg->fn->open_trys)
        cg_add_try_depth(cg, -cg->fn->open_trys);
}

/* After a loop: go on, or carry a return or an unwind outwards. */
static void after_loop(struct codegen *cg, struct span span, LLVMValueRef iterations)
{
    struct fn_state *fn = cg->fn;
    LLVMValueRef exit = cg_load_as(cg, cg->i64, cg_frame_field(cg, FRAME_LOOP_EXIT), "exit");
    LLVMBasicBlockRef after = cg_block(cg, "after_loop"), runaway = cg_block(cg, "runaway"),
                      returned = cg_block(cg, "returned");
    LLVMValueRef dispatch = cg_switch(cg, exit, fn->unwind_block, 3);
    LLVMAddCase(dispatch, cg_const(cg, LOOP_DONE), after);
    LLVMAddCase(dispatch, cg_const(cg, LOOP_RUNNING), runaway);
    LLVMAddCase(dispatch, cg_const(cg, LOOP_RETURN), returned);

    cg_position(cg, runaway);
    cg_raise_error(cg, span, "MAXACTION exceeded: a loop ran more than %lld iterations", iterations);

    cg_position(cg, returned);
    cg_close_trys(cg);
    if (fn->kind == FN_LOOP_BODY) {
        cg_loop_stop(cg, LOOP_RETURN);
    } else {
        cg_branch(cg, fn->return_block ? fn->return_block : fn->unwind_block);
    }
    cg_position(cg, after);
}

void cg_loop(struct codegen *cg, struct stmt *st, struct stmt *body, struct expr *step, cg_loop_hook hook,
             void *hook_data)
{
    LLVMValueRef callback = loop_callback(cg, body, step, hook, hook_data);
    set_loop_exit(cg, LOOP_RUNNING);
    LLVMValueRef limit = LLVMConstInt(cg->i32, (unsigned long long)cg->options->max_action, 0);
    LLVMValueRef args[4] = {limit, callback, LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_set_location(cg, st->span);
    cg_helper(cg, BPF_FUNC_loop, cg->i64, args, 4);
    after_loop(cg, st->span, cg_const(cg, cg->options->max_action));
}

void cg_loop_stop(struct codegen *cg, enum loop_exit exit)
{
    set_loop_exit(cg, exit);
    loop_return(cg, 1);
}
