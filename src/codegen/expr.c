/* Expressions: longs are i64 values; strings are pointers to NUL-terminated
 * bytes (a .rodata literal, a scratch slot, or a .data global). */
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "codegen/kernel_symbols.h"
#include "sema/builtins.h"


static LLVMValueRef unsupported(struct codegen *cg, struct expr *e, const char *what)
{
    diag_error(cg->diags, e->span, "%s not supported yet", what);
    return e->type == TYPE_STRING ? cg_string_literal(cg, "", 0) : cg_const(cg, 0);
}

/* Where an assignable value lives. */
struct lvalue {
    LLVMValueRef ptr;
    int is_string;
    int is_shared;       /* a .data global: updated atomically where it matters */
};

static int lvalue_of(struct codegen *cg, struct expr *e, struct lvalue *out)
{
    if (e->kind == EXPR_INDEX && cg_array_of(cg, e->symbol) && e->symbol->type != TYPE_STATS) {
        out->is_string = e->symbol->type == TYPE_STRING;
        out->is_shared = 1;
        out->ptr = cg_array_lvalue(cg, e);
        return 1;
    }
    if (e->kind != EXPR_IDENT || !e->symbol) {
        unsupported(cg, e, "assignment to arrays is");
        return 0;
    }
    const struct symbol *sym = e->symbol;
    out->is_string = sym->type == TYPE_STRING;
    out->is_shared = sym->kind == SYMBOL_GLOBAL;
    out->ptr = sym->kind == SYMBOL_GLOBAL ? cg_global_ptr(cg, sym) : cg_local_ptr(cg, sym);
    return 1;
}

static LLVMValueRef load_ident(struct codegen *cg, struct expr *e)
{
    const struct symbol *sym = e->symbol;
    if (sym->kind == SYMBOL_GLOBAL && (sym->is_array || sym->type == TYPE_STATS))
        return unsupported(cg, e, "arrays and statistics are");
    LLVMValueRef ptr = sym->kind == SYMBOL_GLOBAL ? cg_global_ptr(cg, sym) : cg_local_ptr(cg, sym);
    if (sym->type == TYPE_STRING)
        return ptr;
    return cg_load_as(cg, cg->i64, ptr, sym->name);
}

static LLVMValueRef bool_to_long(struct codegen *cg, LLVMValueRef bit)
{
    return cg_widen(cg, bit);
}

LLVMValueRef cg_condition(struct codegen *cg, struct expr *e)
{
    if (e->type == TYPE_VOID) {   /* a call with no value, as an operand of && or || */
        cg_expr(cg, e);
        return LLVMConstInt(cg->i1, 0, 0);
    }
    LLVMValueRef value = cg_expr(cg, e);
    return cg_compare(cg, LLVMIntNE, value, 0);
}

/* Division and modulo: a zero divisor is a runtime error at the operator. */
static LLVMValueRef divide(struct codegen *cg, struct span span, LLVMValueRef lhs, LLVMValueRef rhs,
                           int is_modulo)
{
    cg_error_if(cg, cg_compare(cg, LLVMIntEQ, rhs, 0), "div_zero", "div_ok", span, "division by 0", cg_const(cg, 0));
    return cg_signed_divide(cg, lhs, rhs, is_modulo);
}

static LLVMValueRef arithmetic(struct codegen *cg, struct span span, int op, LLVMValueRef lhs,
                               LLVMValueRef rhs)
{
    LLVMValueRef shift_mask = cg_const(cg, 63);   /* x86 semantics for oversized shifts */
    switch (op) {
    case BINARY_ADD: return cg_add(cg, lhs, rhs);
    case BINARY_SUB: return cg_sub(cg, lhs, rhs);
    case BINARY_MUL: return cg_mul(cg, lhs, rhs);
    case BINARY_DIV: return divide(cg, span, lhs, rhs, 0);
    case BINARY_MOD: return divide(cg, span, lhs, rhs, 1);
    case BINARY_SHL: return cg_shl(cg, lhs, cg_and(cg, rhs, shift_mask));
    case BINARY_SHR: return cg_ashr(cg, lhs, cg_and(cg, rhs, shift_mask));
    case BINARY_BITAND: return cg_and(cg, lhs, rhs);
    case BINARY_BITOR: return cg_or(cg, lhs, rhs);
    case BINARY_BITXOR: return cg_binary(cg, LLVMXor, lhs, rhs, "");
    }
    return cg_const(cg, 0);
}

static LLVMValueRef logical(struct codegen *cg, struct expr *e)
{
    int is_and = e->binary.op == BINARY_LOGAND;
    LLVMValueRef lhs = cg_condition(cg, e->binary.lhs);
    LLVMBasicBlockRef lhs_block = cg_current_block(cg);
    /* the right side only when the left does not decide */
    LLVMBasicBlockRef done = is_and ? cg_if(cg, lhs, "logic_rhs", "logic_done")
                                    : cg_if_not(cg, lhs, "logic_rhs", "logic_done");
    LLVMValueRef rhs = cg_condition(cg, e->binary.rhs);
    LLVMBasicBlockRef rhs_end = cg_current_block(cg);
    cg_end_if(cg, done);
    LLVMValueRef phi = cg_phi2(cg, cg->i1, "", LLVMConstInt(cg->i1, is_and ? 0 : 1, 0), lhs_block, rhs, rhs_end);
    return bool_to_long(cg, phi);
}

static LLVMIntPredicate compare_predicate(int op)
{
    switch (op) {
    case BINARY_LT: return LLVMIntSLT;
    case BINARY_GT: return LLVMIntSGT;
    case BINARY_LE: return LLVMIntSLE;
    case BINARY_GE: return LLVMIntSGE;
    case BINARY_EQ: return LLVMIntEQ;
    default: return LLVMIntNE;
    }
}

static LLVMValueRef binary(struct codegen *cg, struct expr *e)
{
    int op = e->binary.op;
    if (op == BINARY_LOGAND || op == BINARY_LOGOR)
        return logical(cg, e);
    if (op == BINARY_REGEX_MATCH || op == BINARY_REGEX_NOMATCH)
        return cg_regex_match(cg, e);
    if (op == BINARY_CONCAT)
        return cg_concat(cg, e, NULL);
    LLVMValueRef lhs = cg_expr(cg, e->binary.lhs);
    LLVMValueRef rhs = cg_expr(cg, e->binary.rhs);
    cg_set_location(cg, e->span);
    if (op >= BINARY_LT && op <= BINARY_NE) {
        if (e->binary.lhs->type == TYPE_STRING) {
            lhs = cg_string_compare(cg, lhs, rhs);
            rhs = cg_const(cg, 0);
        }
        return bool_to_long(cg, cg_compare_values(cg, compare_predicate(op), lhs, rhs));
    }
    return arithmetic(cg, e->span, op, lhs, rhs);
}

static LLVMValueRef unary(struct codegen *cg, struct expr *e)
{
    LLVMValueRef value = cg_expr(cg, e->unary.operand);
    switch (e->unary.op) {
    case UNARY_NEG: return cg_neg(cg, value);
    case UNARY_PLUS: return value;
    case UNARY_NOT:
        return bool_to_long(cg, cg_compare(cg, LLVMIntEQ, value, 0));
    case UNARY_BITNOT: return cg_not(cg, value);
    }
    return value;
}

static const int assign_to_binary[] = {
    [ASSIGN_ADD] = BINARY_ADD, [ASSIGN_SUB] = BINARY_SUB, [ASSIGN_MUL] = BINARY_MUL,
    [ASSIGN_DIV] = BINARY_DIV, [ASSIGN_MOD] = BINARY_MOD, [ASSIGN_SHL] = BINARY_SHL,
    [ASSIGN_SHR] = BINARY_SHR, [ASSIGN_BITAND] = BINARY_BITAND, [ASSIGN_BITOR] = BINARY_BITOR,
    [ASSIGN_BITXOR] = BINARY_BITXOR,
};

/* x += d on a shared global: one atomic add, so both CPUs' updates count. */
static LLVMValueRef atomic_add(struct codegen *cg, LLVMValueRef ptr, LLVMValueRef delta)
{
    LLVMValueRef old = cg_atomic_add(cg, ptr, delta);
    return cg_add(cg, old, delta);
}

/* Whether e surely neither reads nor writes the local sym (a callee cannot
 * see the caller's locals); anything unusual counts as touching it. */
static int leaves_alone(const struct expr *e, const struct symbol *sym)
{
    switch (e->kind) {
    case EXPR_INT: case EXPR_STRING: case EXPR_REGISTER: return 1;
    case EXPR_IDENT: return e->symbol != sym;
    case EXPR_UNARY: return leaves_alone(e->unary.operand, sym);
    case EXPR_BINARY: return leaves_alone(e->binary.lhs, sym) && leaves_alone(e->binary.rhs, sym);
    case EXPR_TERNARY:
        return leaves_alone(e->ternary.cond, sym) && leaves_alone(e->ternary.then_expr, sym) &&
               leaves_alone(e->ternary.else_expr, sym);
    case EXPR_USER_READ: return leaves_alone(e->user_read.address, sym);
    case EXPR_CTX_READ: return !e->ctx_read.address || leaves_alone(e->ctx_read.address, sym);
    case EXPR_CALL:
        for (const struct expr *a = e->call.args; a; a = a->next)
            if (!leaves_alone(a, sym))
                return 0;
        return 1;
    default: return 0;
    }
}

/* s = a . b ...: built in s's own slot, saving a copy, when s is a local no
 * part touches and no catch block could see it half built. */
static int concat_in_place(struct codegen *cg, struct expr *e)
{
    const struct expr *lhs = e->assign.lhs;
    return e->assign.op == ASSIGN_SET && e->assign.rhs->kind == EXPR_BINARY &&
           e->assign.rhs->binary.op == BINARY_CONCAT && lhs->kind == EXPR_IDENT && lhs->symbol &&
           lhs->symbol->kind != SYMBOL_GLOBAL && lhs->symbol->type == TYPE_STRING && !cg_catch_enabled(cg) &&
           leaves_alone(e->assign.rhs, lhs->symbol);
}

/* s .= e appends in place to a local (its scratch slot has the slack a
 * masked offset needs; a .data global has not) when e's value cannot point
 * into s: 1 with e evaluated first (as stap does), 2 with the parts of its
 * chain of `.` appended one by one (no catch could see s half built). */
static int append_in_place(struct codegen *cg, struct expr *e)
{
    const struct expr *lhs = e->assign.lhs, *rhs = e->assign.rhs;
    if (e->assign.op != ASSIGN_CONCAT || lhs->kind != EXPR_IDENT || !lhs->symbol ||
        lhs->symbol->kind == SYMBOL_GLOBAL || lhs->symbol->type != TYPE_STRING || !leaves_alone(rhs, lhs->symbol))
        return 0;
    return rhs->kind == EXPR_BINARY && rhs->binary.op == BINARY_CONCAT && !cg_catch_enabled(cg) ? 2 : 1;
}

static LLVMValueRef assign(struct codegen *cg, struct expr *e)
{
    struct lvalue target;
    if (concat_in_place(cg, e))
        return cg_concat(cg, e->assign.rhs, cg_local_ptr(cg, e->assign.lhs->symbol));
    int append = append_in_place(cg, e);
    if (append && lvalue_of(cg, e->assign.lhs, &target))
        return cg_concat_onto(cg, target.ptr, e->assign.rhs, append == 2);
    LLVMValueRef rhs = cg_expr(cg, e->assign.rhs);
    if (!lvalue_of(cg, e->assign.lhs, &target))
        return rhs;
    cg_set_location(cg, e->span);
    int op = e->assign.op;
    if (target.is_string) {
        if (op == ASSIGN_CONCAT)
            rhs = cg_string_concat(cg, target.ptr, rhs);
        cg_string_copy(cg, target.ptr, rhs);
        return target.ptr;
    }
    if (op == ASSIGN_SET) {
        cg_store(cg, rhs, target.ptr);
        return rhs;
    }
    if (target.is_shared && (op == ASSIGN_ADD || op == ASSIGN_SUB))
        return atomic_add(cg, target.ptr, op == ASSIGN_ADD ? rhs : cg_neg(cg, rhs));
    LLVMValueRef old = cg_load(cg, target.ptr);
    LLVMValueRef value = arithmetic(cg, e->span, assign_to_binary[op], old, rhs);
    cg_store(cg, value, target.ptr);
    return value;
}

static LLVMValueRef incdec(struct codegen *cg, struct expr *e)
{
    struct lvalue target;
    if (!lvalue_of(cg, e->incdec.operand, &target))
        return cg_const(cg, 0);
    LLVMValueRef delta = cg_const(cg, e->incdec.increment ? 1 : -1);
    LLVMValueRef updated;
    if (target.is_shared) {
        updated = atomic_add(cg, target.ptr, delta);
    } else {
        updated = cg_add(cg, cg_load(cg, target.ptr), delta);
        cg_store(cg, updated, target.ptr);
    }
    return e->incdec.prefix ? updated : cg_sub(cg, updated, delta);
}

static LLVMValueRef ternary(struct codegen *cg, struct expr *e)
{
    LLVMValueRef cond = cg_condition(cg, e->ternary.cond);
    struct cg_if_else branch = cg_if_else(cg, cond, "then", "else", "ternary_done");
    LLVMValueRef then_value = cg_expr(cg, e->ternary.then_expr);
    LLVMBasicBlockRef then_end = cg_current_block(cg);
    cg_else(cg, &branch);
    LLVMValueRef else_value = cg_expr(cg, e->ternary.else_expr);
    LLVMBasicBlockRef else_end = cg_current_block(cg);
    cg_end_if_else(cg, &branch);
    return cg_phi2(cg, LLVMTypeOf(then_value), "", then_value, then_end, else_value, else_end);

}

static LLVMValueRef state_load(struct codegen *cg, int field)
{
    return cg_load(cg, cg_state_field(cg, field));
}

static LLVMValueRef wall_clock(struct codegen *cg, int64_t unit_ns)
{
    LLVMValueRef now = cg_helper(cg, BPF_FUNC_ktime_get_boot_ns, cg->i64, NULL, 0);
    LLVMValueRef wall = cg_add(cg, now, state_load(cg, STATE_REALTIME_OFFSET));
    return unit_ns == 1 ? wall : cg_signed_divide(cg, wall, cg_const(cg, unit_ns), 0);
}

static LLVMValueRef randint(struct codegen *cg, struct expr *e)
{
    LLVMValueRef limit = cg_expr(cg, e->call.args);
    cg_error_if(cg, cg_compare(cg, LLVMIntSLE, limit, 0), "randint_bad", "randint_ok", e->span,
                "randint: the limit must be positive", limit);
    return cg_binary(cg, LLVMURem, cg_random_bits(cg), limit, "");
}

static LLVMValueRef execname(struct codegen *cg)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    LLVMValueRef args[2] = {slot, LLVMConstInt(cg->i32, 16, 0)};
    cg_helper(cg, BPF_FUNC_get_current_comm, cg->i64, args, 2);
    return slot;
}

static LLVMValueRef builtin_call(struct codegen *cg, struct expr *e, const struct builtin *b)
{
    LLVMValueRef value;
    switch (b->id) {
    case BUILTIN_PRINTF: case BUILTIN_PRINT: case BUILTIN_PRINTLN:
    case BUILTIN_PRINTD: case BUILTIN_PRINTDLN:
        cg_output_call(cg, e, (int)b->id);
        return cg_const(cg, 0);
    case BUILTIN_EXIT:
        cg_exit(cg);
        return cg_const(cg, 0);
    case BUILTIN_ERROR:
        cg_raise_error(cg, e->span, NULL, cg_expr(cg, e->call.args));
        cg_position(cg, cg_block(cg, "after_error"));
        return cg_const(cg, 0);
    case BUILTIN_WARN:
        cg_string_record(cg, RECORD_WARN, 0, cg_expr(cg, e->call.args));
        return cg_const(cg, 0);
    case BUILTIN_SYSTEM:
        cg_string_record(cg, RECORD_COMMAND, 0, cg_expr(cg, e->call.args));
        return cg_const(cg, 0);
    case BUILTIN_PROCFS_SET:
    case BUILTIN_PROCFS_APPEND:
        cg_procfs_value(cg, e->span, b->id == BUILTIN_PROCFS_APPEND, cg_expr(cg, e->call.args));
        return cg_const(cg, 0);
    case BUILTIN_SWITCH_FILE:
        cg_string_record(cg, RECORD_COMMAND, 1, NULL);
        return cg_const(cg, 0);
    case BUILTIN_ABORT:
        cg_abort(cg);
        cg_position(cg, cg_block(cg, "after_abort"));
        return cg_const(cg, 0);
    case BUILTIN_PID: case BUILTIN_TID:
        value = cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0);
        return b->id == BUILTIN_PID ? cg_lshr(cg, value, cg_const(cg, 32))
                                    : cg_and(cg, value, cg_const(cg, 0xffffffff));
    case BUILTIN_UID: case BUILTIN_GID:
        value = cg_helper(cg, BPF_FUNC_get_current_uid_gid, cg->i64, NULL, 0);
        return b->id == BUILTIN_GID ? cg_lshr(cg, value, cg_const(cg, 32))
                                    : cg_and(cg, value, cg_const(cg, 0xffffffff));
    case BUILTIN_CPU:
        return cg_and(cg, cg_helper(cg, BPF_FUNC_get_smp_processor_id, cg->i64, NULL, 0), cg_const(cg, 0xffffffff));
    case BUILTIN_EXECNAME: return execname(cg);
    case BUILTIN_TARGET: return state_load(cg, STATE_TARGET_PID);
    case BUILTIN_STP_PID: return state_load(cg, STATE_TAP_PID);
    case BUILTIN_PP: return cg_probe_point_string(cg, 0);
    case BUILTIN_PN: return cg_probe_point_string(cg, 2);
    case BUILTIN_PLT_NAME: return cg_probe_point_string(cg, 3);
    case BUILTIN_GETTIMEOFDAY_S: return wall_clock(cg, 1000000000);
    case BUILTIN_GETTIMEOFDAY_MS: return wall_clock(cg, 1000000);
    case BUILTIN_GETTIMEOFDAY_US: return wall_clock(cg, 1000);
    case BUILTIN_GETTIMEOFDAY_NS: return wall_clock(cg, 1);
    case BUILTIN_KTIME_GET_NS:
    case BUILTIN_LOCAL_CLOCK_NS:
        return cg_helper(cg, BPF_FUNC_ktime_get_ns, cg->i64, NULL, 0);
    case BUILTIN_RANDINT: return randint(cg, e);
    case BUILTIN_STRLEN: return cg_string_length(cg, cg_expr(cg, e->call.args));
    case BUILTIN_USER_STRING: case BUILTIN_USER_STRING_N: case BUILTIN_USER_STRING2:
    case BUILTIN_USER_STRING_QUOTED: case BUILTIN_USER_INTEGER: case BUILTIN_UADDR: case BUILTIN_PPFUNC:
    case BUILTIN_TAP_FORMAT: case BUILTIN_ADDR:
        return cg_target_builtin(cg, e, (int)b->id);
    case BUILTIN_STRING_UTF16: case BUILTIN_STRING_UTF32: case BUILTIN_STRING_QUOTED_UTF16:
    case BUILTIN_STRING_QUOTED_UTF32: case BUILTIN_BUFFER_QUOTED: case BUILTIN_BUFFER_QUOTED_ERROR:
        return cg_memory_text_builtin(cg, e, (int)b->id);
    case BUILTIN_PPID: case BUILTIN_PEXECNAME: case BUILTIN_EUID: case BUILTIN_JIFFIES: case BUILTIN_TASK_CURRENT:
    case BUILTIN_USER_MODE:
    case BUILTIN_ARG_START: case BUILTIN_ARG_END: case BUILTIN_ENV_START: case BUILTIN_ENV_END:
        return cg_context_call(cg, e, (int)b->id);
    case BUILTIN_UBACKTRACE: case BUILTIN_PRINT_UBACKTRACE: case BUILTIN_PRINT_USTACK:
    case BUILTIN_BACKTRACE: case BUILTIN_PRINT_BACKTRACE: case BUILTIN_PRINT_STACK:
    case BUILTIN_USYMNAME: case BUILTIN_USYMDATA: case BUILTIN_UMODNAME: case BUILTIN_SPRINT_UBACKTRACE:
    case BUILTIN_UCALLERS: case BUILTIN_PRINT_USTACK_FOLDED: case BUILTIN_PRINT_STACK_FOLDED:
    case BUILTIN_SPRINT_BACKTRACE: case BUILTIN_USYMFILELINE: case BUILTIN_USYMFILE: case BUILTIN_USYMLINE:
        return cg_stack_builtin(cg, e, (int)b->id);
    case BUILTIN_SYMNAME: return cg_kernel_symbol_builtin(cg, e, KSYM_NAME);
    case BUILTIN_SYMDATA: return cg_kernel_symbol_builtin(cg, e, KSYM_DATA);
    case BUILTIN_MODNAME: return cg_kernel_symbol_builtin(cg, e, KSYM_MODULE);
    case BUILTIN_ERRNO_NAME: return cg_errno_name(cg, cg_expr(cg, e->call.args));
    case BUILTIN_PERF_READ: return cg_perf_read(cg, e);
    case BUILTIN_SPRINTF: case BUILTIN_SPRINT: case BUILTIN_SPRINTLN: return cg_sprintf_builtin(cg, e, (int)b->id);
    default: return cg_string_builtin(cg, e, (int)b->id);
    }
    return cg_const(cg, 0);
}

static LLVMValueRef call(struct codegen *cg, struct expr *e)
{
    if (cg_is_builtin_call(e))
        return builtin_call(cg, e, e->call.builtin);
    return cg_call_user(cg, e);
}

LLVMValueRef cg_expr(struct codegen *cg, struct expr *e)
{
    cg_set_location(cg, e->span);
    switch (e->kind) {
    case EXPR_INT: return cg_const(cg, e->int_value);
    case EXPR_STRING: return cg_string_literal(cg, e->string.value, e->string.len);
    case EXPR_IDENT: return load_ident(cg, e);
    case EXPR_UNARY: return unary(cg, e);
    case EXPR_BINARY: return binary(cg, e);
    case EXPR_ASSIGN: return assign(cg, e);
    case EXPR_INCDEC: return incdec(cg, e);
    case EXPR_TERNARY: return ternary(cg, e);
    case EXPR_CALL: return call(cg, e);
    case EXPR_AGGREGATE: cg_stat_add(cg, e); return cg_const(cg, 0);
    case EXPR_INDEX: return cg_array_read(cg, e);
    case EXPR_IN: return cg_array_in(cg, e);
    case EXPR_STAT: return cg_stat_extract(cg, e);
    case EXPR_HIST_BUCKET: return cg_hist_bucket(cg, e);
    case EXPR_TARGET: case EXPR_ENTRY: case EXPR_DEFINED: case EXPR_CAST: case EXPR_VAR: case EXPR_AUTOCAST:
        return unsupported(cg, e, "target variables are");
    case EXPR_REGISTER: return cg_register(cg, e);
    case EXPR_USER_READ: return cg_user_read(cg, e);
    case EXPR_CTX_READ: return cg_ctx_read(cg, e);
    }
    return cg_const(cg, 0);
}
