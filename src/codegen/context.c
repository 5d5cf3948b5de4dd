/* Context functions that read the current task: ppid(), pexecname(), euid().
 * Field offsets come from the running kernel's BTF at compile time (the
 * program is built for this kernel anyway), then bpf_probe_read_kernel walks
 * task->real_parent->tgid, task->real_parent->comm, task->cred->euid. */
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "kinds/kinds.h"
#include "codegen/kernel_btf.h"
#include "sema/builtins.h"

struct task_offsets {
    int loaded;
    long real_parent, tgid, comm, cred, euid, mm, arg_start, arg_end, env_start, env_end;
    long vm_start, vm_end, vm_pgoff, vm_file, f_inode, i_ino, i_sb, s_dev;   /* cg_read_vma_file() */
};

static long offset_in(struct kernel_btf *btf, const char *type, const char *member)
{
    return kernel_btf_member_offset(btf, kernel_btf_find_struct(btf, type), member);
}

/* Read from the kernel's BTF once per compilation, and only by a script
 * that needs one of these offsets. */
static const struct task_offsets *task_offsets(struct codegen *cg)
{
    if (cg->task_offsets)
        return cg->task_offsets;
    struct task_offsets *o = ARENA_NEW(cg->arena, struct task_offsets);
    cg->task_offsets = o;
    struct kernel_btf *btf = kernel_btf_open();   /* NULL: every offset is -1 */
    int task = kernel_btf_find_struct(btf, "task_struct");
    int mm = kernel_btf_find_struct(btf, "mm_struct");
    *o = (struct task_offsets){
        .loaded = 1,
        .real_parent = kernel_btf_member_offset(btf, task, "real_parent"),
        .tgid = kernel_btf_member_offset(btf, task, "tgid"),
        .comm = kernel_btf_member_offset(btf, task, "comm"),
        .cred = kernel_btf_member_offset(btf, task, "cred"),
        .mm = kernel_btf_member_offset(btf, task, "mm"),
        .euid = offset_in(btf, "cred", "euid"),
        .arg_start = kernel_btf_member_offset(btf, mm, "arg_start"),
        .arg_end = kernel_btf_member_offset(btf, mm, "arg_end"),
        .env_start = kernel_btf_member_offset(btf, mm, "env_start"),
        .env_end = kernel_btf_member_offset(btf, mm, "env_end"),
        .vm_start = offset_in(btf, "vm_area_struct", "vm_start"),
        .vm_end = offset_in(btf, "vm_area_struct", "vm_end"),
        .vm_pgoff = offset_in(btf, "vm_area_struct", "vm_pgoff"),
        .vm_file = offset_in(btf, "vm_area_struct", "vm_file"),
        .f_inode = offset_in(btf, "file", "f_inode"),
        .i_ino = offset_in(btf, "inode", "i_ino"),
        .i_sb = offset_in(btf, "inode", "i_sb"),
        .s_dev = offset_in(btf, "super_block", "s_dev"),
    };
    kernel_btf_close(btf);
    return o;
}

static LLVMValueRef current_task(struct codegen *cg)
{
    return cg_helper(cg, BPF_FUNC_get_current_task, cg->i64, NULL, 0);
}

/* 1 when the probe interrupted user space: process probes always, sampling
 * probes when the interrupted code segment is user's (x86-64 pt_regs.cs,
 * its low two bits the privilege level), kernel events never. */
static LLVMValueRef user_mode(struct codegen *cg)
{
    const struct probe *probe = cg->fn->probe;
    if (!probe)
        return cg_const(cg, 0);
    if (probe_is_uprobe(probe))
        return cg_const(cg, 1);
    if (!probe_kind_has(probe->kind, KIND_SAMPLE_REGS) || cg->fn->kind != FN_PROBE)
        return cg_const(cg, 0);
    /* bpf_perf_event_data starts with the pt_regs; cs is its 18th word */
    LLVMValueRef at = cg_const(cg, 17 * 8);
    LLVMValueRef cs = cg_load(cg, cg_byte_ptr(cg, LLVMGetParam(cg->fn->function, 0), at));
    LLVMValueRef ring = cg_and(cg, cs, cg_const(cg, 3));
    return cg_widen(cg, cg_compare(cg, LLVMIntEQ, ring, 3));
}

LLVMValueRef cg_context_call(struct codegen *cg, struct expr *e, int builtin_id)
{
    const struct task_offsets *o = task_offsets(cg);
    int missing = (builtin_id == BUILTIN_PPID && (o->real_parent < 0 || o->tgid < 0)) ||
                  (builtin_id == BUILTIN_PEXECNAME && (o->real_parent < 0 || o->comm < 0)) ||
                  (builtin_id == BUILTIN_EUID && (o->cred < 0 || o->euid < 0)) ||
                  ((builtin_id == BUILTIN_ARG_START || builtin_id == BUILTIN_ARG_END) &&
                   (o->mm < 0 || o->arg_start < 0 || o->arg_end < 0)) ||
                  ((builtin_id == BUILTIN_ENV_START || builtin_id == BUILTIN_ENV_END) &&
                   (o->mm < 0 || o->env_start < 0 || o->env_end < 0));
    if (missing) {
        diag_error(cg->diags, e->span, "%s() needs the kernel's BTF (/sys/kernel/btf/vmlinux) "
                   "to find task_struct fields", e->call.name);
        return e->type == TYPE_STRING ? cg_string_literal(cg, "", 0) : cg_const(cg, 0);
    }
    switch (builtin_id) {
    case BUILTIN_PPID:
        return cg_read_kernel(cg, cg_read_kernel(cg, current_task(cg), o->real_parent, 8), o->tgid, 4);
    case BUILTIN_EUID:
        return cg_read_kernel(cg, cg_read_kernel(cg, current_task(cg), o->cred, 8), o->euid, 4);
    case BUILTIN_PEXECNAME: {
        LLVMValueRef parent = cg_read_kernel(cg, current_task(cg), o->real_parent, 8);
        LLVMValueRef address = cg_add(cg, parent, cg_const(cg, o->comm));
        LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
        LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, 16, 0),
                                cg_pointer(cg, address)};
        cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
        return slot;
    }
    case BUILTIN_ARG_START: case BUILTIN_ARG_END: case BUILTIN_ENV_START: case BUILTIN_ENV_END: {
        /* a kernel thread has no mm: reading at offset from 0 fails and yields 0 */
        LLVMValueRef mm = cg_read_kernel(cg, current_task(cg), o->mm, 8);
        long field = builtin_id == BUILTIN_ARG_START ? o->arg_start : builtin_id == BUILTIN_ARG_END ? o->arg_end
                   : builtin_id == BUILTIN_ENV_START ? o->env_start : o->env_end;
        return cg_read_kernel(cg, mm, field, 8);
    }
    case BUILTIN_JIFFIES:
        return cg_helper(cg, BPF_FUNC_jiffies64, cg->i64, NULL, 0);
    case BUILTIN_TASK_CURRENT:
        return current_task(cg);
    case BUILTIN_USER_MODE:
        return user_mode(cg);
    }
    return cg_const(cg, 0);
}

/* The current task's mm: 0 in a kernel thread, which has no user stack
 * (1 when the kernel's BTF does not say where it is: assume a user task). */
LLVMValueRef cg_current_mm(struct codegen *cg)
{
    const struct task_offsets *o = task_offsets(cg);
    return o->mm < 0 ? cg_const(cg, 1) : cg_read_kernel(cg, current_task(cg), o->mm, 8);
}

/* A mapping's file and where it starts, from a struct vm_area_struct (a
 * bpf_find_vma callback's argument): {s_dev, i_ino, vm_start, vm_pgoff,
 * vm_end} as five u64 at `out`; dev and inode are 0 for an anonymous one.
 * Returns 0, or -1 (with a diagnostic) when the kernel's BTF lacks a field. */
int cg_read_vma_file(struct codegen *cg, LLVMValueRef vma, LLVMValueRef out, struct span span)
{
    const struct task_offsets *o = task_offsets(cg);
    if (o->vm_start < 0 || o->vm_end < 0 || o->vm_pgoff < 0 || o->vm_file < 0 || o->f_inode < 0 || o->i_ino < 0 || o->i_sb < 0 ||
        o->s_dev < 0) {
        diag_error(cg->diags, span, "symbol lookup needs the kernel's BTF (/sys/kernel/btf/vmlinux) "
                   "to find vm_area_struct fields");
        return -1;
    }
    LLVMValueRef base = cg_address(cg, vma);
    LLVMValueRef inode = cg_read_kernel(cg, cg_read_kernel(cg, base, o->vm_file, 8), o->f_inode, 8);
    LLVMValueRef values[5] = {cg_read_kernel(cg, cg_read_kernel(cg, inode, o->i_sb, 8), o->s_dev, 4),
                              cg_read_kernel(cg, inode, o->i_ino, 8), cg_read_kernel(cg, base, o->vm_start, 8),
                              cg_read_kernel(cg, base, o->vm_pgoff, 8), cg_read_kernel(cg, base, o->vm_end, 8)};
    for (int i = 0; i < 5; i++) {
        LLVMValueRef at = cg_const(cg, 8 * i);
        cg_store(cg, values[i], cg_byte_ptr(cg, out, at));
    }
    return 0;
}

/* -c/-x: process probes fire in the target and its descendants (as in
 * SystemTap), so the attachment is not filtered by pid: the handler checks
 * the current process, then up to 16 ancestors. The target itself takes the
 * first comparison. Returns an i1. */
#define ANCESTOR_DEPTH 16

static LLVMValueRef walk_target_tree(struct codegen *cg, LLVMValueRef target)
{
    LLVMValueRef tgid = cg_lshr(cg, cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0), cg_const(cg, 32));
    const struct task_offsets *o = task_offsets(cg);
    if (o->real_parent < 0 || o->tgid < 0)
        return cg_compare_values(cg, LLVMIntEQ, tgid, target);
    LLVMBasicBlockRef yes = cg_block(cg, "in_tree"), no = cg_block(cg, "not_in_tree"),
                      done = cg_block(cg, "tree_done");
    cg_jump_if(cg, cg_compare_values(cg, LLVMIntEQ, tgid, target), yes, "ancestors");

    LLVMValueRef task = current_task(cg);
    for (int level = 0; level < ANCESTOR_DEPTH; level++) {
        task = cg_read_kernel(cg, task, o->real_parent, 8);
        LLVMValueRef id = cg_read_kernel(cg, task, o->tgid, 4);
        cg_jump_if(cg, cg_compare_values(cg, LLVMIntEQ, id, target), yes, "ancestor_checked");
        /* init (1) or an unreadable task (0): the top of the tree */
        cg_jump_if(cg, cg_compare(cg, LLVMIntULE, id, 1), no, "ancestor");
    }
    cg_branch(cg, no);
    cg_position(cg, yes);
    cg_branch(cg, done);
    cg_position(cg, no);
    cg_branch(cg, done);
    cg_position(cg, done);
    LLVMValueRef phi = cg_phi(cg, cg->i1, "in_target_tree");
    LLVMValueRef values[2] = {LLVMConstInt(cg->i1, 1, 0), LLVMConstInt(cg->i1, 0, 0)};
    LLVMBasicBlockRef blocks[2] = {yes, no};
    LLVMAddIncoming(phi, values, blocks, 2);
    return phi;
}

/* long tap_in_target_tree(long target): one subprogram for every filtered
 * probe, defined at the first. Inline, its unrolled walk was most of a small
 * uprobe program (some 320 of 380 instructions), compiled again in each. */
static LLVMValueRef target_tree_function(struct codegen *cg)
{
    if (cg->target_tree_fn)
        return cg->target_tree_fn;
    LLVMTypeRef type = LLVMFunctionType(cg->i64, &cg->i64, 1, 0);
    const char *names[1] = {"target"};
    struct fn_state state;
    struct subprogram_caller caller;
    LLVMValueRef fn = cg_begin_subprogram(cg, "tap_in_target_tree", type, names, &state, &caller);
    cg->target_tree_fn = fn;
    LLVMValueRef in_tree = walk_target_tree(cg, LLVMGetParam(fn, 0));
    cg_return(cg, LLVMBuildZExt(cg->builder, in_tree, cg->i64, ""));
    cg_end_subprogram(cg, &caller);
    return fn;
}

LLVMValueRef cg_in_target_tree(struct codegen *cg, LLVMValueRef target)
{
    LLVMValueRef fn = target_tree_function(cg);
    LLVMValueRef args[1] = {target};
    return cg_compare(cg, LLVMIntNE, cg_call(cg, LLVMGlobalGetValueType(fn), fn, args, 1), 0);
}
