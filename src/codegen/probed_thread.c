/* The probed thread: registers and user memory. A process probe copies its
 * struct pt_regs into scratch on entry (loop callbacks and inlined
 * functions have no ctx, and the verifier would not let a ctx pointer
 * travel through memory), with the load bias next to it; EXPR_REGISTER
 * reads that copy. User memory is read with bpf_probe_read_user into
 * scratch; a fault is a runtime error, never a silent 0. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "kinds/kinds.h"
#include "sema/builtins.h"
#include "sema/uprobe_site.h"

/* A probe's register copy, and which of its words are read. */
struct register_copy {
    LLVMValueRef *stores;
    uint64_t read;
    struct register_copy *next;
};

/* probed_thread.c's state. */
struct probed_thread_state {
    uint32_t regs_offset;            /* the probed thread's registers in scratch, 0 until used */
    int functions_read_registers;    /* a user function reads them: every copy stays */
    struct register_copy *register_copies;
    int functions_read_point;        /* 1: a user function calls pp(), ppfunc() or pn(); 0: none; -1: not known yet */
};

static struct probed_thread_state *thread_state(struct codegen *cg)
{
    if (!cg->probed_thread) {
        cg->probed_thread = ARENA_NEW(cg->arena, struct probed_thread_state);
        cg->probed_thread->functions_read_point = -1;
    }
    return cg->probed_thread;
}

#define PT_REGS_WORDS 21            /* x86_64 struct pt_regs */
#define REGS_BIAS_WORD PT_REGS_WORDS
#define REGS_SNAPSHOT_WORD (PT_REGS_WORDS + 1)
#define REGS_COOKIE_WORD (PT_REGS_WORDS + 1 + MAX_ENTRY_SNAPSHOTS)
#define REGS_AREA_SIZE ((REGS_COOKIE_WORD + 1) * 8)
#define ENTRY_MAP_SIZE 10240

/* DWARF register number -> byte offset in struct pt_regs (x86_64). */
static const int pt_regs_offset[17] = {
    80,  /* 0 rax */  96, /* 1 rdx */  88, /* 2 rcx */  40, /* 3 rbx */
    104, /* 4 rsi */ 112, /* 5 rdi */  32, /* 6 rbp */ 152, /* 7 rsp */
    72,  /* 8 r8 */   64, /* 9 r9 */   56, /* 10 r10 */ 48, /* 11 r11 */
    24,  /* 12 r12 */ 16, /* 13 r13 */  8, /* 14 r14 */  0, /* 15 r15 */
    128, /* 16 rip */
};

static uint32_t regs_area(struct codegen *cg)
{
    if (!thread_state(cg)->regs_offset)
        thread_state(cg)->regs_offset = cg_alloc_scratch(cg, REGS_AREA_SIZE);
    return thread_state(cg)->regs_offset;
}

static void restore_snapshots(struct codegen *cg, const struct probe *probe);
static LLVMValueRef load_register(struct codegen *cg, int byte);

#define COPY_WORDS (REGS_COOKIE_WORD + 1)
_Static_assert(COPY_WORDS <= 64, "the words a probe reads are a 64-bit mask");

static void copy_word(struct codegen *cg, int word, LLVMValueRef value)
{
    cg->fn->register_stores[word] =
        cg_store(cg, value, cg_scratch_ptr(cg, regs_area(cg) + (uint32_t)word * 8));
}

void cg_target_probe_entry(struct codegen *cg, LLVMValueRef ctx)
{
    const struct probe *probe = cg->fn->probe;
    /* Each word's store is kept, so the words nobody reads can go once the
     * module is complete (cg_target_drop_unread_copies): most handlers read
     * one register or none. */
    cg->fn->register_stores = ARENA_ARRAY(cg->arena, LLVMValueRef, COPY_WORDS);
    memset(cg->fn->register_stores, 0, sizeof(LLVMValueRef) * COPY_WORDS);
    for (int i = 0; i < PT_REGS_WORDS; i++)
        copy_word(cg, i, cg_load_as(cg, cg->i64, cg_byte_at(cg, ctx, i * 8), "reg"));
    /* bpf_get_func_ip gives the probed address as mapped (the function for
     * a uretprobe, where the uprobe was placed): minus the file address, the
     * load bias of a PIE or library. */
    LLVMValueRef args[1] = {ctx};
    LLVMValueRef ip = cg_helper(cg, BPF_FUNC_get_func_ip, cg->i64, args, 1);
    if (probe_kind_has(probe->kind, KIND_REGS_AT_PROBED_PC)) {
        /* Before 6.6 it answers 0 for uprobes; an entry probe's handler then
         * runs with regs->ip at the probed address (the kernel has stepped
         * back over its int3: measured on 6.1). A uretprobe's regs->ip is
         * the return address: no fallback there. */
        LLVMValueRef trap = cg_load_as(cg, cg->i64, cg_byte_at(cg, ctx, 128), "trap");
        ip = cg_select(cg, cg_compare(cg, LLVMIntEQ, ip, 0), trap, ip);
    }
    LLVMValueRef vaddr = cg_cookie_is_vaddr(probe) ? cg_helper(cg, BPF_FUNC_get_attach_cookie, cg->i64, args, 1)
                                                   : cg_const(cg, (int64_t)probe_uprobe(probe)->vaddr);
    copy_word(cg, REGS_BIAS_WORD, cg_binary(cg, LLVMSub, ip, vaddr, "bias"));
    if (probe->group_count > 1)
        copy_word(cg, REGS_COOKIE_WORD, cg_helper(cg, BPF_FUNC_get_attach_cookie, cg->i64, args, 1));
    if (probe->entry_count || probe_uprobe(probe)->tail_count)
        restore_snapshots(cg, probe);
}

/* A probe on a function's rets runs at several pcs: each site's cookie is
 * its file address, for the load bias, unless the cookie numbers a group
 * (whose handlers read no target variable, so no bias). */
int cg_cookie_is_vaddr(const struct probe *probe)
{
    return probe_uprobe(probe)->at_returns && !probe->group_leader && probe->group_count <= 1;
}

void cg_target_probe_exit(struct codegen *cg)
{
    struct fn_state *fn = cg->fn;
    if (!fn->register_stores)
        return;
    struct register_copy *copy = ARENA_NEW(cg->arena, struct register_copy);
    *copy = (struct register_copy){fn->register_stores, fn->registers_read, thread_state(cg)->register_copies};
    thread_state(cg)->register_copies = copy;
}

/* An instruction and, after it, whatever only it used (a load from ctx, a
 * helper call, an address). A worklist, not recursion: a value two erased
 * instructions share (the ip a select tests and picks) goes once, when its
 * last user has gone. */
static void erase_with_operands(LLVMValueRef inst)
{
    LLVMValueRef work[64];
    int count = 0;
    work[count++] = inst;
    while (count) {
        LLVMValueRef next = work[--count];
        if (LLVMGetFirstUse(next))
            continue;
        LLVMValueRef operands[4];
        int operand_count = LLVMGetNumOperands(next);
        if (operand_count > 4)
            operand_count = 4;
        for (int i = 0; i < operand_count; i++)
            operands[i] = LLVMGetOperand(next, (unsigned)i);
        LLVMInstructionEraseFromParent(next);
        for (int i = 0; i < operand_count; i++) {
            int queued = !LLVMIsAInstruction(operands[i]) || count == 64;
            for (int j = 0; j < count && !queued; j++)
                queued = work[j] == operands[i];
            if (!queued)
                work[count++] = operands[i];
        }
    }
}

void cg_target_drop_unread_copies(struct codegen *cg)
{
    if (thread_state(cg)->functions_read_registers)
        return;
    for (struct register_copy *copy = thread_state(cg)->register_copies; copy; copy = copy->next)
        for (int word = 0; word < COPY_WORDS; word++)
            if (copy->stores[word] && !(copy->read >> word & 1))
                erase_with_operands(copy->stores[word]);
}

/* pp() (which 0), ppfunc() (1), pn() (2), a .plt probe's $$name (3) */
static const char *group_text(const struct probe *member, int which)
{
    const struct uprobe_site *site = probe_uprobe(member)->site;
    if (which == 3)
        return site && site->plt_name ? site->plt_name : "";
    return which == 1 ? member->function : which == 2 ? probe_script_point(member) : member->point;
}

static const char *const point_names[] = {"pp", "ppfunc", "pn", "plt_name"};

/* members' texts (pp(), ppfunc() or pn(), by which) as a .rodata table named
 * name, one fixed-size row each; the one at row, copied into a string slot. */
static LLVMValueRef point_text_at(struct codegen *cg, const char *name, const struct probe *const *members,
                                  int count, int which, LLVMValueRef row)
{
    size_t width = 1;
    for (int i = 0; i < count; i++) {
        const char *text = group_text(members[i], which) ? group_text(members[i], which) : "";
        width = strlen(text) + 1 > width ? strlen(text) + 1 : width;
    }
    width = width > cg->string_size ? cg->string_size : width;
    LLVMTypeRef row_type = LLVMArrayType2(cg->i8, width);
    LLVMTypeRef table_type = LLVMArrayType2(row_type, (uint64_t)count);
    LLVMValueRef table = LLVMGetNamedGlobal(cg->module, name);
    if (!table) {
        LLVMValueRef *rows = ARENA_ARRAY(cg->arena, LLVMValueRef, count);
        char *buffer = arena_alloc(cg->arena, width);
        for (int i = 0; i < count; i++) {
            const char *text = group_text(members[i], which) ? group_text(members[i], which) : "";
            memset(buffer, 0, width);
            memcpy(buffer, text, strlen(text) < width ? strlen(text) : width - 1);
            rows[i] = LLVMConstStringInContext(cg->context, buffer, (unsigned)width, 1);
        }
        table = LLVMAddGlobal(cg->module, table_type, name);
        LLVMSetInitializer(table, LLVMConstArray2(row_type, rows, (uint64_t)count));
        LLVMSetGlobalConstant(table, 1);
        LLVMSetLinkage(table, LLVMPrivateLinkage);
        LLVMSetSection(table, ".rodata");
    }
    LLVMValueRef indices[3] = {cg_const(cg, 0), row, cg_const(cg, 0)};
    /* Copied into a string slot: string code may read string_size bytes
     * from a string, which the verifier allows in a slot but not at a
     * row picked at run time (comparing pp() with ppfunc() was refused). */
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_string_copy(cg, slot, cg_element_ptr(cg, table_type, table, indices, 3, ""));
    return slot;
}

/* A program serving a group: its member's text, by the attach cookie. */
LLVMValueRef cg_group_string(struct codegen *cg, int which)
{
    const struct probe *probe = cg->fn->probe;
    char name[48];
    snprintf(name, sizeof(name), "group_%s_%d", point_names[which], probe->index);
    return point_text_at(cg, name, (const struct probe *const *)probe->group, probe->group_count, which,
                         cg_group_member(cg));
}

/* --- pp(), ppfunc(), pn() in user functions: compiled once for every probe
 * that calls them, they read which probe (and group member) runs from
 * SCRATCH_PROBE_POINT, which each handler sets first when any function needs it. */

static int stmt_reads_point(struct stmt *st, void *ctx);

static int expr_reads_point(struct expr *e, void *ctx)
{
    if (e->kind == EXPR_CALL && e->call.target == CALL_BUILTIN &&
        (e->call.builtin->id == BUILTIN_PP || e->call.builtin->id == BUILTIN_PN ||
         e->call.builtin->id == BUILTIN_PPFUNC || e->call.builtin->id == BUILTIN_PLT_NAME))
        return 1;
    return ast_expr_children(e, &(struct ast_visitor){expr_reads_point, stmt_reads_point, ctx});
}

static int stmt_reads_point(struct stmt *st, void *ctx)
{
    return ast_stmt_children(st, &(struct ast_visitor){expr_reads_point, stmt_reads_point, ctx});
}

static int functions_read_point(struct codegen *cg)
{
    struct probed_thread_state *state = thread_state(cg);
    if (state->functions_read_point < 0) {
        const struct script *script = cg->script;
        state->functions_read_point = 0;
        for (int i = 0; i < script->function_count && !state->functions_read_point; i++)
            if (script->functions[i]->is_reachable &&
                ast_stmt_list(script->functions[i]->decl->function.body,
                              &(struct ast_visitor){expr_reads_point, stmt_reads_point, NULL}))
                state->functions_read_point = 1;
    }
    return state->functions_read_point;
}

/* The row of probe's first member in the table of every probe's texts. */
static int point_row(const struct script *script, const struct probe *probe)
{
    int row = 0;
    for (int i = 0; i < script->probe_count && script->probes[i] != probe; i++)
        row += script->probes[i]->group_count > 1 ? script->probes[i]->group_count : 1;
    return row;
}

void cg_probe_point_enter(struct codegen *cg, const struct probe *probe)
{
    if (!functions_read_point(cg))
        return;
    LLVMValueRef row = cg_const(cg, (uint64_t)point_row(cg->script, probe));
    if (probe->group_count > 1)
        row = cg_add(cg, row, cg_group_member(cg));
    cg_store(cg, row, cg_scratch_ptr(cg, SCRATCH_PROBE_POINT));
}

/* pp() (which 0), ppfunc() (1), pn() (2) or $$name (3) in a user function. */
static LLVMValueRef function_point_string(struct codegen *cg, int which)
{
    const struct script *script = cg->script;
    int rows = point_row(script, NULL);
    if (!rows)
        return cg_string_literal(cg, "", 0);
    const struct probe **members = ARENA_ARRAY(cg->arena, const struct probe *, rows);
    for (int i = 0, r = 0; i < script->probe_count; i++)
        for (int m = 0; m < (script->probes[i]->group_count > 1 ? script->probes[i]->group_count : 1); m++)
            members[r++] = script->probes[i]->group_count > 1 ? script->probes[i]->group[m] : script->probes[i];
    char name[32];
    snprintf(name, sizeof(name), "function_%s", point_names[which]);
    LLVMValueRef row = cg_load(cg, cg_scratch_ptr(cg, SCRATCH_PROBE_POINT));
    /* always in range; the verifier wants the bound */
    row = cg_select(cg, cg_compare(cg, LLVMIntULT, row, (uint64_t)rows), row, cg_const(cg, 0));
    return point_text_at(cg, name, members, rows, which, row);
}

/* pp(), ppfunc() or pn() where the code runs: a probe's own text, a group's
 * by cookie, a user function's by the probe that called it. */
LLVMValueRef cg_probe_point_string(struct codegen *cg, int which)
{
    const struct probe *probe = cg->fn->probe;
    if (!probe)
        return function_point_string(cg, which);
    if (probe->group_count > 1)
        return cg_group_string(cg, which);
    const char *text = group_text(probe, which) ? group_text(probe, which) : "";
    return cg_string_literal(cg, text, (int)strlen(text));
}

/* Which member of its group the running program serves: the attach cookie. */
LLVMValueRef cg_group_member(struct codegen *cg)
{
    LLVMValueRef cookie = load_register(cg, REGS_COOKIE_WORD * 8);
    /* out of range cannot happen; the verifier wants the bound */
    LLVMValueRef in_range = cg_compare(cg, LLVMIntULT, cookie, cg->fn->probe->group_count);
    return cg_select(cg, in_range, cookie, cg_const(cg, 0));
}

/* Every read of the copy comes here: it marks the probe whose code reads
 * it, or, from a user function (shared by probes), all of them. */
static LLVMValueRef load_register(struct codegen *cg, int byte)
{
    struct fn_state *root = cg->fn;
    while (root->parent)
        root = root->parent;
    if (root->kind == FN_PROBE)
        root->registers_read |= 1ull << (byte / 8);
    else
        thread_state(cg)->functions_read_registers = 1;
    return cg_load(cg, cg_scratch_ptr(cg, regs_area(cg) + (uint32_t)byte));
}

LLVMValueRef cg_register(struct codegen *cg, struct expr *e)
{
    int number = e->reg.number;
    if (number == DWARF_REG_LOAD_BIAS)
        return load_register(cg, REGS_BIAS_WORD * 8);
    if (number >= DWARF_REG_ENTRY_SNAPSHOT && number < DWARF_REG_ENTRY_SNAPSHOT + MAX_ENTRY_SNAPSHOTS) {
        int k = number - DWARF_REG_ENTRY_SNAPSHOT;
        struct fn_state *root = cg->fn;
        while (root->parent)
            root = root->parent;
        if (e->type == TYPE_STRING && root->entry_strings)
            return cg_scratch_ptr(cg, root->entry_strings[k]);
        return load_register(cg, (REGS_SNAPSHOT_WORD + k) * 8);
    }
    if (number < 0 || number > 16) {
        diag_error(cg->diags, e->span, "DWARF register %d (vector or floating point) cannot be read", number);
        return cg_const(cg, 0);
    }
    return load_register(cg, pt_regs_offset[number]);
}

/* Reads `size` bytes at `address` into a fresh scratch word; returns the
 * helper's result (0 or -errno) and the word's pointer. */
static LLVMValueRef read_user(struct codegen *cg, LLVMValueRef address, int size, LLVMValueRef *word)
{
    *word = cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8));
    cg_store(cg, cg_const(cg, 0), *word);
    LLVMValueRef args[3] = {*word, LLVMConstInt(cg->i32, (unsigned)size, 0), address};
    return cg_user_memory_read(cg, BPF_FUNC_probe_read_user, args);
}

/* kernel_long, kernel_string ...: the same functions on kernel addresses. */
int cg_is_kernel_read(const struct expr *call)
{
    return strncmp(call->call.name, "kernel_", 7) == 0;
}

static LLVMValueRef extend(struct codegen *cg, LLVMValueRef word, int size, int is_signed)
{
    LLVMTypeRef type = LLVMIntTypeInContext(cg->context, (unsigned)size * 8);
    LLVMValueRef value = cg_load_as(cg, type, word, "");
    if (size == 8)
        return value;
    return is_signed ? cg_widen_signed(cg, value)
                     : cg_widen(cg, value);
}

/* A failed read raises `message` (with the address) at `span`. */
static void fault_check(struct codegen *cg, struct span span, LLVMValueRef result, LLVMValueRef address,
                        const char *message)
{
    cg_error_if(cg, cg_compare(cg, LLVMIntSLT, result, 0), "user_fault", "user_ok", span, message, address);
}

LLVMValueRef cg_user_read(struct codegen *cg, struct expr *e)
{
    LLVMValueRef address = cg_operand(cg, e->user_read.address);
    cg_set_location(cg, e->span);
    LLVMValueRef word;
    if (e->user_read.kernel) {   /* a kernel variable (vmlinux DWARF): the kernel's memory */
        word = cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8));
        cg_store(cg, cg_const(cg, 0), word);
        LLVMValueRef args[3] = {word, LLVMConstInt(cg->i32, (unsigned)e->user_read.size, 0), address};
        LLVMValueRef result = cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
        fault_check(cg, e->span, result, address, "kernel memory fault at 0x%llx");
        return extend(cg, word, e->user_read.size, e->user_read.is_signed);
    }
    LLVMValueRef result = read_user(cg, address, e->user_read.size, &word);
    fault_check(cg, e->span, result, address, "user memory fault at 0x%llx");
    return extend(cg, word, e->user_read.size, e->user_read.is_signed);
}

/* user_long, user_int_error, user_uint8 ...: width and signedness from the name. */
static LLVMValueRef user_integer(struct codegen *cg, struct expr *call)
{
    static const struct { const char *name; int size, is_signed; } kinds[] = {
        {"char", 1, 1}, {"short", 2, 1}, {"ushort", 2, 0}, {"int", 4, 1}, {"uint", 4, 0},
        {"long", 8, 1}, {"ulong", 8, 0}, {"int8", 1, 1}, {"uint8", 1, 0}, {"int16", 2, 1},
        {"uint16", 2, 0}, {"int32", 4, 1}, {"uint32", 4, 0}, {"int64", 8, 1}, {"uint64", 8, 0},
    {"pointer", 8, 0},
    };
    int kernel = cg_is_kernel_read(call);
    const char *name = call->call.name + (kernel ? strlen("kernel_") : strlen("user_"));
    size_t len = strlen(name);
    int error_form = len > 6 && strcmp(name + len - 6, "_error") == 0;
    if (error_form)
        len -= 6;
    int raises = kernel || error_form;   /* SystemTap's kernel_* raise on a fault */
    int size = 8, is_signed = 1;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strlen(kinds[i].name) == len && strncmp(kinds[i].name, name, len) == 0) {
            size = kinds[i].size;
            is_signed = kinds[i].is_signed;
        }
    LLVMValueRef address = cg_operand(cg, call->call.args);
    cg_set_location(cg, call->span);
    LLVMValueRef word;
    LLVMValueRef result;
    if (kernel) {
        word = cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8));
        cg_store(cg, cg_const(cg, 0), word);
        LLVMValueRef args[3] = {word, LLVMConstInt(cg->i32, (unsigned)size, 0), address};
        result = cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
    } else {
        result = read_user(cg, address, size, &word);
    }
    if (raises)
        fault_check(cg, call->span, result, address, kernel ? "kernel memory fault at 0x%llx"
                                                            : "user memory fault at 0x%llx");
    /* Without _error a fault reads as 0 (the word was zeroed): SystemTap's contract. */
    return extend(cg, word, size, is_signed);
}

/* Whether the code runs in a sleepable uprobe: in its program, or in a
 * function only such probes call (a shared pretty printer). */
static int may_fault_in(struct codegen *cg)
{
    if (cg->fn->probe)
        return probe_uprobe(cg->fn->probe)->sleepable;
    return cg->fn->user && cg->fn->user->faults_in;
}

/* `limit` bytes at most (NUL included). A plain uprobe cannot take page
 * faults, so a string not yet paged in (a literal on the first call) reads
 * as -EFAULT; a sleepable one faults the page in with bpf_copy_from_user
 * and reads again. */
static LLVMValueRef read_user_string(struct codegen *cg, LLVMValueRef slot, LLVMValueRef address,
                                     LLVMValueRef limit, int kernel)
{
    LLVMValueRef args[3] = {slot, limit, address};
    if (kernel)
        return cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    LLVMValueRef first = cg_user_memory_read(cg, BPF_FUNC_probe_read_user_str, args);
    if (!may_fault_in(cg))
        return first;
    LLVMBasicBlockRef before = cg_current_block(cg);
    LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntSLT, first, 0), "fault_in", "string_read");
    LLVMValueRef byte = cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8));
    LLVMValueRef touch[3] = {byte, LLVMConstInt(cg->i32, 1, 0), address};
    cg_helper(cg, BPF_FUNC_copy_from_user, cg->i64, touch, 3);
    LLVMValueRef again[3] = {slot, limit, address};
    LLVMValueRef second = cg_helper(cg, BPF_FUNC_probe_read_user_str, cg->i64, again, 3);
    LLVMBasicBlockRef retry_end = cg_current_block(cg);
    cg_end_if(cg, done);
    return cg_phi2(cg, cg->i64, "", first, before, second, retry_end);
}

/* size (an i32) bytes at address into dst: 0 or -errno. A user read that
 * faults in a sleepable probe is tried again with bpf_copy_from_user, which
 * pages the memory in (as read_user_string does). */
LLVMValueRef cg_read_memory(struct codegen *cg, LLVMValueRef dst, LLVMValueRef size, LLVMValueRef address, int kernel)
{
    LLVMValueRef args[3] = {dst, size, address};
    if (kernel)
        return cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
    LLVMValueRef first = cg_user_memory_read(cg, BPF_FUNC_probe_read_user, args);
    if (!may_fault_in(cg))
        return first;
    LLVMBasicBlockRef before = cg_current_block(cg);
    LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntSLT, first, 0), "fault_in", "memory_read");
    LLVMValueRef again[3] = {dst, size, address};
    LLVMValueRef second = cg_helper(cg, BPF_FUNC_copy_from_user, cg->i64, again, 3);
    LLVMBasicBlockRef retry_end = cg_current_block(cg);
    cg_end_if(cg, done);
    return cg_phi2(cg, cg->i64, "", first, before, second, retry_end);
}

static LLVMValueRef clamp_length(struct codegen *cg, LLVMValueRef n)
{
    int64_t max = (int64_t)cg->string_size - 1;
    LLVMValueRef low = cg_select(cg, cg_compare(cg, LLVMIntSLT, n, 0), cg_const(cg, 0), n);
    LLVMValueRef high = cg_select(cg, cg_compare(cg, LLVMIntSGT, low, max), cg_const(cg, max), low);
    /* string_size is a power of two: the mask changes nothing but shows the bound. */
    return cg_add(cg, cg_and(cg, high, cg_const(cg, max)), cg_const(cg, 1));
}

/* user_string_quoted of an unreadable string, 0 included: the address in
 * hex, as SystemTap's catch prints it ("0x0"), never an empty string. */
static void quoted_fault(struct codegen *cg, LLVMValueRef slot, LLVMValueRef address)
{
    LLVMValueRef value = cg_entry_alloca(cg, cg->i64, "address");
    cg_store(cg, address, value);
    LLVMValueRef args[5] = {slot, LLVMConstInt(cg->i32, cg->string_size, 0),
                            cg_string_literal(cg, "0x%llx", 6), value, LLVMConstInt(cg->i32, 8, 0)};
    cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
}

static LLVMValueRef user_string(struct codegen *cg, struct expr *call, int id)
{
    struct expr *address_expr = call->call.args;
    LLVMValueRef address = cg_operand(cg, address_expr);
    LLVMValueRef extra = address_expr->next ? cg_operand(cg, address_expr->next) : NULL;
    cg_set_location(cg, call->span);
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), slot);
    /* user_string_n and user_string_n_quoted: at most N bytes */
    int bounded = id == BUILTIN_USER_STRING_N || (id == BUILTIN_USER_STRING_QUOTED && extra);
    LLVMValueRef limit = bounded ? clamp_length(cg, extra) : cg_const(cg, cg->string_size);
    if (id == BUILTIN_USER_STRING_QUOTED) {
        LLVMValueRef result = read_user_string(cg, slot, address, limit, cg_is_kernel_read(call));
        /* a fault is negative; 0 is an empty string on older kernels (6.1
         * and 6.12 leave the NUL out of strncpy_from_user_nofault's count) */
        struct cg_if_else branch = cg_if_else(cg, cg_compare(cg, LLVMIntSLT, result, 0), "quoted_fault", "quoted_ok",
                                              "quoted_done");
        quoted_fault(cg, slot, address);
        LLVMBasicBlockRef fault_end = cg_current_block(cg);
        cg_else(cg, &branch);
        LLVMValueRef quoted = cg_string_quoted(cg, call->span, slot);
        LLVMBasicBlockRef ok_end = cg_current_block(cg);
        cg_end_if_else(cg, &branch);
        return cg_phi2(cg, cg->ptr, "", slot, fault_end, quoted, ok_end);
    }
    LLVMValueRef result = read_user_string(cg, slot, address, limit, cg_is_kernel_read(call));
    if (id == BUILTIN_USER_STRING2) {
        LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntSLT, result, 0), "string_fault", "string_done");
        cg_string_copy(cg, slot, extra);
        cg_end_if(cg, done);
        return slot;
    }
    fault_check(cg, call->span, result, address, cg_is_kernel_read(call) ? "kernel string copy fault at 0x%llx"
                                                                            : "user string copy fault at 0x%llx");
    return slot;
}

/* __tap_format(fmt, longs...): the kernel's bpf_snprintf, whose %pus reads
 * user strings; the format is a .rodata literal, the values 8 bytes each. */
static LLVMValueRef tap_format(struct codegen *cg, struct expr *call)
{
    struct expr *format = call->call.args;
    int count = 0;
    for (struct expr *a = format->next; a; a = a->next)
        count++;
    uint32_t data = cg_alloc_scratch(cg, (uint32_t)(count ? count : 1) * 8);
    int i = 0;
    for (struct expr *a = format->next; a; a = a->next, i++)
        cg_store(cg, cg_operand(cg, a), cg_scratch_ptr(cg, data + (uint32_t)i * 8));
    cg_set_location(cg, call->span);
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    LLVMValueRef args[5] = {slot, LLVMConstInt(cg->i32, cg->string_size, 0),
                            cg_string_literal(cg, format->string.value, format->string.len),
                            count ? cg_scratch_ptr(cg, data) : LLVMConstNull(cg->ptr),
                            LLVMConstInt(cg->i32, (unsigned)count * 8, 0)};
    cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
    return slot;
}

/* SystemTap's addr(): the instruction pointer of the registers the probe
 * has: the probed address in a process probe, where a timer.profile or perf
 * sample interrupted (user or kernel), a kprobe's; 0 where there are none
 * (tracepoints, timers, begin/end). Functions do not know their caller's
 * registers: refused there rather than a wrong 0. */
static LLVMValueRef probe_addr(struct codegen *cg, struct expr *e)
{
    const struct probe *probe = cg->fn->probe;
    if (cg->fn->kind != FN_PROBE) {
        diag_error(cg->diags, e->span, "addr() is read in the probe's own body, outside functions and loops (assign it to a variable there)");
        return cg_const(cg, 0);
    }
    if (!probe)
        return cg_const(cg, 0);
    if (probe_is_uprobe(probe))
        return load_register(cg, pt_regs_offset[DWARF_REG_IP]);
    /* a kernel function's probe: the probed address, as SystemTap's (which
     * sets the ip to it): a kprobe's ip is past its int3 or the ftrace
     * call, a kretprobe's the return address, a trampoline has none */
    if (probe_kind_has(probe->kind, KIND_FUNC_IP)) {
        LLVMValueRef args[1] = {LLVMGetParam(cg->fn->function, 0)};
        return cg_helper(cg, BPF_FUNC_get_func_ip, cg->i64, args, 1);
    }
    if (!probe_kind_has(probe->kind, KIND_SAMPLE_REGS))
        return cg_const(cg, 0);
    /* the context starts with the pt_regs (bpf_perf_event_data's first
     * member for samples); ip is its 17th word */
    LLVMValueRef at = cg_const(cg, 16 * 8);
    return cg_load(cg, cg_byte_ptr(cg, LLVMGetParam(cg->fn->function, 0), at));
}

LLVMValueRef cg_target_builtin(struct codegen *cg, struct expr *call, int builtin_id)
{
    const struct probe *probe = cg->fn->probe;
    int in_process_probe = probe && probe_is_uprobe(probe);
    switch (builtin_id) {
    case BUILTIN_USER_STRING: case BUILTIN_USER_STRING_N: case BUILTIN_USER_STRING2:
    case BUILTIN_USER_STRING_QUOTED:
        return user_string(cg, call, builtin_id);
    case BUILTIN_USER_INTEGER:
        return user_integer(cg, call);
    case BUILTIN_ADDR:
        return probe_addr(cg, call);
    case BUILTIN_UADDR:
        return in_process_probe ? load_register(cg, pt_regs_offset[DWARF_REG_IP]) : cg_stack_user_pc(cg);
    case BUILTIN_TAP_FORMAT:
        return tap_format(cg, call);
    case BUILTIN_PPFUNC: return cg_probe_point_string(cg, 1);
    }
    return cg_const(cg, 0);
}

/* --- @entry: an entry program saves values; the .return probe reads them -- */

/* The values in the map: a word per long, string_size bytes (whole words)
 * per string, in snapshot order. */
static uint32_t entry_value_size(struct codegen *cg, const struct expr *value)
{
    return value->type == TYPE_STRING ? (cg->string_size + 7) & ~7u : 8;
}

static uint32_t entry_value_offset(struct codegen *cg, const struct probe *probe, int k)
{
    uint32_t offset = 0;
    for (int i = 0; i < k; i++)
        offset += entry_value_size(cg, probe->entry_values[i]);
    return offset;
}

/* After the values, a probe with a tail chain keeps its record's state
 * (TAIL_STATE_*, return_tail.c). */
uint32_t cg_entry_state_offset(struct codegen *cg, const struct probe *probe)
{
    return entry_value_offset(cg, probe, probe->entry_count);
}

static uint32_t entry_record_size(struct codegen *cg, const struct probe *probe)
{
    return cg_entry_state_offset(cg, probe) + (probe_uprobe(probe)->tail_count ? 8 : 0);
}

/* One LRU hash per .return probe: {pid_tgid, CFA} -> the values at the call.
 * The CFA (rsp + 8 at the first instruction) equals rsp after the return, so
 * each frame of a recursion has its own entry. */
LLVMValueRef cg_entry_map(struct codegen *cg, const struct probe *probe)
{
    char name[48];
    snprintf(name, sizeof(name), "tap_entry_%d", probe->index);
    LLVMValueRef existing = LLVMGetNamedGlobal(cg->module, name);
    if (existing)
        return existing;
    LLVMTypeRef members[4] = {cg->ptr, cg->ptr, cg->ptr, cg->ptr};
    LLVMTypeRef type = LLVMStructTypeInContext(cg->context, members, 4, 0);
    LLVMValueRef map = LLVMAddGlobal(cg->module, type, name);
    LLVMSetInitializer(map, LLVMConstNull(type));
    LLVMSetSection(map, ".maps");
    LLVMSetAlignment(map, 8);
    uint64_t counts[4] = {BPF_MAP_TYPE_LRU_HASH, ENTRY_MAP_SIZE, 2, entry_record_size(cg, probe) / 8};
    LLVMMetadataRef di_members[4];
    static const char *names[4] = {"type", "max_entries", "key", "value"};
    for (int i = 0; i < 4; i++) {
        LLVMMetadataRef range = LLVMDIBuilderGetOrCreateSubrange(cg->di, 0, (int64_t)counts[i]);
        LLVMMetadataRef element = i < 2 ? cg->di_int : cg->di_long;
        uint64_t bits = i < 2 ? 32 : 64;
        LLVMMetadataRef array = LLVMDIBuilderCreateArrayType(cg->di, counts[i] * bits, (uint32_t)bits, element, &range, 1);
        LLVMMetadataRef pointer = LLVMDIBuilderCreatePointerType(cg->di, array, 64, 0, 0, "", 0);
        di_members[i] = LLVMDIBuilderCreateMemberType(cg->di, cg->di_unit, names[i], strlen(names[i]), cg->di_file,
                                                      0, 64, 64, (uint64_t)i * 64, LLVMDIFlagZero, pointer);
    }
    LLVMMetadataRef di_type = LLVMDIBuilderCreateStructType(cg->di, cg->di_unit, "", 0, cg->di_file, 0, 256, 64,
                                                           LLVMDIFlagZero, NULL, di_members, 4, 0, NULL, "", 0);
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(cg->di, NULL, 0);
    LLVMMetadataRef gve = LLVMDIBuilderCreateGlobalVariableExpression(
        cg->di, cg->di_unit, name, strlen(name), name, strlen(name), cg->di_file, 0, di_type, 0, expr, NULL, 64);
    LLVMGlobalSetMetadata(map, LLVMGetMDKindIDInContext(cg->context, "dbg", 3), gve);
    return map;
}

/* The key on the stack: {pid_tgid, the frame's CFA}. */
LLVMValueRef cg_entry_key(struct codegen *cg, LLVMValueRef cfa)
{
    LLVMTypeRef key_type = LLVMArrayType2(cg->i64, 2);
    LLVMValueRef key = cg_entry_alloca(cg, key_type, "entry_key");
    LLVMValueRef id = cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0);
    LLVMValueRef sp = cfa;
    LLVMValueRef zero = cg_i32(cg, 0), one = cg_i32(cg, 1);
    LLVMValueRef first[2] = {zero, zero}, second[2] = {zero, one};
    cg_store(cg, id, cg_element_ptr(cg, key_type, key, first, 2, ""));
    cg_store(cg, sp, cg_element_ptr(cg, key_type, key, second, 2, ""));
    return key;
}

/* In the probe: no saved entry (the call began before tap attached) means
 * no handler run. A .return consumes its entry; other probes may fire
 * several times in one call. */
static void restore_snapshots(struct codegen *cg, const struct probe *probe)
{
    LLVMValueRef map = cg_entry_map(cg, probe);
    /* no @entry value: the key is the CFA at a ret, rsp + 8 */
    LLVMValueRef cfa = probe->entry_key ? cg_operand(cg, probe->entry_key)
                                        : cg_add(cg, load_register(cg, pt_regs_offset[7]), cg_const(cg, 8));
    LLVMValueRef key = cg_entry_key(cg, cfa);
    LLVMValueRef args[2] = {map, key};
    LLVMValueRef values = cg_helper(cg, BPF_FUNC_map_lookup_elem, cg->ptr, args, 2);
    LLVMBasicBlockRef found = cg_if(cg, cg_is_null(cg, values), "no_entry", "entry_found");
    cg_branch(cg, cg->fn->unwind_block);
    cg_position(cg, found);

    for (int i = 0; i < probe->entry_count; i++) {
        LLVMValueRef at = cg_byte_at(cg, values, entry_value_offset(cg, probe, i));
        if (probe->entry_values[i]->type == TYPE_STRING) {
            if (!cg->fn->entry_strings)
                cg->fn->entry_strings = ARENA_ARRAY(cg->arena, uint32_t, MAX_ENTRY_SNAPSHOTS);
            cg->fn->entry_strings[i] = cg_alloc_string_slot(cg);
            cg_string_copy(cg, cg_scratch_ptr(cg, cg->fn->entry_strings[i]), at);
            continue;
        }
        LLVMValueRef value = cg_load(cg, at);
        cg_store(cg, value, cg_scratch_ptr(cg, regs_area(cg) + (uint32_t)(REGS_SNAPSHOT_WORD + i) * 8));
    }
    if (probe_kind_has(probe->kind, KIND_RETURN_PROBE) || probe_uprobe(probe)->at_returns) {
        LLVMValueRef del[2] = {map, key};
        cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, del, 2);
    }
}

/* A program beside a .return probe (its entry's, its tail jumps'): the
 * probe's place and name, none of its sites, group or values; its function,
 * probe_N_SUFFIX, in state. */
struct probe *cg_side_program(struct codegen *cg, const struct probe *ret, const char *suffix, int sleepable,
                              struct fn_state *state)
{
    struct probe *side = ARENA_NEW(cg->arena, struct probe);
    *side = *ret;
    side->kind = probe_kind_ops(ret->kind)->entry_kind;
    side->group_leader = NULL;
    side->group = NULL;
    side->group_count = 0;
    if (probe_is_uprobe(side)) {
        side->uprobe.at_returns = 0;
        side->uprobe.site_count = 0;
        side->uprobe.tail_count = 0;
        side->uprobe.sleepable = sleepable;
    }
    side->entry_values = NULL;
    side->entry_count = 0;
    side->condition = NULL;
    side->point = arena_printf(cg->arena, "%s (%s)", ret->point, suffix);
    char *name = arena_printf(cg->arena, "probe_%d_%s", ret->index, suffix[0] == '@' ? suffix + 1 : suffix);
    LLVMTypeRef param = cg->ptr;
    const char *param_names[1] = {"ctx"};
    const char *section = probe_kind_ops(side->kind)->section(cg->arena, side);
    LLVMValueRef function = cg_new_function(cg, name, LLVMFunctionType(cg->i32, &param, 1, 0), section,
                                            param_names, 0);
    *state = (struct fn_state){.kind = FN_PROBE, .function = function, .probe = side,
                               .scope = LLVMGetSubprogram(function)};
    return side;
}

const struct probe *cg_define_entry_probe(struct codegen *cg, const struct probe *ret, const char **prog_name)
{
    struct fn_state state;
    struct probe *entry = cg_side_program(cg, ret, "@entry", probe_uprobe(ret)->entry_sleepable, &state);
    if (probe_is_uprobe(entry)) {
        entry->uprobe.offset = ret->uprobe.entry_offset;
        entry->uprobe.vaddr = ret->uprobe.entry_vaddr;
    }
    entry->cookie = 0;
    *prog_name = LLVMGetValueName(state.function);
    LLVMValueRef function = state.function;
    struct fn_state *saved = cg->fn;
    cg->fn = &state;
    LLVMBasicBlockRef start = cg_block(cg, "entry"), done = cg_block(cg, "done");
    state.unwind_block = done;
    state.return_block = done;
    cg_position(cg, start);
    cg_set_location(cg, ret->span);
    state.scratch = cg_load_scratch(cg);
    cg_jump_if(cg, cg_is_null(cg, state.scratch), done, "run");
    cg_target_probe_entry(cg, LLVMGetParam(function, 0));
    uint32_t values = cg_alloc_scratch(cg, entry_record_size(cg, ret));
    for (int i = 0; i < ret->entry_count; i++) {
        LLVMValueRef to = cg_scratch_ptr(cg, values + entry_value_offset(cg, ret, i));
        if (ret->entry_values[i]->type == TYPE_STRING)
            cg_string_copy(cg, to, cg_operand(cg, ret->entry_values[i]));
        else
            cg_store(cg, cg_operand(cg, ret->entry_values[i]), to);
    }
    if (probe_uprobe(ret)->tail_count)
        cg_store(cg, cg_const(cg, TAIL_STATE_IN_FUNCTION), cg_scratch_ptr(cg, values + cg_entry_state_offset(cg, ret)));
    LLVMValueRef cfa = cg_binary(cg, LLVMAdd, load_register(cg, pt_regs_offset[7]), cg_const(cg, 8), "cfa");
    LLVMValueRef map = cg_entry_map(cg, ret), key = cg_entry_key(cg, cfa);
    cg_map_update(cg, map, key, cg_scratch_ptr(cg, values), BPF_ANY);
    cg_branch(cg, done);
    cg_position(cg, done);
    cg_return(cg, cg_i32(cg, 0));
    cg->fn = saved;
    return entry;
}
