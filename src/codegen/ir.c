/* The builders every codegen file uses: constants, blocks, allocas, BPF
 * helper calls, new functions with the debug info BTF needs. They call
 * nothing else of codegen. */
#include <stdbool.h>
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

LLVMValueRef cg_const(struct codegen *cg, int64_t value)
{
    return LLVMConstInt(cg->i64, (unsigned long long)value, 1);
}

LLVMValueRef cg_i32(struct codegen *cg, int32_t value)
{
    return LLVMConstInt(cg->i32, (unsigned long long)(int64_t)value, 1);
}

/* An operand of a feature (an index, an argument): evaluated by the
 * expression dispatcher, which calls the features in turn. */
LLVMValueRef cg_operand(struct codegen *cg, struct expr *e)
{
    return cg->expr(cg, e);
}

/* A body of a feature (a loop's, a function's): run by the statement
 * dispatcher. */
void cg_statement(struct codegen *cg, struct stmt *st)
{
    cg->stmt(cg, st);
}

/* BPF helpers are called through their number cast to a function pointer. */
LLVMValueRef cg_helper(struct codegen *cg, int helper_id, LLVMTypeRef return_type,
                       LLVMValueRef *args, unsigned count)
{
    LLVMTypeRef param_types[8];
    for (unsigned i = 0; i < count; i++)
        param_types[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fn_type = LLVMFunctionType(return_type, param_types, count, 0);
    LLVMValueRef callee = LLVMConstIntToPtr(cg_const(cg, helper_id), cg->ptr);
    return LLVMBuildCall2(cg->builder, fn_type, callee, args, count, "");
}

LLVMValueRef cg_random_bits(struct codegen *cg)
{
    LLVMValueRef high = cg_helper(cg, BPF_FUNC_get_prandom_u32, cg->i64, NULL, 0);
    LLVMValueRef low = cg_helper(cg, BPF_FUNC_get_prandom_u32, cg->i64, NULL, 0);
    LLVMValueRef mask = cg_const(cg, 0xffffffff);
    return cg_or(cg, cg_shl(cg, cg_and(cg, high, mask), cg_const(cg, 32)), cg_and(cg, low, mask));
}

void cg_set_location(struct codegen *cg, struct span span)
{
    if (!cg->fn || !cg->fn->scope)
        return;
    LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(
        cg->context, span.line > 0 ? (unsigned)span.line : 1, span.col > 0 ? (unsigned)span.col : 1,
        cg->fn->scope, NULL);
    LLVMSetCurrentDebugLocation2(cg->builder, loc);
}

LLVMBasicBlockRef cg_block(struct codegen *cg, const char *name)
{
    return LLVMAppendBasicBlockInContext(cg->context, cg->fn->function, name);
}

void cg_position(struct codegen *cg, LLVMBasicBlockRef block)
{
    LLVMPositionBuilderAtEnd(cg->builder, block);
}

int cg_block_open(struct codegen *cg)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(cg->builder)) == NULL;
}

LLVMValueRef cg_entry_alloca(struct codegen *cg, LLVMTypeRef type, const char *name)
{
    LLVMBasicBlockRef current = LLVMGetInsertBlock(cg->builder);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(cg->fn->function);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(cg->builder, first);
    else
        LLVMPositionBuilderAtEnd(cg->builder, entry);
    LLVMValueRef slot = LLVMBuildAlloca(cg->builder, type, name);
    LLVMPositionBuilderAtEnd(cg->builder, current);
    return slot;
}

/* Each BPF function needs a DISubprogram with named parameters, or the kernel
 * rejects the BTF that LLVM derives from it. */
static LLVMMetadataRef di_subprogram(struct codegen *cg, LLVMValueRef fn, const char *name,
                                     const char **param_names, int internal)
{
    LLVMTypeRef type = LLVMGlobalGetValueType(fn);
    unsigned count = LLVMCountParamTypes(type);
    LLVMMetadataRef types[9];
    types[0] = cg->di_long;
    LLVMTypeRef params[8];
    LLVMGetParamTypes(type, params);
    for (unsigned i = 0; i < count && i < 8; i++)
        types[i + 1] = LLVMGetTypeKind(params[i]) == LLVMPointerTypeKind ? cg->di_ptr : cg->di_long;
    LLVMMetadataRef sub_type = LLVMDIBuilderCreateSubroutineType(cg->di, cg->di_file, types, count + 1,
                                                                 LLVMDIFlagZero);
    LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(
        cg->di, cg->di_file, name, strlen(name), name, strlen(name), cg->di_file, 1, sub_type,
        internal, 1, 1, LLVMDIFlagPrototyped, 1);
    for (unsigned i = 0; i < count && i < 8; i++) {
        const char *pname = param_names ? param_names[i] : "arg";
        LLVMDIBuilderCreateParameterVariable(cg->di, sp, pname, strlen(pname), i + 1, cg->di_file, 1,
                                             types[i + 1], 1, LLVMDIFlagZero);
    }
    LLVMSetSubprogram(fn, sp);
    return sp;
}

LLVMValueRef cg_new_function(struct codegen *cg, const char *name, LLVMTypeRef type,
                             const char *section, const char **param_names, int internal)
{
    LLVMValueRef fn = LLVMAddFunction(cg->module, name, type);
    if (section)
        LLVMSetSection(fn, section);
    if (internal)
        LLVMSetLinkage(fn, LLVMInternalLinkage);
    unsigned kind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->context, kind, 0));
    di_subprogram(cg, fn, name, param_names, internal);
    return fn;
}

LLVMValueRef cg_begin_subprogram(struct codegen *cg, const char *name, LLVMTypeRef type, const char **param_names,
                                 struct fn_state *state, struct subprogram_caller *caller)
{
    caller->fn = cg->fn;
    caller->block = cg->fn ? LLVMGetInsertBlock(cg->builder) : NULL;
    caller->location = cg->fn ? LLVMGetCurrentDebugLocation2(cg->builder) : NULL;
    LLVMValueRef fn = cg_new_function(cg, name, type, ".text", param_names, 1);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->context, noinline, 0));
    *state = (struct fn_state){.kind = FN_USER, .function = fn, .scope = LLVMGetSubprogram(fn)};
    cg->fn = state;
    cg_position(cg, cg_block(cg, "entry"));
    cg_set_location(cg, (struct span){.line = 1, .col = 1});
    return fn;
}

void cg_end_subprogram(struct codegen *cg, const struct subprogram_caller *caller)
{
    cg->fn = caller->fn;
    if (caller->block) {
        cg_position(cg, caller->block);
        LLVMSetCurrentDebugLocation2(cg->builder, caller->location);
    }
}

/* Signed division or remainder of a nonzero divisor. Before BPF v4 (kernels
 * < 6.6) the machine has none and LLVM refuses it: the magnitudes are
 * divided unsigned and the sign put back, as v4 does it (INT64_MIN / -1 is
 * INT64_MIN, the remainder takes the dividend's sign). */
LLVMValueRef cg_signed_divide(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs, int is_modulo)
{
    LLVMBuilderRef b = cg->builder;
    if (cg->program->bpf_isa >= 4)
        return is_modulo ? LLVMBuildSRem(b, lhs, rhs, "") : LLVMBuildSDiv(b, lhs, rhs, "");
    LLVMValueRef zero = cg_const(cg, 0);
    LLVMValueRef lhs_negative = LLVMBuildICmp(b, LLVMIntSLT, lhs, zero, "");
    LLVMValueRef rhs_negative = LLVMBuildICmp(b, LLVMIntSLT, rhs, zero, "");
    LLVMValueRef lhs_abs = LLVMBuildSelect(b, lhs_negative, LLVMBuildNeg(b, lhs, ""), lhs, "");
    LLVMValueRef rhs_abs = LLVMBuildSelect(b, rhs_negative, LLVMBuildNeg(b, rhs, ""), rhs, "");
    LLVMValueRef magnitude = is_modulo ? LLVMBuildURem(b, lhs_abs, rhs_abs, "") : LLVMBuildUDiv(b, lhs_abs, rhs_abs, "");
    LLVMValueRef negative = is_modulo ? lhs_negative : LLVMBuildXor(b, lhs_negative, rhs_negative, "");
    return LLVMBuildSelect(b, negative, LLVMBuildNeg(b, magnitude, ""), magnitude, "");
}

/* if (cond) { then } as two blocks named then_name and done_name: branches,
 * leaves the builder in the then block and returns the done block, which
 * cg_end_if() closes. */
LLVMBasicBlockRef cg_if(struct codegen *cg, LLVMValueRef cond, const char *then_name, const char *done_name)
{
    LLVMBasicBlockRef then = cg_block(cg, then_name), done = cg_block(cg, done_name);
    LLVMBuildCondBr(cg->builder, cond, then, done);
    cg_position(cg, then);
    return done;
}

void cg_branch(struct codegen *cg, LLVMBasicBlockRef target)
{
    LLVMBuildBr(cg->builder, target);
}

void cg_end_if(struct codegen *cg, LLVMBasicBlockRef done)
{
    cg_branch(cg, done);
    cg_position(cg, done);
}

/* value PREDICATE constant, an i1. */
LLVMValueRef cg_compare(struct codegen *cg, LLVMIntPredicate predicate, LLVMValueRef value, int64_t constant)
{
    return LLVMBuildICmp(cg->builder, predicate, value, cg_const(cg, constant), "");
}

/* lhs PREDICATE rhs, an i1. */
LLVMValueRef cg_compare_values(struct codegen *cg, LLVMIntPredicate predicate, LLVMValueRef lhs, LLVMValueRef rhs)
{
    return LLVMBuildICmp(cg->builder, predicate, lhs, rhs, "");
}

/* if (!cond) { then }: as cg_if, the branch's targets swapped. */
LLVMBasicBlockRef cg_if_not(struct codegen *cg, LLVMValueRef cond, const char *then_name, const char *done_name)
{
    LLVMBasicBlockRef then = cg_block(cg, then_name), done = cg_block(cg, done_name);
    LLVMBuildCondBr(cg->builder, cond, done, then);
    cg_position(cg, then);
    return done;
}

/* The then-block runs when cond is true, or when it is false if negated. */
static struct cg_if_else if_else(struct codegen *cg, LLVMValueRef cond, bool negated, const char *then_name,
                                 const char *else_name, const char *done_name)
{
    LLVMBasicBlockRef then = cg_block(cg, then_name);
    struct cg_if_else branch = {cg_block(cg, else_name), cg_block(cg, done_name)};
    LLVMBuildCondBr(cg->builder, cond, negated ? branch.otherwise : then, negated ? then : branch.otherwise);
    cg_position(cg, then);
    return branch;
}

struct cg_if_else cg_if_else(struct codegen *cg, LLVMValueRef cond, const char *then_name, const char *else_name,
                             const char *done_name)
{
    return if_else(cg, cond, false, then_name, else_name, done_name);
}

struct cg_if_else cg_if_present(struct codegen *cg, LLVMValueRef ptr, const char *then_name, const char *else_name,
                                const char *done_name)
{
    return if_else(cg, cg_is_null(cg, ptr), true, then_name, else_name, done_name);
}

void cg_else(struct codegen *cg, const struct cg_if_else *branch)
{
    LLVMBuildBr(cg->builder, branch->done);
    cg_position(cg, branch->otherwise);
}

void cg_end_if_else(struct codegen *cg, const struct cg_if_else *branch)
{
    cg_end_if(cg, branch->done);
}

void cg_continue_if(struct codegen *cg, LLVMValueRef cond, const char *name, LLVMBasicBlockRef otherwise)
{
    LLVMBasicBlockRef next = cg_block(cg, name);
    LLVMBuildCondBr(cg->builder, cond, next, otherwise);
    cg_position(cg, next);
}

void cg_jump_if(struct codegen *cg, LLVMValueRef cond, LLVMBasicBlockRef target, const char *name)
{
    LLVMBasicBlockRef next = cg_block(cg, name);
    LLVMBuildCondBr(cg->builder, cond, target, next);
    cg_position(cg, next);
}

LLVMValueRef cg_phi2(struct codegen *cg, LLVMTypeRef type, const char *name, LLVMValueRef value_a, LLVMBasicBlockRef block_a,
                     LLVMValueRef value_b, LLVMBasicBlockRef block_b)
{
    LLVMValueRef phi = LLVMBuildPhi(cg->builder, type, name);
    LLVMValueRef values[2] = {value_a, value_b};
    LLVMBasicBlockRef blocks[2] = {block_a, block_b};
    LLVMAddIncoming(phi, values, blocks, 2);
    return phi;
}

LLVMValueRef cg_is_null(struct codegen *cg, LLVMValueRef ptr)
{
    return LLVMBuildIsNull(cg->builder, ptr, "");
}

LLVMValueRef cg_load(struct codegen *cg, LLVMValueRef ptr)
{
    return LLVMBuildLoad2(cg->builder, cg->i64, ptr, "");
}

LLVMValueRef cg_load_unsigned(struct codegen *cg, LLVMTypeRef type, LLVMValueRef ptr)
{
    return LLVMBuildZExt(cg->builder, LLVMBuildLoad2(cg->builder, type, ptr, ""), cg->i64, "");
}

LLVMValueRef cg_store(struct codegen *cg, LLVMValueRef value, LLVMValueRef ptr)
{
    return LLVMBuildStore(cg->builder, value, ptr);
}

LLVMValueRef cg_byte_ptr(struct codegen *cg, LLVMValueRef base, LLVMValueRef offset)
{
    return LLVMBuildGEP2(cg->builder, cg->i8, base, &offset, 1, "");
}

LLVMValueRef cg_word_at(struct codegen *cg, LLVMValueRef base, LLVMValueRef index)
{
    return LLVMBuildGEP2(cg->builder, cg->i64, base, &index, 1, "");
}

LLVMValueRef cg_byte_at(struct codegen *cg, LLVMValueRef base, int64_t offset)
{
    return cg_byte_ptr(cg, base, cg_const(cg, offset));
}

LLVMValueRef cg_atomic_add(struct codegen *cg, LLVMValueRef ptr, LLVMValueRef delta)
{
    return LLVMBuildAtomicRMW(cg->builder, LLVMAtomicRMWBinOpAdd, ptr, delta, LLVMAtomicOrderingMonotonic, 0);
}

void cg_callback_return(struct codegen *cg, int64_t result)
{
    LLVMBuildRet(cg->builder, cg_const(cg, result));
}

/* The i64 binary operations, one builder call: their names in ir.h. */
#define CG_BINARY(name, opcode) \
    LLVMValueRef name(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs) \
    { \
        return LLVMBuildBinOp(cg->builder, opcode, lhs, rhs, ""); \
    }
CG_BINARY(cg_add, LLVMAdd)
CG_BINARY(cg_sub, LLVMSub)
CG_BINARY(cg_mul, LLVMMul)
CG_BINARY(cg_and, LLVMAnd)
CG_BINARY(cg_or, LLVMOr)
CG_BINARY(cg_shl, LLVMShl)
CG_BINARY(cg_lshr, LLVMLShr)
CG_BINARY(cg_udiv, LLVMUDiv)
CG_BINARY(cg_ashr, LLVMAShr)

LLVMValueRef cg_neg(struct codegen *cg, LLVMValueRef value)
{
    return LLVMBuildNeg(cg->builder, value, "");
}

LLVMValueRef cg_not(struct codegen *cg, LLVMValueRef value)
{
    return LLVMBuildNot(cg->builder, value, "");
}

LLVMValueRef cg_select(struct codegen *cg, LLVMValueRef cond, LLVMValueRef if_true, LLVMValueRef if_false)
{
    return LLVMBuildSelect(cg->builder, cond, if_true, if_false, "");
}

LLVMValueRef cg_widen(struct codegen *cg, LLVMValueRef value)
{
    return LLVMBuildZExt(cg->builder, value, cg->i64, "");
}

void cg_branch_if(struct codegen *cg, LLVMValueRef cond, LLVMBasicBlockRef if_true, LLVMBasicBlockRef if_false)
{
    LLVMBuildCondBr(cg->builder, cond, if_true, if_false);
}

struct cg_loop cg_loop_start(struct codegen *cg, LLVMBasicBlockRef head, const char *index_name)
{
    struct cg_loop loop = {LLVMGetInsertBlock(cg->builder), head, NULL};
    cg_branch(cg, head);
    cg_position(cg, head);
    loop.index = LLVMBuildPhi(cg->builder, cg->i64, index_name);
    return loop;
}

void cg_loop_next(struct codegen *cg, const struct cg_loop *loop, int64_t limit, LLVMBasicBlockRef done)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->builder);
    LLVMValueRef next = cg_add(cg, loop->index, cg_const(cg, 1));
    cg_branch_if(cg, cg_compare(cg, LLVMIntULT, next, limit), loop->head, done);
    LLVMValueRef values[2] = {cg_const(cg, 0), next};
    LLVMBasicBlockRef blocks[2] = {loop->entry, latch};
    LLVMAddIncoming(loop->index, values, blocks, 2);
}

LLVMValueRef cg_widen_signed(struct codegen *cg, LLVMValueRef value)
{
    return LLVMBuildSExt(cg->builder, value, cg->i64, "");
}

LLVMValueRef cg_u32(struct codegen *cg, LLVMValueRef value)
{
    return LLVMBuildTrunc(cg->builder, value, cg->i32, "");
}

LLVMValueRef cg_pointer(struct codegen *cg, LLVMValueRef address)
{
    return LLVMBuildIntToPtr(cg->builder, address, cg->ptr, "");
}

LLVMValueRef cg_address(struct codegen *cg, LLVMValueRef ptr)
{
    return LLVMBuildPtrToInt(cg->builder, ptr, cg->i64, "");
}

void cg_return(struct codegen *cg, LLVMValueRef value)
{
    LLVMBuildRet(cg->builder, value);
}

LLVMBasicBlockRef cg_current_block(struct codegen *cg)
{
    return LLVMGetInsertBlock(cg->builder);
}

LLVMValueRef cg_load_as(struct codegen *cg, LLVMTypeRef type, LLVMValueRef ptr, const char *name)
{
    return LLVMBuildLoad2(cg->builder, type, ptr, name);
}

LLVMValueRef cg_field_ptr(struct codegen *cg, LLVMTypeRef struct_type, LLVMValueRef ptr, unsigned field,
                          const char *name)
{
    return LLVMBuildStructGEP2(cg->builder, struct_type, ptr, field, name);
}

LLVMValueRef cg_element_ptr(struct codegen *cg, LLVMTypeRef type, LLVMValueRef base, LLVMValueRef *indices,
                            unsigned count, const char *name)
{
    return LLVMBuildGEP2(cg->builder, type, base, indices, count, name);
}

LLVMValueRef cg_binary(struct codegen *cg, LLVMOpcode op, LLVMValueRef lhs, LLVMValueRef rhs, const char *name)
{
    return LLVMBuildBinOp(cg->builder, op, lhs, rhs, name);
}

LLVMValueRef cg_compare_named(struct codegen *cg, LLVMIntPredicate predicate, LLVMValueRef lhs, LLVMValueRef rhs,
                              const char *name)
{
    return LLVMBuildICmp(cg->builder, predicate, lhs, rhs, name);
}

LLVMValueRef cg_is_not_null(struct codegen *cg, LLVMValueRef ptr)
{
    return LLVMBuildIsNotNull(cg->builder, ptr, "");
}

LLVMValueRef cg_trunc(struct codegen *cg, LLVMValueRef value, LLVMTypeRef type)
{
    return LLVMBuildTrunc(cg->builder, value, type, "");
}

LLVMValueRef cg_phi(struct codegen *cg, LLVMTypeRef type, const char *name)
{
    return LLVMBuildPhi(cg->builder, type, name);
}

LLVMValueRef cg_switch(struct codegen *cg, LLVMValueRef value, LLVMBasicBlockRef otherwise, unsigned cases)
{
    return LLVMBuildSwitch(cg->builder, value, otherwise, cases);
}

LLVMValueRef cg_call(struct codegen *cg, LLVMTypeRef fn_type, LLVMValueRef fn, LLVMValueRef *args, unsigned count)
{
    return LLVMBuildCall2(cg->builder, fn_type, fn, args, count, "");
}

LLVMValueRef cg_intrinsic(struct codegen *cg, const char *name, LLVMValueRef *args, unsigned count)
{
    LLVMTypeRef types[1] = {cg->i64};
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    return cg_call(cg, LLVMIntrinsicGetType(cg->context, id, types, 1),
                   LLVMGetIntrinsicDeclaration(cg->module, id, types, 1), args, count);
}

LLVMValueRef cg_claim(struct codegen *cg, LLVMValueRef ptr)
{
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(cg->builder, ptr, cg_const(cg, 0), cg_const(cg, 1),
                                               LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
    return LLVMBuildExtractValue(cg->builder, pair, 1, "");
}
