/* Context functions that read the current task: ppid(), pexecname(), euid().
 * Field offsets come from the running kernel's BTF at compile time (the
 * program is built for this kernel anyway), then bpf_probe_read_kernel walks
 * task->real_parent->tgid, task->real_parent->comm, task->cred->euid. */
#include <string.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "sema/builtins.h"

/* Byte offset of `member` in struct `type`, looking inside anonymous members
 * (randomized layouts group fields that way); -1 when absent. */
static long member_offset(const struct btf *btf, int type_id, const char *member, int depth)
{
    const struct btf_type *t = btf__type_by_id(btf, (__u32)type_id);
    if (!t || !btf_is_composite(t) || depth > 4)
        return -1;
    const struct btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); i++, m++) {
        const char *name = btf__name_by_offset(btf, m->name_off);
        long bits = (long)btf_member_bit_offset(t, (__u32)i);
        if (name && strcmp(name, member) == 0)
            return bits / 8;
        if (!name || !*name) {
            long inner = member_offset(btf, btf__resolve_type(btf, m->type), member, depth + 1);
            if (inner >= 0)
                return bits / 8 + inner;
        }
    }
    return -1;
}

struct task_offsets {
    int loaded;
    long real_parent, tgid, comm, cred, euid, mm, arg_start, arg_end, env_start, env_end;
    long vm_start, vm_pgoff, vm_file, f_inode, i_ino, i_sb, s_dev;   /* cg_read_vma_file() */
};

static long offset_in(const struct btf *btf, const char *type, const char *member)
{
    int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
    return id > 0 ? member_offset(btf, id, member, 0) : -1;
}

/* Read from the kernel's BTF once per compilation. */
static const struct task_offsets *task_offsets(struct codegen *cg)
{
    if (cg->task_offsets)
        return cg->task_offsets;
    struct task_offsets *result = ARENA_NEW(cg->arena, struct task_offsets);
    cg->task_offsets = result;
    struct task_offsets offsets = {.loaded = 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                   -1, -1, -1, -1, -1, -1, -1};
    struct btf *btf = btf__load_vmlinux_btf();
    if (!btf) {
        *result = offsets;
        return result;
    }
    int task = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
    int cred = btf__find_by_name_kind(btf, "cred", BTF_KIND_STRUCT);
    int mm = btf__find_by_name_kind(btf, "mm_struct", BTF_KIND_STRUCT);
    if (mm > 0) {
        offsets.arg_start = member_offset(btf, mm, "arg_start", 0);
        offsets.arg_end = member_offset(btf, mm, "arg_end", 0);
        offsets.env_start = member_offset(btf, mm, "env_start", 0);
        offsets.env_end = member_offset(btf, mm, "env_end", 0);
    }
    if (task > 0) {
        offsets.real_parent = member_offset(btf, task, "real_parent", 0);
        offsets.tgid = member_offset(btf, task, "tgid", 0);
        offsets.comm = member_offset(btf, task, "comm", 0);
        offsets.cred = member_offset(btf, task, "cred", 0);
        offsets.mm = member_offset(btf, task, "mm", 0);
    }
    if (cred > 0)
        offsets.euid = member_offset(btf, cred, "euid", 0);
    offsets.vm_start = offset_in(btf, "vm_area_struct", "vm_start");
    offsets.vm_pgoff = offset_in(btf, "vm_area_struct", "vm_pgoff");
    offsets.vm_file = offset_in(btf, "vm_area_struct", "vm_file");
    offsets.f_inode = offset_in(btf, "file", "f_inode");
    offsets.i_ino = offset_in(btf, "inode", "i_ino");
    offsets.i_sb = offset_in(btf, "inode", "i_sb");
    offsets.s_dev = offset_in(btf, "super_block", "s_dev");
    btf__free(btf);
    *result = offsets;
    return result;
}

/* *(u64 *)(base + offset) from kernel memory; 0 when unreadable. */
LLVMValueRef cg_read_kernel(struct codegen *cg, LLVMValueRef base, long offset, int size)
{
    LLVMValueRef slot = cg_entry_alloca(cg, cg->i64, "kread");
    LLVMBuildStore(cg->builder, cg_const(cg, 0), slot);
    LLVMValueRef address = LLVMBuildAdd(cg->builder, base, cg_const(cg, offset), "");
    LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, (unsigned)size, 0),
                            LLVMBuildIntToPtr(cg->builder, address, cg->ptr, "")};
    cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
    LLVMValueRef value = LLVMBuildLoad2(cg->builder, cg->i64, slot, "");
    return size == 8 ? value : LLVMBuildAnd(cg->builder, value, cg_const(cg, (1ll << (size * 8)) - 1), "");
}

static LLVMValueRef current_task(struct codegen *cg)
{
    return cg_helper(cg, BPF_FUNC_get_current_task, cg->i64, NULL, 0);
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
        LLVMValueRef address = LLVMBuildAdd(cg->builder, parent, cg_const(cg, o->comm), "");
        LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
        LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, 16, 0),
                                LLVMBuildIntToPtr(cg->builder, address, cg->ptr, "")};
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
    }
    return cg_const(cg, 0);
}

/* A mapping's file and where it starts, from a struct vm_area_struct (a
 * bpf_find_vma callback's argument): {s_dev, i_ino, vm_start, vm_pgoff} as
 * four u64 at `out`; dev and inode are 0 for an anonymous one.
 * Returns 0, or -1 (with a diagnostic) when the kernel's BTF lacks a field. */
int cg_read_vma_file(struct codegen *cg, LLVMValueRef vma, LLVMValueRef out, struct span span)
{
    const struct task_offsets *o = task_offsets(cg);
    if (o->vm_start < 0 || o->vm_pgoff < 0 || o->vm_file < 0 || o->f_inode < 0 || o->i_ino < 0 || o->i_sb < 0 ||
        o->s_dev < 0) {
        diag_error(cg->diags, span, "symbol lookup needs the kernel's BTF (/sys/kernel/btf/vmlinux) "
                   "to find vm_area_struct fields");
        return -1;
    }
    LLVMValueRef base = LLVMBuildPtrToInt(cg->builder, vma, cg->i64, "");
    LLVMValueRef inode = cg_read_kernel(cg, cg_read_kernel(cg, base, o->vm_file, 8), o->f_inode, 8);
    LLVMValueRef values[4] = {cg_read_kernel(cg, cg_read_kernel(cg, inode, o->i_sb, 8), o->s_dev, 4),
                              cg_read_kernel(cg, inode, o->i_ino, 8), cg_read_kernel(cg, base, o->vm_start, 8),
                              cg_read_kernel(cg, base, o->vm_pgoff, 8)};
    for (int i = 0; i < 4; i++) {
        LLVMValueRef at = cg_const(cg, 8 * i);
        LLVMBuildStore(cg->builder, values[i], LLVMBuildGEP2(cg->builder, cg->i8, out, &at, 1, ""));
    }
    return 0;
}

/* -c/-x: process probes fire in the target and its descendants (as in
 * SystemTap), so the attachment is not filtered by pid: the handler checks
 * the current process, then up to 16 ancestors. The target itself takes the
 * first comparison. Returns an i1. */
#define ANCESTOR_DEPTH 16

LLVMValueRef cg_in_target_tree(struct codegen *cg, LLVMValueRef target)
{
    LLVMValueRef tgid = LLVMBuildLShr(cg->builder, cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0),
                                      cg_const(cg, 32), "");
    const struct task_offsets *o = task_offsets(cg);
    if (o->real_parent < 0 || o->tgid < 0)
        return LLVMBuildICmp(cg->builder, LLVMIntEQ, tgid, target, "");
    LLVMBasicBlockRef yes = cg_block(cg, "in_tree"), no = cg_block(cg, "not_in_tree"),
                      done = cg_block(cg, "tree_done");
    LLVMBasicBlockRef next = cg_block(cg, "ancestors");
    LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntEQ, tgid, target, ""), yes, next);
    cg_position(cg, next);
    LLVMValueRef task = current_task(cg);
    for (int level = 0; level < ANCESTOR_DEPTH; level++) {
        task = cg_read_kernel(cg, task, o->real_parent, 8);
        LLVMValueRef id = cg_read_kernel(cg, task, o->tgid, 4);
        LLVMBasicBlockRef deeper = cg_block(cg, "ancestor");
        LLVMBasicBlockRef match_checked = cg_block(cg, "ancestor_checked");
        LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntEQ, id, target, ""), yes, match_checked);
        cg_position(cg, match_checked);
        /* init (1) or an unreadable task (0): the top of the tree */
        LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntULE, id, cg_const(cg, 1), ""), no, deeper);
        cg_position(cg, deeper);
    }
    LLVMBuildBr(cg->builder, no);
    cg_position(cg, yes);
    LLVMBuildBr(cg->builder, done);
    cg_position(cg, no);
    LLVMBuildBr(cg->builder, done);
    cg_position(cg, done);
    LLVMValueRef phi = LLVMBuildPhi(cg->builder, cg->i1, "in_target_tree");
    LLVMValueRef values[2] = {LLVMConstInt(cg->i1, 1, 0), LLVMConstInt(cg->i1, 0, 0)};
    LLVMBasicBlockRef blocks[2] = {yes, no};
    LLVMAddIncoming(phi, values, blocks, 2);
    return phi;
}
