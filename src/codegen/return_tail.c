/* The tail program of a .return probe whose function leaves by direct tail
 * jumps (sema/uprobe_returns.h). The entry program records {thread, CFA}
 * in the state TAIL_STATE_IN_FUNCTION; the probe at the rets runs only
 * where a record is found, and removes it. Here, at each tail jump, the
 * record of the frame being left (its CFA is rsp + 8, as at an entry: the
 * frame is popped) becomes TAIL_STATE_JUMPING; at a chain member's entry
 * (same CFA) a jumping record becomes TAIL_STATE_IN_CHAIN, and any other is
 * stale: its frame was left by an exception or a longjmp, and this call of
 * the member is no call of the probed function, so the record goes. */
#include <stdio.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "sema/uprobe_returns.h"

enum { PT_REGS_SP = 152 };   /* x86_64 struct pt_regs */

static void set_state(struct codegen *cg, LLVMValueRef state, int value, LLVMBasicBlockRef done)
{
    cg_store(cg, cg_const(cg, value), state);
    cg_branch(cg, done);
}

/* The program's body: which site (the cookie) and what the record says. */
static void keep_tail_state(struct codegen *cg, const struct probe *ret, LLVMValueRef ctx, LLVMBasicBlockRef done)
{
    LLVMValueRef index = cg_const(cg, PT_REGS_SP);
    LLVMValueRef sp = cg_load_as(cg, cg->i64, cg_byte_ptr(cg, ctx, index), "sp");
    LLVMValueRef map = cg_entry_map(cg, ret);
    LLVMValueRef key = cg_entry_key(cg, cg_binary(cg, LLVMAdd, sp, cg_const(cg, 8), "cfa"));
    LLVMValueRef lookup[2] = {map, key};
    LLVMValueRef record = cg_helper(cg, BPF_FUNC_map_lookup_elem, cg->ptr, lookup, 2);
    cg_jump_if(cg, cg_is_null(cg, record), done, "record");
    LLVMBasicBlockRef jump = cg_block(cg, "tail_jump"),
                      member = cg_block(cg, "member_entry"), entered = cg_block(cg, "entered_by_jump"),
                      stale = cg_block(cg, "stale");
    index = cg_const(cg, cg_entry_state_offset(cg, ret));
    LLVMValueRef state = cg_element_ptr(cg, cg->i8, record, &index, 1, "state");
    LLVMValueRef args[1] = {ctx};
    LLVMValueRef cookie = cg_helper(cg, BPF_FUNC_get_attach_cookie, cg->i64, args, 1);
    cg_branch_if(cg, cg_compare(cg, LLVMIntEQ, cookie, TAIL_SITE_JUMP), jump, member);
    cg_position(cg, jump);
    set_state(cg, state, TAIL_STATE_JUMPING, done);
    cg_position(cg, member);
    LLVMValueRef was = cg_load(cg, state);
    cg_branch_if(cg, cg_compare(cg, LLVMIntEQ, was, TAIL_STATE_JUMPING), entered, stale);
    cg_position(cg, entered);
    set_state(cg, state, TAIL_STATE_IN_CHAIN, done);
    cg_position(cg, stale);
    cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, lookup, 2);
    cg_branch(cg, done);
}

const struct probe *cg_define_tail_probe(struct codegen *cg, const struct probe *ret, const char **prog_name)
{
    struct fn_state state;
    const struct probe *tail = cg_side_program(cg, ret, "tail", 0, &state);
    *prog_name = LLVMGetValueName(state.function);
    LLVMValueRef function = state.function;
    struct fn_state *saved = cg->fn;
    cg->fn = &state;
    LLVMBasicBlockRef start = cg_block(cg, "entry"), done = cg_block(cg, "done");
    state.unwind_block = done;
    state.return_block = done;
    cg_position(cg, start);
    cg_set_location(cg, ret->span);
    keep_tail_state(cg, ret, LLVMGetParam(function, 0), done);
    cg_position(cg, done);
    cg_return(cg, cg_i32(cg, 0));
    cg->fn = saved;
    return tail;
}
