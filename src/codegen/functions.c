/* User functions. BPF has no recursion, so a recursive function is cloned
 * once per nesting level (f_0 calls f_1 ...); the last clone raises
 * "MAXNESTING exceeded" instead of calling deeper. Other functions are BPF
 * subprograms shared by every caller (one copy however many probes call
 * them) when the call stack stays shallow, inlined otherwise. Every clone
 * has its own frame and string slots. */
#include <stdio.h>
#include <string.h>

#include "codegen/codegen_internal.h"
#include "sema/builtins.h"

struct function_code {
    LLVMTypeRef type;
    LLVMValueRef *clones;
    int clone_count;
    int outline_chain;   /* 0: inlined; else subprogram frames it can stack */
    int under_recursion; /* called, maybe indirectly, by a recursive function */
};

/* Subprograms add call frames the verifier counts (8 at most, with loop
 * callbacks and recursion clones): a chain of at most this many. */
enum { MAX_OUTLINE_CHAIN = 3, MAX_SUBPROGRAM_ARGS = 5 };

static struct function_code *code_of(const struct function_decl *fn)
{
    return fn->codegen;
}

static LLVMTypeRef value_llvm_type(struct codegen *cg, enum value_type type)
{
    return type == TYPE_STRING ? cg->ptr : cg->i64;
}

LLVMTypeRef cg_frame_type(struct codegen *cg, const struct frame_layout *layout)
{
    int count = FRAME_LOCALS + layout->local_count;
    LLVMTypeRef *fields = ARENA_ARRAY(cg->arena, LLVMTypeRef, count);
    for (int i = 0; i < count; i++)
        fields[i] = cg->i64;
    return LLVMStructTypeInContext(cg->context, fields, (unsigned)count, 0);
}

/* String locals and parameters get a scratch slot each; longs start at 0
 * and strings empty, as in SystemTap. */
void cg_setup_frame(struct codegen *cg, struct frame_layout *layout)
{
    struct fn_state *fn = cg->fn;
    fn->layout = layout;
    fn->frame_type = cg_frame_type(cg, layout);
    fn->frame_offset = cg_alloc_scratch(cg, (uint32_t)LLVMABISizeOfType(cg->layout, fn->frame_type));
    fn->frame = cg_scratch_ptr(cg, fn->frame_offset);
    fn->string_slots = ARENA_ARRAY(cg->arena, uint32_t, layout->local_count + 1);
    for (int i = 0; i < FRAME_LOCALS + layout->local_count; i++)
        cg_store(cg, cg_const(cg, 0), cg_field_ptr(cg, fn->frame_type, fn->frame, (unsigned)i, ""));
    for (int i = 0; i < layout->local_count; i++) {
        if (layout->locals[i]->type != TYPE_STRING)
            continue;
        fn->string_slots[i] = cg_alloc_string_slot(cg);
        cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, fn->string_slots[i]));
    }
}

static void declare_function(struct codegen *cg, struct function_decl *fn)
{
    struct function_code *code = code_of(fn);
    LLVMTypeRef *params = ARENA_ARRAY(cg->arena, LLVMTypeRef, fn->param_count + 1);
    const char **names = ARENA_ARRAY(cg->arena, const char *, fn->param_count + 1);
    params[0] = cg->ptr;
    names[0] = "scratch";
    for (int i = 0; i < fn->param_count; i++) {
        params[i + 1] = value_llvm_type(cg, fn->params[i]->type);
        names[i + 1] = fn->params[i]->name;
    }
    LLVMTypeRef ret = value_llvm_type(cg, fn->return_type);
    code->type = LLVMFunctionType(ret, params, (unsigned)fn->param_count + 1, 0);
    code->clone_count = fn->is_recursive ? cg->options->max_nesting : 1;
    code->clones = ARENA_ARRAY(cg->arena, LLVMValueRef, code->clone_count);
    const char *attribute = fn->is_recursive || code->outline_chain ? "noinline" : "alwaysinline";
    unsigned kind = LLVMGetEnumAttributeKindForName(attribute, strlen(attribute));
    for (int depth = 0; depth < code->clone_count; depth++) {
        char name[256];
        if (fn->overload_index)   /* fn_NAME names the first function of its name */
            snprintf(name, sizeof(name), fn->is_recursive ? "fn_%s_ov%d_%d" : "fn_%s_ov%d", fn->name,
                     fn->overload_index, depth);
        else
            snprintf(name, sizeof(name), fn->is_recursive ? "fn_%s_%d" : "fn_%s", fn->name, depth);
        code->clones[depth] = cg_new_function(cg, name, code->type, ".text", names, 1);
        LLVMAddAttributeAtIndex(code->clones[depth], LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(cg->context, kind, 0));
    }
}

static void define_clone(struct codegen *cg, struct function_decl *fn, int depth)
{
    struct function_code *code = code_of(fn);
    LLVMValueRef function = code->clones[depth];
    struct fn_state state = {.kind = FN_USER, .function = function, .user = fn, .depth = depth,
                             .scope = LLVMGetSubprogram(function)};
    cg->fn = &state;
    LLVMBasicBlockRef entry = cg_block(cg, "entry");
    state.return_block = cg_block(cg, "return");
    state.unwind_block = cg_block(cg, "unwind");
    cg_position(cg, entry);
    cg_set_location(cg, fn->decl->span);
    state.scratch = LLVMGetParam(function, 0);
    cg_setup_frame(cg, &fn->frame);
    if (fn->return_type == TYPE_STRING) {
        state.return_slot_offset = cg_alloc_string_slot(cg);
        cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, state.return_slot_offset));
    }
    /* Parameters are values: strings are copied into the callee's slots. */
    for (int i = 0; i < fn->param_count; i++) {
        LLVMValueRef arg = LLVMGetParam(function, (unsigned)i + 1);
        if (fn->params[i]->type == TYPE_STRING)
            cg_string_copy(cg, cg_local_ptr(cg, fn->params[i]), arg);
        else
            cg_store(cg, arg, cg_local_ptr(cg, fn->params[i]));
    }
    cg_statement(cg, fn->decl->function.body);
    if (cg_block_open(cg))
        cg_branch(cg, state.return_block);

    cg_position(cg, state.return_block);
    LLVMValueRef result = fn->return_type == TYPE_STRING
        ? cg_scratch_ptr(cg, state.return_slot_offset)
        : cg_load(cg, cg_field_ptr(cg, state.frame_type, state.frame, FRAME_RETVAL, ""));
    cg_return(cg, result);
    cg_position(cg, state.unwind_block);
    cg_return(cg, fn->return_type == TYPE_STRING ? cg_scratch_ptr(cg, state.return_slot_offset)
                                                            : cg_const(cg, 0));
    cg->fn = NULL;
}

static void mark_under_recursion(struct function_decl *fn)
{
    for (int i = 0; i < fn->callee_count; i++) {
        struct function_code *callee = code_of(fn->callees[i]);
        if (callee && !callee->under_recursion) {
            callee->under_recursion = 1;
            mark_under_recursion(fn->callees[i]);
        }
    }
}

/* The longest chain of subprograms fn starts, callees decided first; 0 when
 * fn is inlined. Recursive functions stack up to MAXNESTING clones already:
 * they, their callees and their callers stay inlined. */
static int outline_chain(struct function_decl *fn, int depth)
{
    struct function_code *code = code_of(fn);
    if (code->outline_chain >= 0)
        return code->outline_chain;
    if (fn->is_recursive || code->under_recursion || fn->param_count + 1 > MAX_SUBPROGRAM_ARGS || depth > 64)
        return code->outline_chain = 0;
    int longest = 0;
    for (int i = 0; i < fn->callee_count; i++) {
        if (fn->callees[i]->is_recursive)
            return code->outline_chain = 0;
        int below = outline_chain(fn->callees[i], depth + 1);
        longest = below > longest ? below : longest;
    }
    return code->outline_chain = longest + 1 <= MAX_OUTLINE_CHAIN ? longest + 1 : 0;
}

static void plan_outlining(struct codegen *cg)
{
    const struct script *script = cg->script;
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable) {
            struct function_code *code = ARENA_NEW(cg->arena, struct function_code);
            code->outline_chain = -1;
            script->functions[i]->codegen = code;
        }
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable && script->functions[i]->is_recursive)
            mark_under_recursion(script->functions[i]);
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable)
            outline_chain(script->functions[i], 0);
}

void cg_define_user_functions(struct codegen *cg)
{
    const struct script *script = cg->script;
    plan_outlining(cg);
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable)
            declare_function(cg, script->functions[i]);
    for (int i = 0; i < script->function_count; i++) {
        struct function_decl *fn = script->functions[i];
        if (!fn->is_reachable)
            continue;
        for (int depth = 0; depth < code_of(fn)->clone_count; depth++)
            define_clone(cg, fn, depth);
    }
}

static int reaches(const struct function_decl *from, const struct function_decl *target, int depth)
{
    if (from == target && depth > 0)
        return 1;
    if (depth > 64)
        return 0;
    for (int i = 0; i < from->callee_count; i++)
        if (reaches(from->callees[i], target, depth + 1))
            return 1;
    return 0;
}

/* Which clone a call uses: one level deeper inside the same cycle, else the
 * first (a fresh chain of calls). */
static int clone_depth(struct codegen *cg, const struct function_decl *callee)
{
    const struct fn_state *caller = cg->fn;
    if (!callee->is_recursive || !caller->user)
        return 0;
    const struct function_decl *from = caller->user;
    int same_cycle = (from == callee) || (reaches(from, callee, 1) && reaches(callee, from, 1));
    return same_cycle ? caller->depth + 1 : 0;
}

static LLVMValueRef no_result(struct codegen *cg, const struct function_decl *fn)
{
    return fn->return_type == TYPE_STRING ? cg_string_literal(cg, "", 0) : cg_const(cg, 0);
}

/* Calls one overload with its arguments evaluated. */
static LLVMValueRef call_overload(struct codegen *cg, const struct expr *call, const struct function_decl *fn,
                                  LLVMValueRef *args, int count)
{
    struct function_code *code = code_of(fn);
    int depth = clone_depth(cg, fn);
    if (depth >= code->clone_count) {
        cg_raise_error(cg, call->span, "MAXNESTING exceeded: recursion deeper than %lld calls",
                       cg_const(cg, code->clone_count));
        cg_position(cg, cg_block(cg, "after_nesting"));
        return no_result(cg, fn);
    }
    return cg_call(cg, code->type, code->clones[depth], args, (unsigned)count);
}

static int chain_has_next(const struct function_decl *fn)
{
    for (; fn; fn = fn->next_overload)
        if (fn->has_next)
            return 1;
    return 0;
}

/* SystemTap's runtime overloading: the overloads of one signature are
 * called in order with the same arguments while each ends with `next`
 * (an UNWIND_NEXT that the call takes back); `next` in the last one is an
 * error. The result is the one of the overload that returned. */
static LLVMValueRef call_chain(struct codegen *cg, const struct expr *call, LLVMValueRef *args, int count)
{
    const struct function_decl *head = call->call.function;
    LLVMValueRef unwind_slot = cg_scratch_ptr(cg, SCRATCH_UNWIND);
    LLVMBasicBlockRef done = cg_block(cg, "overload_done");
    LLVMValueRef results[32];
    LLVMBasicBlockRef from[32];
    int n = 0;
    for (const struct function_decl *fn = head; fn && n < 31; fn = fn->next_overload) {
        LLVMValueRef result = call_overload(cg, call, fn, args, count);
        results[n] = result;
        from[n++] = cg_current_block(cg);
        LLVMValueRef unwind = cg_load(cg, unwind_slot);
        cg_continue_if(cg, cg_compare(cg, LLVMIntEQ, unwind, UNWIND_NEXT),
                       fn->next_overload ? "next_overload" : "overloads_exhausted", done);

        cg_store(cg, cg_const(cg, 0), unwind_slot);
    }
    cg_raise_error(cg, call->span, "all functions exhausted", cg_const(cg, 0));
    cg_position(cg, cg_block(cg, "after_exhausted"));
    results[n] = no_result(cg, head);
    from[n++] = cg_current_block(cg);
    cg_branch(cg, done);
    cg_position(cg, done);
    if (head->return_type == TYPE_VOID)
        return results[0];
    LLVMValueRef phi = cg_phi(cg, LLVMTypeOf(results[0]), "");
    LLVMAddIncoming(phi, results, from, (unsigned)n);
    return phi;
}

LLVMValueRef cg_call_user_result(struct codegen *cg, struct expr *call)
{
    LLVMValueRef args[16];
    args[0] = cg->fn->scratch;
    int count = 1;
    for (struct expr *a = call->call.args; a && count < 16; a = a->next)
        args[count++] = cg_operand(cg, a);
    cg_set_location(cg, call->span);
    LLVMValueRef result = chain_has_next(call->call.function) ? call_chain(cg, call, args, count)
                                                              : call_overload(cg, call, call->call.function, args, count);
    cg_unwind_if_needed(cg);
    return result;
}

int cg_is_builtin_call(const struct expr *call)
{
    return call->call.target == CALL_BUILTIN;
}

LLVMValueRef cg_call_user(struct codegen *cg, struct expr *call)
{
    const struct function_decl *fn = call->call.function;
    LLVMValueRef result = cg_call_user_result(cg, call);
    if (fn->return_type != TYPE_STRING || LLVMIsAGlobalVariable(result))
        return result;
    /* The callee's return slot is reused by its next call: keep a copy. */
    LLVMValueRef copy = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_string_copy(cg, copy, result);
    return copy;
}
