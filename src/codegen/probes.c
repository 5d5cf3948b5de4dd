/* One BPF program per probe: skip when the session is ending (or a
 * randomized timer's deadline has not come), find this CPU's scratch, set
 * up the frame, check the condition, run the body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen_internal.h"
#include "kinds/kinds.h"
#include "program/program_io.h"


static void describe_probe_at(struct codegen *cg, const struct probe *probe, const char *prog_name,
                              uint64_t offset, uint64_t cookie)
{
    struct program *program = cg->program;
    struct program_probe *out = &program->probes[program->probe_count++];
    out->kind = probe->kind;
    out->prog_name = strdup(prog_name);
    out->point = strdup(probe->point);
    out->offset = offset;
    out->cookie = cookie;
    out->may_skip = probe->may_skip;
    probe_kind_ops(probe->kind)->describe(probe, out > program->probes ? out - 1 : NULL, out);
}

/* A probe moved to the calls of its function (sema/uprobe_calls.c) or on
 * its rets (sema/uprobe_returns.c) is attached at each, one program
 * serving all; one the kernel would refuse is not attached at all. */
static void describe_probe(struct codegen *cg, const struct probe *probe, const char *prog_name)
{
    const struct uprobe_probe *uprobe = probe_uprobe(probe);
    if (uprobe->refusal)
        return;   /* skipped: the kernel would refuse it (sema warned) */
    if (!uprobe->site_count && !uprobe->at_returns)
        describe_probe_at(cg, probe, prog_name, probe_attach_offset(probe), probe->cookie);
    for (int i = 0; i < uprobe->site_count; i++)
        describe_probe_at(cg, probe, prog_name, uprobe->site_offsets[i],
                          cg_cookie_is_vaddr(probe) ? uprobe->site_vaddrs[i] : probe->cookie);
}

/* A .return probe's tail program (return_tail.c), at its chain's tail jumps
 * and member entries, each told apart by its cookie. */
static void define_tail_probe(struct codegen *cg, const struct probe *ret)
{
    const char *name;
    const struct probe *tail = cg_define_tail_probe(cg, ret, &name);
    for (int i = 0; i < ret->uprobe.tail_count; i++)
        describe_probe_at(cg, tail, name, ret->uprobe.tail_offsets[i], (uint64_t)ret->uprobe.tail_kinds[i]);
}

/* -D TAP_DEBUG_REJECT=1: a call to a helper that does not exist, which the
 * verifier rejects, at the body's first statement, so tests can see how a
 * rejection is reported without finding a script the verifier refuses. */
static void emit_debug_rejection(struct codegen *cg, const struct stmt *body)
{
    const struct stmt *first = body->kind == STMT_BLOCK && body->block.body ? body->block.body : body;
    cg_set_location(cg, first->span);
    cg_helper(cg, 100000, cg->i64, NULL, 0);
}

static void define_probe(struct codegen *cg, const struct probe *probe)
{
    char name[32];
    snprintf(name, sizeof(name), "probe_%d", probe->index);
    LLVMTypeRef param = cg->ptr;
    const char *param_names[1] = {"ctx"};
    const struct probe_kind_ops *kind = probe_kind_ops(probe->kind);
    LLVMValueRef function = cg_new_function(cg, name, LLVMFunctionType(cg->i32, &param, 1, 0),
                                            kind->section(cg->arena, probe), param_names, 0);
    struct fn_state state = {.kind = FN_PROBE, .function = function, .probe = probe,
                             .scope = LLVMGetSubprogram(function)};
    cg->fn = &state;
    LLVMBasicBlockRef entry = cg_block(cg, "entry"), skip = cg_block(cg, "skip"),
                      no_scratch = cg_block(cg, "no_scratch"), run = cg_block(cg, "run");
    state.unwind_block = cg_block(cg, "unwind");
    state.return_block = state.unwind_block;
    cg_position(cg, entry);
    cg_set_location(cg, probe->span);
    struct defer_state defer = {0};
    LLVMBasicBlockRef done = skip;
    if (probe_tracepoint(probe)->user_check_count) {
        done = cg_block(cg, "done");
        cg_defer_begin(cg, probe, &defer, done);
    }
    if (!(kind->flags & KIND_RUNS_AT_END)) {
        /* After exit() or an error, only end and error probes still run. */
        LLVMValueRef exiting = cg_load(cg, cg_state_field(cg, STATE_EXITING));
        cg_jump_if(cg, cg_compare(cg, LLVMIntNE, exiting, 0), skip, "live");
    }
    cg_randomize_guard(cg, probe, skip);
    if ((kind->flags & KIND_USER_PROCESS) || probe->target_tree) {
        LLVMValueRef target = cg_load(cg, cg_state_field(cg, STATE_TARGET_PID));
        LLVMBasicBlockRef filter = cg_block(cg, "filter"), wanted = cg_block(cg, "wanted");
        cg_branch_if(cg, cg_compare(cg, LLVMIntEQ, target, 0), wanted, filter);
        cg_position(cg, filter);
        cg_branch_if(cg, cg_in_target_tree(cg, target), wanted, skip);
        cg_position(cg, wanted);
    }
    state.scratch = cg_load_scratch(cg);
    cg_branch_if(cg, cg_is_null(cg, state.scratch), no_scratch, run);

    cg_position(cg, no_scratch);
    cg_atomic_add(cg, cg_state_field(cg, STATE_SKIPPED), cg_const(cg, 1));
    cg_branch(cg, skip);

    cg_position(cg, run);
    /* A handler may be interrupted on its CPU (a perf event in irq context)
     * or sleep there (a sleepable uprobe faulting a page in) while another
     * one runs: the second is skipped rather than share the scratch. */
    LLVMBasicBlockRef release = skip;
    if (!(kind->flags & KIND_RUNS_ONCE)) {
        LLVMValueRef busy = cg_scratch_ptr(cg, SCRATCH_BUSY);
        LLVMValueRef owner = cg_claim(cg, busy);
        LLVMBasicBlockRef own = cg_block(cg, "own_scratch");
        release = cg_block(cg, "release");
        cg_branch_if(cg, owner, own, no_scratch);
        cg_position(cg, release);
        cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, SCRATCH_BUSY));
        cg_branch(cg, skip);
        cg_position(cg, own);
    }
    uint32_t timing_start = cg_timing_start(cg);
    release = cg_timing_end(cg, timing_start, release);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    if (cg_catch_enabled(cg))
        cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, SCRATCH_TRY_DEPTH));
    cg_setup_frame(cg, probe->frame);
    if (kind->flags & (KIND_USER_PROCESS | KIND_PT_REGS))
        cg_target_probe_entry(cg, LLVMGetParam(function, 0));
    cg_probe_point_enter(cg, probe);
    if (defer.at_exit)
        cg_defer_record(cg, probe, &defer);
    LLVMBasicBlockRef stack_capture = cg_stack_begin(cg);
    LLVMBasicBlockRef body = cg_block(cg, "body");
    if (defer.at_exit) {
        /* a deferred handler passed its condition at the entry */
        cg_jump_if(cg, defer.at_exit, body, "at_entry");

    }
    if (probe->condition) {
        cg_continue_if(cg, cg_condition(cg, probe->condition), "condition_holds", release);
    }
    if (defer.at_exit)
        cg_defer_check(cg, probe, &defer, release);
    cg_branch(cg, body);
    cg_position(cg, body);
    if (cg->options->debug_reject)
        emit_debug_rejection(cg, probe->body);
    cg_stmt(cg, probe->body);
    if (cg_block_open(cg))
        cg_branch(cg, release);

    cg_position(cg, state.unwind_block);
    cg_branch(cg, release);
    cg_position(cg, skip);
    if (defer.at_exit) {
        cg_defer_end(cg, &defer);
        cg_branch(cg, done);
        cg_position(cg, done);
    }
    cg_return(cg, cg_i32(cg, kind->returns));
    cg_stack_finish(cg, stack_capture, LLVMGetParam(function, 0));
    cg_target_probe_exit(cg);
    cg->fn = NULL;
    cg->user_memory_gone = 0;
    describe_probe(cg, probe, name);
}

void cg_define_probes(struct codegen *cg)
{
    const struct script *script = cg->script;
    /* Room for an @entry program beside each .return probe, or the exit
     * attachment of each deferring syscall-entry probe. */
    size_t capacity = (size_t)script->probe_count * 2 + 1;
    for (int i = 0; i < script->probe_count; i++)
        capacity += (size_t)(probe_uprobe(script->probes[i])->site_count + probe_uprobe(script->probes[i])->tail_count);
    cg->program->probes = calloc(capacity, sizeof(*cg->program->probes));
    /* Exit attachments of deferring syscall-entry probes first: attached
     * before the entries, a thread's saved record always meets its exit;
     * and before the syscall's .return probes, the deferred handler prints
     * first. */
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *probe = script->probes[i];
        if (!probe_tracepoint(probe)->user_check_count)
            continue;
        struct probe at_exit = *probe;
        at_exit.tp_name = probe->tracepoint.exit_name;
        at_exit.cookie = DEFER_EXIT_COOKIE;
        at_exit.point = arena_printf(cg->arena, "%s (deferred to %s)", probe->point, probe->tracepoint.exit_name);
        char name[32];
        snprintf(name, sizeof(name), "probe_%d", probe->index);
        describe_probe(cg, &at_exit, name);
    }
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *leader = script->probes[i]->group_leader;
        if (leader) {
            /* same code as its group's leader: one program, told apart by cookie */
            char name[32];
            snprintf(name, sizeof(name), "probe_%d", leader->index);
            describe_probe(cg, script->probes[i], name);
            continue;
        }
        define_probe(cg, script->probes[i]);
        if (script->probes[i]->entry_count || probe_uprobe(script->probes[i])->tail_count) {
            const char *name;
            const struct probe *entry = cg_define_entry_probe(cg, script->probes[i], &name);
            describe_probe(cg, entry, name);
        }
        if (probe_uprobe(script->probes[i])->tail_count)
            define_tail_probe(cg, script->probes[i]);
    }
}
