/* Statements. Loops become bpf_loop() callbacks that share the enclosing
 * function's frame, so the verifier checks each body once however many
 * times it runs, and a runaway loop is a runtime error, never a rejection.
 * try/catch: see try_stmt. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"

/* Why a loop callback stopped, in frame field FRAME_LOOP_EXIT. */
enum loop_exit { LOOP_RUNNING, LOOP_DONE, LOOP_RETURN, LOOP_UNWIND };

static LLVMValueRef frame_field(struct codegen *cg, int field)
{
    return LLVMBuildStructGEP2(cg->builder, cg->fn->frame_type, cg->fn->frame, (unsigned)field, "");
}

static void set_loop_exit(struct codegen *cg, enum loop_exit exit)
{
    LLVMBuildStore(cg->builder, cg_const(cg, exit), frame_field(cg, FRAME_LOOP_EXIT));
}

/* Ends the current callback iteration: 0 goes on, 1 stops the loop. */
static void loop_return(struct codegen *cg, int stop)
{
    LLVMBuildRet(cg->builder, cg_const(cg, stop));
}

/* The callback: long body(u64 index, void *unused); the frame is found again
 * in this CPU's scratch. */
static LLVMValueRef loop_callback(struct codegen *cg, struct expr *cond, struct stmt *body, struct expr *step,
                                  cg_loop_hook hook, void *hook_data)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, "loop", 0, &state);
    state.kind = FN_LOOP_BODY;
    state.open_trys = 0;

    cg_callback_entry(cg, &state, body ? body->span : (struct span){.line = 1, .col = 1}, 1);
    state.unwind_block = cg_block(cg, "unwind");
    state.continue_block = cg_block(cg, "continue");
    state.frame = cg_scratch_ptr(cg, state.frame_offset);
    if (cond) {
        LLVMBasicBlockRef run = cg_block(cg, "run"), done = cg_block(cg, "done");
        LLVMBuildCondBr(cg->builder, cg_condition(cg, cond), run, done);
        cg_position(cg, done);
        set_loop_exit(cg, LOOP_DONE);
        loop_return(cg, 1);
        cg_position(cg, run);
    }
    if (hook) {
        LLVMBasicBlockRef run = cg_block(cg, "run"), done = cg_block(cg, "done");
        LLVMBuildCondBr(cg->builder, hook(cg, hook_data), run, done);
        cg_position(cg, done);
        set_loop_exit(cg, LOOP_DONE);
        loop_return(cg, 1);
        cg_position(cg, run);
    }
    cg_stmt(cg, body);
    if (cg_block_open(cg))
        LLVMBuildBr(cg->builder, state.continue_block);
    cg_position(cg, state.continue_block);
    if (step)
        cg_expr(cg, step);
    loop_return(cg, 0);

    cg_position(cg, state.unwind_block);
    set_loop_exit(cg, LOOP_UNWIND);
    loop_return(cg, 1);

    cg_end_callback(cg, &state);
    cg_set_location(cg, body ? body->span : (struct span){.line = 1, .col = 1});
    return fn;
}

static void add_try_depth(struct codegen *cg, int delta)
{
    LLVMValueRef depth = cg_scratch_ptr(cg, SCRATCH_TRY_DEPTH);
    LLVMBuildStore(cg->builder, LLVMBuildAdd(cg->builder, LLVMBuildLoad2(cg->builder, cg->i64, depth, ""),
                                             cg_const(cg, delta), ""), depth);
}

/* break, continue and return leave this function's open trys without
 * passing through their landings. */
static void close_trys(struct codegen *cg)
{
    if (cg->fn->open_trys)
        add_try_depth(cg, -cg->fn->open_trys);
}

/* After a loop: go on, or carry a return or an unwind outwards. */
static void after_loop(struct codegen *cg, struct span span, LLVMValueRef iterations)
{
    struct fn_state *fn = cg->fn;
    LLVMValueRef exit = LLVMBuildLoad2(cg->builder, cg->i64, frame_field(cg, FRAME_LOOP_EXIT), "exit");
    LLVMBasicBlockRef after = cg_block(cg, "after_loop"), runaway = cg_block(cg, "runaway"),
                      returned = cg_block(cg, "returned");
    LLVMValueRef dispatch = LLVMBuildSwitch(cg->builder, exit, fn->unwind_block, 3);
    LLVMAddCase(dispatch, cg_const(cg, LOOP_DONE), after);
    LLVMAddCase(dispatch, cg_const(cg, LOOP_RUNNING), runaway);
    LLVMAddCase(dispatch, cg_const(cg, LOOP_RETURN), returned);

    cg_position(cg, runaway);
    cg_raise_error(cg, span, "MAXACTION exceeded: a loop ran more than %lld iterations", iterations);

    cg_position(cg, returned);
    close_trys(cg);
    if (fn->kind == FN_LOOP_BODY) {
        set_loop_exit(cg, LOOP_RETURN);
        loop_return(cg, 1);
    } else {
        LLVMBuildBr(cg->builder, fn->return_block ? fn->return_block : fn->unwind_block);
    }
    cg_position(cg, after);
}

static void loop_with(struct codegen *cg, struct stmt *st, struct expr *cond, struct stmt *body,
                      struct expr *step, cg_loop_hook hook, void *hook_data)
{
    LLVMValueRef callback = loop_callback(cg, cond, body, step, hook, hook_data);
    set_loop_exit(cg, LOOP_RUNNING);
    LLVMValueRef limit = LLVMConstInt(cg->i32, (unsigned long long)cg->options->max_action, 0);
    LLVMValueRef args[4] = {limit, callback, LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_set_location(cg, st->span);
    cg_helper(cg, BPF_FUNC_loop, cg->i64, args, 4);
    after_loop(cg, st->span, cg_const(cg, cg->options->max_action));
}

static void loop(struct codegen *cg, struct stmt *st, struct expr *cond, struct stmt *body, struct expr *step)
{
    loop_with(cg, st, cond, body, step, NULL, NULL);
}

void cg_loop_custom(struct codegen *cg, struct stmt *st, struct stmt *body, cg_loop_hook hook, void *hook_data)
{
    loop_with(cg, st, NULL, body, NULL, hook, hook_data);
}

static void if_stmt(struct codegen *cg, struct stmt *st)
{
    LLVMBasicBlockRef then_block = cg_block(cg, "if_then"), else_block = cg_block(cg, "if_else"),
                      done = cg_block(cg, "if_done");
    LLVMBuildCondBr(cg->builder, cg_condition(cg, st->if_stmt.cond), then_block, else_block);
    cg_position(cg, then_block);
    cg_stmt(cg, st->if_stmt.then_stmt);
    if (cg_block_open(cg))
        LLVMBuildBr(cg->builder, done);
    cg_position(cg, else_block);
    cg_stmt(cg, st->if_stmt.else_stmt);
    if (cg_block_open(cg))
        LLVMBuildBr(cg->builder, done);
    cg_position(cg, done);
}

static void return_stmt(struct codegen *cg, struct stmt *st)
{
    struct fn_state *fn = cg->fn;
    if (st->expr) {
        LLVMValueRef value = cg_expr(cg, st->expr);
        if (st->expr->type == TYPE_STRING)
            cg_string_copy(cg, cg_scratch_ptr(cg, fn->return_slot_offset), value);
        else
            LLVMBuildStore(cg->builder, value, frame_field(cg, FRAME_RETVAL));
    }
    close_trys(cg);
    if (fn->kind == FN_LOOP_BODY) {
        set_loop_exit(cg, LOOP_RETURN);
        loop_return(cg, 1);
    } else {
        LLVMBuildBr(cg->builder, fn->return_block);
    }
}

static void next_stmt(struct codegen *cg)
{
    if (cg->fn->kind != FN_PROBE)
        LLVMBuildStore(cg->builder, cg_const(cg, UNWIND_NEXT), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    LLVMBuildBr(cg->builder, cg->fn->unwind_block);
}

static void break_or_continue(struct codegen *cg, struct stmt *st)
{
    close_trys(cg);
    if (st->kind == STMT_CONTINUE) {
        LLVMBuildBr(cg->builder, cg->fn->continue_block);
        return;
    }
    set_loop_exit(cg, LOOP_DONE);
    loop_return(cg, 1);
}

/* try/catch. An error raised while a try is open on this CPU is caught:
 * whether one is open is counted at run time (SCRATCH_TRY_DEPTH), because
 * a function or a loop callback does not know whether its caller is inside
 * a try. The error's message goes to a scratch slot and the handler unwinds
 * with UNWIND_CAUGHT, through callees and loop callbacks like any unwind,
 * to the innermost try's landing: the try body's unwind block. */
static void try_stmt(struct codegen *cg, struct stmt *st)
{
    struct fn_state *fn = cg->fn;
    LLVMBasicBlockRef outer_unwind = fn->unwind_block;
    LLVMBasicBlockRef landing = cg_block(cg, "try_landing"), caught = cg_block(cg, "catch"),
                      done = cg_block(cg, "try_done");
    add_try_depth(cg, 1);
    fn->unwind_block = landing;
    fn->open_trys++;
    cg_stmt(cg, st->try_stmt.body);
    fn->unwind_block = outer_unwind;
    fn->open_trys--;
    if (cg_block_open(cg)) {
        add_try_depth(cg, -1);
        LLVMBuildBr(cg->builder, done);
    }

    cg_position(cg, landing);
    add_try_depth(cg, -1);
    LLVMValueRef unwind = cg_scratch_ptr(cg, SCRATCH_UNWIND);
    LLVMValueRef reason = LLVMBuildLoad2(cg->builder, cg->i64, unwind, "");
    LLVMBuildCondBr(cg->builder, cg_compare(cg, LLVMIntEQ, reason, UNWIND_CAUGHT),
                    caught, outer_unwind);
    cg_position(cg, caught);
    cg_set_location(cg, st->span);
    LLVMBuildStore(cg->builder, cg_const(cg, UNWIND_NONE), unwind);
    const struct symbol *msg = st->try_stmt.catch_symbol;
    if (msg) {
        LLVMValueRef to = msg->kind == SYMBOL_GLOBAL ? cg_global_ptr(cg, msg) : cg_local_ptr(cg, msg);
        cg_string_copy(cg, to, cg_scratch_ptr(cg, cg->caught_message));
    }
    cg_stmt(cg, st->try_stmt.catch_body);
    if (cg_block_open(cg))
        LLVMBuildBr(cg->builder, done);
    cg_position(cg, done);
}

static int stmt_has_try(struct stmt *st, void *ctx)
{
    return st->kind == STMT_TRY || ast_stmt_children(st, &(struct ast_visitor){NULL, stmt_has_try, ctx});
}

static int body_has_try(struct stmt *body)
{
    return ast_stmt_list(body, &(struct ast_visitor){NULL, stmt_has_try, NULL});
}

int cg_script_has_try(const struct script *script)
{
    for (int i = 0; i < script->probe_count; i++)
        if (body_has_try(script->probes[i]->body))
            return 1;
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable && body_has_try(script->functions[i]->decl->function.body))
            return 1;
    return 0;
}

static void stmt_one(struct codegen *cg, struct stmt *st)
{
    cg_set_location(cg, st->span);
    switch (st->kind) {
    case STMT_EMPTY: break;
    case STMT_BLOCK: cg_stmt(cg, st->block.body); break;
    case STMT_EXPR: cg_expr(cg, st->expr); break;
    case STMT_IF: if_stmt(cg, st); break;
    case STMT_WHILE: loop(cg, st, st->while_stmt.cond, st->while_stmt.body, NULL); break;
    case STMT_FOR:
        if (st->for_stmt.init)
            cg_expr(cg, st->for_stmt.init);
        loop(cg, st, st->for_stmt.cond, st->for_stmt.body, st->for_stmt.step);
        break;
    case STMT_BREAK: case STMT_CONTINUE: break_or_continue(cg, st); break;
    case STMT_NEXT: next_stmt(cg); break;
    case STMT_RETURN: return_stmt(cg, st); break;
    case STMT_FOREACH: cg_foreach(cg, st); break;
    case STMT_DELETE: cg_delete(cg, st); break;
    case STMT_TRY: try_stmt(cg, st); break;
    case STMT_EMBEDDED: break;   /* refused by sema */
    }
}

void cg_stmt(struct codegen *cg, struct stmt *st)
{
    for (; st; st = st->next) {
        if (!cg_block_open(cg))
            cg_position(cg, cg_block(cg, "unreachable"));
        stmt_one(cg, st);
    }
}
