/* Statements: the statement dispatcher (cg->stmt). Loops are loops.c's
 * bpf_loop() callbacks; try/catch: see try_stmt. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"

static LLVMValueRef loop_condition(struct codegen *cg, void *cond)
{
    return cg_condition(cg, cond);
}

static void loop(struct codegen *cg, struct stmt *st, struct expr *cond, struct stmt *body, struct expr *step)
{
    if (cond)
        cg_loop(cg, st, body, step, loop_condition, cond);
    else
        cg_loop(cg, st, body, step, NULL, NULL);
}

static void if_stmt(struct codegen *cg, struct stmt *st)
{
    LLVMBasicBlockRef then_block = cg_block(cg, "if_then"), else_block = cg_block(cg, "if_else"),
                      done = cg_block(cg, "if_done");
    cg_branch_if(cg, cg_condition(cg, st->if_stmt.cond), then_block, else_block);
    cg_position(cg, then_block);
    cg_stmt(cg, st->if_stmt.then_stmt);
    if (cg_block_open(cg))
        cg_branch(cg, done);
    cg_position(cg, else_block);
    cg_stmt(cg, st->if_stmt.else_stmt);
    if (cg_block_open(cg))
        cg_branch(cg, done);
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
            cg_store(cg, value, cg_frame_field(cg, FRAME_RETVAL));
    }
    cg_close_trys(cg);
    if (fn->kind == FN_LOOP_BODY) {
        cg_loop_stop(cg, LOOP_RETURN);
    } else {
        cg_branch(cg, fn->return_block);
    }
}

static void next_stmt(struct codegen *cg)
{
    if (cg->fn->kind != FN_PROBE)
        cg_store(cg, cg_const(cg, UNWIND_NEXT), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    cg_branch(cg, cg->fn->unwind_block);
}

static void break_or_continue(struct codegen *cg, struct stmt *st)
{
    cg_close_trys(cg);
    if (st->kind == STMT_CONTINUE) {
        cg_branch(cg, cg->fn->continue_block);
        return;
    }
    cg_loop_stop(cg, LOOP_DONE);
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
    cg_add_try_depth(cg, 1);
    fn->unwind_block = landing;
    fn->open_trys++;
    cg_stmt(cg, st->try_stmt.body);
    fn->unwind_block = outer_unwind;
    fn->open_trys--;
    if (cg_block_open(cg)) {
        cg_add_try_depth(cg, -1);
        cg_branch(cg, done);
    }

    cg_position(cg, landing);
    cg_add_try_depth(cg, -1);
    LLVMValueRef unwind = cg_scratch_ptr(cg, SCRATCH_UNWIND);
    LLVMValueRef reason = cg_load(cg, unwind);
    cg_branch_if(cg, cg_compare(cg, LLVMIntEQ, reason, UNWIND_CAUGHT), caught, outer_unwind);
    cg_position(cg, caught);
    cg_set_location(cg, st->span);
    cg_store(cg, cg_const(cg, UNWIND_NONE), unwind);
    const struct symbol *msg = st->try_stmt.catch_symbol;
    if (msg) {
        LLVMValueRef to = msg->kind == SYMBOL_GLOBAL ? cg_global_ptr(cg, msg) : cg_local_ptr(cg, msg);
        cg_string_copy(cg, to, cg_caught_message(cg));
    }
    cg_stmt(cg, st->try_stmt.catch_body);
    if (cg_block_open(cg))
        cg_branch(cg, done);
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
